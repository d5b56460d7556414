/* A pointer into a local array of more than 64 elements passed to a
   function another file defines: each call would get a copy of the
   example's whole array, which is made only for arrays of at most 64
   elements (a pointer into a smaller one, '&t[1]', is passed). */
// GENERATED: the declarations of f_batched are injected right after f
void scale(double *v, double k);
__attribute__((batch)) double f(double x) {
  double t[100] = {x, 2.0 * x};
  scale(&t[1], 0.5);
  // CHECK: call-extern-element.c:[[@LINE-1]]:3: error: a call to 'scale', which another file defines, with '&t[1]' as an argument is not supported in a batch/diff function; a function of another file is called once per example with numbers, string literals, file-scope pointer variables, the address of a scalar local ('&v', or a pointer to one passed on; for an element, copy it into one), the address of a struct of numbers ('&r'), a local array of at most 64 numbers, a row of it or a pointer into it ('y', 'r[i]', 'y + k'), an array parameter passed on (or a row of it), a null pointer, a 'const' table or a table the file only passes whole to such calls; define 'scale' in this file (or static inline in the header that declares it) so its body can be inlined
  return t[0] + t[1];
}
