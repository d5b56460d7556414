/* A row of a 2-D array parameter of doubles with a derivative (one array
   per example) passed on to a function another file defines, called once
   per example with the example's own array, as ERFA's eraCpv passes
   pv[0] to eraCp: batchdiff cannot differentiate the call, so the
   derivative through it would be lost (the same under batch alone is
   passed). */
// GENERATED: f waits for cp's body until the file ends; the declarations of f_batched/f_grad are injected right after f
void cp(double p[3], double c[3]);
__attribute__((batch, diff)) double f(double pv[2][3], double x) {
  double c[3];
  cp(pv[1], c);
  // CHECK: call-extern-array-varying-row.c:[[@LINE-1]]:6: error: passing the array parameter 'pv', which has a derivative, to 'cp', which is called once per example, is not supported in a batch/diff function; its derivative through the call is unknown to batchdiff: annotate it BD_NODIFF, or use 'batch' without 'diff'
  return x * c[0] + pv[0][0];
}
