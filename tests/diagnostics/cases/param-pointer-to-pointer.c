/* Pointers to pointers (or structs) have no lanes. */
__attribute__((batch)) float f(const float **v) {
  // CHECK: param-pointer-to-pointer.c:[[@LINE-1]]:46: error: pointer parameter 'v' to 'const float *' is not supported in a batch/diff function; point to float, double, integer or _Bool elements: pass a matrix as one array, a C99 array parameter 'const double a[n][m]' (row-major, after its integer parameters n and m) or 'const double *a' read as a[i * m + j]
  return v[0][0];
}
