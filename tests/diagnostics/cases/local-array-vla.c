/* A variable-length local array. */
__attribute__((batch, diff)) float f(float x, int n) {
  float v[n];
  // CHECK: local-array-vla.c:[[@LINE-1]]:9: error: local variable 'v' of type 'float[n]' is not supported in a batch/diff function; only one-dimensional arrays of constant size are supported
  v[0] = x;
  return v[0];
}
