/* A pointer parameter passed to a helper that indexes it with an index no
 * loop bound explains (a[j * j]): no extent (a[j] under 'for (j = 0; j < m;
 * j++)', m given a parameter or a constant, gives one) */
static double sq(const double *a, int m) {
  double s = 0;
  for (int j = 0; j < m; j++)
    s += a[j * j];
  return s;
}

__attribute__((batch, diff)) double f(const double *x, int n, int d) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sq(x + i * d, d);
  // CHECK: param-array-extent-helper-index.c:[[@LINE-1]]:13: error: cannot infer the extent of 'x' in a batch/diff function: it is passed to 'sq' as 'x + i * d', where no loop bound or constant explains its indices; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  return s;
}
