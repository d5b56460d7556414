/* In a diff function, a value a function defined in another file leaves
   through a pointer passed on (a helper's parameter bound to '&yh', as R's
   choose passes '&s_choose' to lfastchoose2) carries a derivative: its
   arguments depend on x and it reaches the result. */
// GENERATED: f waits for ebd0's body until the file ends; the declarations of f_batched/f_grad are injected right after f
void ebd0(double x, double M, double *yh, double *yl);
static void both(double x, double *h, double *l) { ebd0(x, 2.0, h, l); }
// CHECK: diff-extern-out-passed.c:[[@LINE-1]]:65: error: the value 'ebd0' leaves in 'yh' (passed as '&yh') carries no derivative: 'ebd0' is called once per example and batchdiff does not see its body; define it in this file (static inline in the header that declares it, or marked batch/diff) so that it is inlined and differentiated, use 'yh' only where no derivative is needed (a flag, a comparison), compute the call's arguments from BD_NODIFF inputs, or use 'batch' without 'diff'
__attribute__((batch, diff)) double f(double x) {
  double yh, yl;
  both(x, &yh, &yl);
  return yh;
}
