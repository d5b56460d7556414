/* Local arrays must be one-dimensional arrays of scalars. */
__attribute__((batch, diff)) float f(float x) {
  float m[2][2] = {{x, 0.0f}, {0.0f, x}};
  // CHECK: local-array-2d.c:[[@LINE-1]]:9: error: local array 'm' of type 'float[2][2]' is not supported in a batch/diff function; use a one-dimensional array of 1..65536 scalars
  return m[0][0];
}
