/* A pointer parameter only walked by a pointer: no extent to infer. */
__attribute__((batch, diff)) double f(const double *x, int n) {
  const double *p = x;
  // CHECK: param-array-extent-pointer.c:[[@LINE-1]]:21: error: cannot infer the extent of 'x' in a batch/diff function: it is used as a pointer here; declare it as 'const double x[n]' with an integer parameter n, or 'const double x[static N]'
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += *p++;
  return s;
}
