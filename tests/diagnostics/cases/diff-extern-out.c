/* In a diff function, a value a function defined in another file leaves
   in an out-pointer ('&yh') carries a derivative (here: its arguments
   depend on x and it reaches the result). */
// GENERATED: f waits for ebd0's body until the file ends; the declarations of f_batched/f_grad are injected right after f
void ebd0(double x, double M, double *yh, double *yl);
__attribute__((batch, diff)) double f(double x, __attribute__((nodiff)) double m) {
  double yh, yl;
  ebd0(m, 2.0, &yh, &yl); /* from a BD_NODIFF input: a constant */
  double a = yh * x;
  ebd0(x, m, &yh, &yl);
  // CHECK: diff-extern-out.c:[[@LINE-1]]:14: error: the value 'ebd0' leaves in 'yh' (passed as '&yh') carries no derivative: 'ebd0' is called once per example and batchdiff does not see its body; define it in this file (static inline in the header that declares it, or marked batch/diff) so that it is inlined and differentiated, use 'yh' only where no derivative is needed (a flag, a comparison), compute the call's arguments from BD_NODIFF inputs, or use 'batch' without 'diff'
  return a + yh;
}
