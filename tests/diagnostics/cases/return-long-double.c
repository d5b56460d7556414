/* Returning long double (also with a calling convention attribute on the
 * function type). */
__attribute__((batch)) long double f(double x) {
  // CHECK: return-long-double.c:[[@LINE-1]]:24: error: returning type 'long double' is not supported in a batch/diff function; return a float, double, integer or _Bool scalar
  return x;
}
__attribute__((sysv_abi)) __attribute__((batch)) long double g(double x) {
  // CHECK: return-long-double.c:[[@LINE-1]]:50: error: returning type 'long double' is not supported in a batch/diff function; return a float, double, integer or _Bool scalar
  return x;
}
