/* Pointers to pointers (or structs) have no lanes. */
__attribute__((batch)) float f(const float **v) {
  // CHECK: param-pointer-to-pointer.c:[[@LINE-1]]:46: error: pointer parameter 'v' to 'const float *' is not supported in a batch/diff function; point to float, double, integer or _Bool elements
  return v[0][0];
}
