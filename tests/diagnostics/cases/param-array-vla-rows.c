/* Rows of a variable length need a number of rows: declared ('m[r][c]',
   'm[4][c]', BD_EXTENT(r)) or told by the indices alone ('m[i]' under
   'i < r', constant indices); 'm[k]' does not tell it. */
__attribute__((batch)) double f(int c, const double m[][c], int k) {
  // CHECK: param-array-vla-rows.c:[[@LINE-1]]:53: error: two-dimensional array parameter 'm' needs a declared number of rows in a batch/diff function; declare it as 'const double m[n][c]' with an integer parameter n, or annotate it BD_EXTENT(n)
  return m[k][0];
}
__attribute__((batch)) double g(int b, int c, const double t[][b][c], int k) {
  // CHECK: param-array-vla-rows.c:[[@LINE-1]]:60: error: three-dimensional array parameter 't' needs a declared number of planes in a batch/diff function; declare it as 'const double t[n][b][c]' with an integer parameter n, or annotate it BD_EXTENT(n)
  return t[k][0][0];
}
/* A number of rows that is not integer arithmetic over parameters. */
__attribute__((batch)) double h(int r, int c, const double m[r > c ? r : c][c]) {
  // CHECK: param-array-vla-rows.c:[[@LINE-1]]:60: error: array parameter 'm' declares its number of rows with an expression that is not integer arithmetic over integer parameters and constants; declare it as 'const double m[r][c]' with an integer parameter r
  return m[0][0];
}
