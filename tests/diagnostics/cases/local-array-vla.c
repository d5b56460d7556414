/* A variable-length local array of two dimensions (one dimension works:
 * `float v[n]`). */
__attribute__((batch, diff)) float f(float x, int n) {
  float v[n][n];
  // CHECK: local-array-vla.c:[[@LINE-1]]:9: error: local variable-length array 'v' of type 'float[n][n]' is not supported in a batch/diff function; use one dimension and index it by hand ('double a[r * c]', 'a[i * c + j]')
  v[0][0] = x;
  return v[0][0];
}
