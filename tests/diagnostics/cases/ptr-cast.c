/* Reinterpreting an array through a pointer cast. */
__attribute__((batch)) float f(const double x[2]) {
  const float *p = (const float *)x;
  // CHECK: ptr-cast.c:[[@LINE-1]]:20: error: a conversion from 'const double *' to 'const float *' is not supported in a batch/diff function; keep the element type of the array the pointer points into
  return p[0];
}
