/* A pointer walked in nested loops: the walk is as long as the loops'
 * product, which no parameter names (one counted loop, 'for (i = 0; i < n;
 * i++) s += *p++;', gives the extent n) */
__attribute__((batch, diff)) double f(const double *p, int n, int m) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      s += *p++;
  // CHECK: param-array-extent-walk.c:[[@LINE-1]]:13: error: cannot infer the extent of 'p' in a batch/diff function: it is used as a pointer here; declare it as 'const double p[n]' with an integer parameter n, or 'const double p[static N]'
  return s;
}
