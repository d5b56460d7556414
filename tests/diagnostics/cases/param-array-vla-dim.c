/* The rows' length of a VLA parameter: integer arithmetic over integer
   parameters and constants ('m[r][c]', 'm[r][c + 1]', 'm[r][2 * c]'). */
int G;
__attribute__((batch)) double f(int r, const double m[r][G]) {
  // CHECK: param-array-vla-dim.c:[[@LINE-1]]:53: error: array parameter 'm' has the dimension 'G', which is not integer arithmetic over integer parameters and constants; declare it as 'm[r][c]' with integer parameters r and c before it
  return m[0][0];
}
__attribute__((batch)) double g(int r, int c, int k,
                                const double m[r][c > k ? c : k]) {
  // CHECK: param-array-vla-dim.c:[[@LINE-1]]:46: error: array parameter 'm' has the dimension 'c > k ? c : k', which is not integer arithmetic over integer parameters and constants; declare it as 'm[r][c]' with integer parameters r and c before it
  return m[0][0];
}
/* A helper's VLA parameter, the same (a file-scope dimension). */
static double row_g(int r, const double m[r][G]) { return m[r - 1][0]; }
// CHECK: param-array-vla-dim.c:[[@LINE-1]]:59: error: a variable-length array parameter's dimension 'G', not an integer parameter, is not supported in a batch/diff function; declare the dimensions of array parameters with integer parameters and constants
__attribute__((batch)) double h(int r, int c, const double m[r][c]) {
  return row_g(r, m);
}
