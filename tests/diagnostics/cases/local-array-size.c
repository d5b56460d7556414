/* A local array of more than 65536 elements (arrays of one, two or three
   dimensions up to that size work; a batched one holds a vector per
   element). */
__attribute__((batch, diff)) float f(float x) {
  float m[2][256][256] = {{{x, 0.0f}, {0.0f, x}}};
  // CHECK: local-array-size.c:[[@LINE-1]]:9: error: local array 'm' of type 'float[2][256][256]' is not supported in a batch/diff function; use an array of 1..65536 scalars
  return m[0][0][0];
}
