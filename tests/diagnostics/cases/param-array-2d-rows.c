/* A pointer to rows needs a declared number of rows, unless the body's
   indices alone tell it ('m[i]' under 'i < n', constant indices): here
   'm[k]' does not. */
__attribute__((batch)) double f(const double (*m)[3], int k) {
  // CHECK: param-array-2d-rows.c:[[@LINE-1]]:48: error: two-dimensional array parameter 'm' needs a declared number of rows in a batch/diff function; declare it as 'const double m[N][3]' or 'const double m[n][3]' with an integer parameter n
  return m[k][0];
}
