/* A helper returning a type without SIMD lanes. */
static inline long double wide(double x) { return x; }
__attribute__((batch, diff)) double f(double x) {
  return (double)wide(x);
  // CHECK: helper-return.c:[[@LINE-1]]:18: error: a helper returning a non-scalar is not supported in a batch/diff function; return a scalar
}
