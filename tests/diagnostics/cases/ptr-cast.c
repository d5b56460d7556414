/* Reinterpreting an array through a pointer cast. */
__attribute__((batch)) float f(const double x[2]) {
  const float *p = (const float *)x;
  // CHECK: ptr-cast.c:[[@LINE-1]]:20: error: the pointer conversion 'BitCast' is not supported in a batch/diff function; keep the element type of the array the pointer points into
  return p[0];
}
