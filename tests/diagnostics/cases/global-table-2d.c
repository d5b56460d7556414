/* A two-dimensional global table (tables are one-dimensional). */
static const double T[2][3] = {{1.0, 2.0, 3.0}, {4.0, 5.0, 6.0}};
__attribute__((batch, diff)) double f(double x, int i) {
  return T[i & 1][2] * x;
  // CHECK: global-table-2d.c:[[@LINE-1]]:10: error: a row of the two-dimensional global table 'T' is not supported in a batch/diff function; use a one-dimensional array, indexed as a[i * N + j]
}
