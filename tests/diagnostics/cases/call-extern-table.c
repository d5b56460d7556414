/* A function another file defines (declared here, as cephes' mconf.h
   declares polevl), called with a table that is not const which the file
   also reads: the callee might write it while the batch reads it (a const
   table, or one the file only passes whole to such calls, is passed as it
   is), so its body must be in this file. */
// GENERATED: the declarations of f_batched/f_grad are injected right after f
static double P[] = {1.0, 2.0, 3.0};
double polevl(double, void *, int);
__attribute__((batch)) double f(double x) {
  return polevl(x, P, 2) + P[0];
  // CHECK: call-extern-table.c:[[@LINE-1]]:10: error: a call to 'polevl', which another file defines, with 'P' as an argument is not supported in a batch/diff function; a function of another file is called once per example with numbers, string literals, file-scope pointer variables, the address of a scalar local ('&v', or a pointer to one passed on; for an element, copy it into one), the address of a struct of numbers ('&r'), a local array of at most 64 numbers, a row of it or a pointer into it ('y', 'r[i]', 'y + k'), an array parameter passed on (or a row of it), a null pointer, a 'const' table or a table the file only passes whole to such calls; define 'polevl' in this file (or static inline in the header that declares it) so its body can be inlined
}
