/* extent takes its expression as a string (BD_EXTENT(n) writes one). */
__attribute__((batch)) double f(const double *x __attribute__((extent(n))), int n) {
  // CHECK: extent-not-string.c:[[@LINE-1]]:64: error: 'extent' takes the extent as a string, extent("n"); write BD_EXTENT(n)
  return x[n / 2];
}
