/* In a diff function, a differentiated value of a call of a helper that
   declares a long double local (R's LDOUBLE sums; made once per example
   on the scalar function). */
static double ldsum(double x, int n) {
  long double s = 0;
  for (int i = 1; i <= n; i++)
    s += (long double)x / i;
  return (double)s;
}
__attribute__((batch, diff)) double f(double x, int n) {
  return x * ldsum(x, n);
  // CHECK: diff-long-double.c:[[@LINE-1]]:14: error: 'ldsum' declares a long double local, so batchdiff calls it once per example and does not know its derivative; compute its arguments from BD_NODIFF inputs, use its result only where no derivative is needed, or use 'batch' without 'diff'
}
/* A helper with long double in expressions only. */
static double ldmul(double x, double y) {
  return (double)((long double)x * y + 1.0);
}
__attribute__((batch, diff)) double g(double x, double y) {
  return x + ldmul(x, y);
  // CHECK: diff-long-double.c:[[@LINE-1]]:14: error: 'ldmul' computes in long double, so batchdiff calls it once per example and does not know its derivative; compute its arguments from BD_NODIFF inputs, use its result only where no derivative is needed, or use 'batch' without 'diff'
}
/* A local array passed to a helper computing in long double (copied per
   example) holding a differentiated value. */
static double lse(const double *v, int n) {
  long double s = 0;
  for (int i = 0; i < n; i++)
    s += __builtin_expl(v[i]);
  return (double)s;
}
__attribute__((batch, diff)) double h(double x, double y) {
  double v[2] = {x, y};
  return lse(v, 2);
  // CHECK: diff-long-double.c:[[@LINE-1]]:10: error: 'lse' declares a long double local, so batchdiff calls it once per example and does not know its derivative; compute its arguments from BD_NODIFF inputs, use its result only where no derivative is needed, or use 'batch' without 'diff'
}
