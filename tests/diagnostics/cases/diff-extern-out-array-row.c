/* In a diff function, a value a function defined in another file leaves
   in a row of a 2-D local array (ERFA's eraCp(pv[0], c) writing c, here
   filling pv[1]) carries a derivative: the call gets a copy of the
   example's whole array, and what it leaves there has none. */
// GENERATED: f waits for cp's body until the file ends; the declarations of f_batched/f_grad are injected right after f
void cp(double p[3], double c[3]);
__attribute__((batch, diff)) double f(double x) {
  double pv[2][3] = {{x, 2.0 * x, 3.0}, {0.0, 0.0, 0.0}};
  cp(pv[0], pv[1]);
  // CHECK: diff-extern-out-array-row.c:[[@LINE-1]]:6: error: the value 'cp' leaves in the array 'pv' (passed whole) carries no derivative: 'cp' is called once per example and batchdiff does not see its body; define it in this file (static inline in the header that declares it, or marked batch/diff) so that it is inlined and differentiated, use 'pv' only where no derivative is needed (a flag, a comparison), compute the call's arguments from BD_NODIFF inputs, or use 'batch' without 'diff'
  return pv[1][1] * x;
}
