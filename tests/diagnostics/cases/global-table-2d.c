/* A three-dimensional global table (one- and two-dimensional ones work). */
static const double T[2][2][3] = {{{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}}};
__attribute__((batch, diff)) double f(double x, int i) {
  return T[i & 1][1][2] * x;
  // CHECK: global-table-2d.c:[[@LINE-1]]:10: error: a row of the global table 'T' of three or more dimensions is not supported in a batch/diff function; use a one- or two-dimensional table, indexed as t[i][j * M + k]
}
