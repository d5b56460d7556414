/* A diff function that declares a long double local itself: its batched
   version calls the scalar function once per example, whose derivative
   batchdiff does not know (NAME_grad, NAME_jvp, NAME_hvp). */
__attribute__((batch, diff)) double f(double x, int n) {
  // CHECK: diff-long-double-function.c:[[@LINE-1]]:37: error: 'f' declares a long double local, so its batched version calls 'f' once per example and batchdiff does not know its derivative; move the long double part into a helper whose result is not differentiated, or use 'batch' without 'diff'
  long double s = 0;
  for (int i = 1; i <= n; i++)
    s += (long double)x / i;
  return (double)s;
}
/* Long double in expressions only, no such local. */
__attribute__((batch, diff)) double g(double x, double y) {
  // CHECK: diff-long-double-function.c:[[@LINE-1]]:37: error: 'g' computes in long double, so its batched version calls 'g' once per example and batchdiff does not know its derivative; move the long double part into a helper whose result is not differentiated, or use 'batch' without 'diff'
  return (double)((long double)x * y + 1.0);
}
