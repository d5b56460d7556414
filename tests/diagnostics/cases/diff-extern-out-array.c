/* In a diff function, a value a function defined in another file leaves
   in a local array passed whole (musl's n = __rem_pio2(x, y) filling
   double y[2]) carries a derivative. */
// GENERATED: f waits for rem_pio2's body until the file ends; the declarations of f_batched/f_grad are injected right after f
int rem_pio2(double x, double *y);
__attribute__((batch, diff)) double f(double x) {
  double y[2];
  int n = rem_pio2(x, y);
  // CHECK: diff-extern-out-array.c:[[@LINE-1]]:23: error: the value 'rem_pio2' leaves in the array 'y' (passed whole) carries no derivative: 'rem_pio2' is called once per example and batchdiff does not see its body; define it in this file (static inline in the header that declares it, or marked batch/diff) so that it is inlined and differentiated, use 'y' only where no derivative is needed (a flag, a comparison), compute the call's arguments from BD_NODIFF inputs, or use 'batch' without 'diff'
  return n & 1 ? y[0] : -y[0];
}
