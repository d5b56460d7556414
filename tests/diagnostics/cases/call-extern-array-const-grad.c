/* An array parameter of const elements passed to a function of another
   file marked batch, diff in its header whose parameter is a pointer to
   non-const (C converts it, with a warning), in a diff function: the
   callee may write what it gets, and the function's array is const. */
// GENERATED: f waits for cp3's body until the file ends; the declarations of f_batched/f_grad are injected right after f
__attribute__((batch, diff)) void cp3(double p[3], double c[3]);
__attribute__((batch, diff)) double f(const double p[3], double x) {
  double c[3];
#pragma clang diagnostic ignored "-Wincompatible-pointer-types-discards-qualifiers"
  cp3(p, c);
  // CHECK: call-extern-array-const-grad.c:[[@LINE-1]]:7: error: passing 'p', a parameter of const elements, to 'cp3' as a pointer to non-const, where its derivative comes from 'cp3_grad', is not supported in a batch/diff function; declare the parameter const where this file declares 'cp3' (its copy is then only read), or copy 'p' into a local array and pass that
  return c[0] * x + c[1] * c[2];
}
