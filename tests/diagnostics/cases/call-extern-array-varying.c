/* An array parameter of doubles with a derivative (one array per example)
   passed on to a function another file defines, called once per example
   with the example's own array: batchdiff cannot differentiate the call,
   so the derivative through it would be lost (an array of integers, or a
   BD_NODIFF one, is passed on under diff too). */
// GENERATED: f waits for weigh's body until the file ends; the declarations of f_batched/f_grad are injected right after f
double weigh(const double *w, int n, double x);
__attribute__((batch, diff)) double f(const double w[4], double x) {
  return x * weigh(w, 4, x) + w[0];
  // CHECK: call-extern-array-varying.c:[[@LINE-1]]:20: error: passing the array parameter 'w', which has a derivative, to 'weigh', which is called once per example, is not supported in a batch/diff function; its derivative through the call is unknown to batchdiff: annotate it BD_NODIFF, or use 'batch' without 'diff'
}
