/* long double has no SIMD lanes. */
__attribute__((batch, diff)) double f(double x, long double y) {
  // CHECK: param-long-double.c:[[@LINE-1]]:61: error: parameter 'y' of type 'long double' is not supported in a batch/diff function; use float, double, integer or _Bool parameters
  return x;
}
