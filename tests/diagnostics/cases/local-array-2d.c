/* Local arrays must be one- or two-dimensional arrays of scalars (a
   three-dimensional one). */
__attribute__((batch, diff)) float f(float x) {
  float m[2][2][2] = {{{x, 0.0f}, {0.0f, x}}};
  // CHECK: local-array-2d.c:[[@LINE-1]]:9: error: local array 'm' of type 'float[2][2][2]' is not supported in a batch/diff function; use a one- or two-dimensional array of 1..65536 scalars
  return m[0][0][0];
}
