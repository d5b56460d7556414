/* An array parameter can only be indexed, not passed on. */
static inline double first(const double *v) { return v[0]; }
__attribute__((batch)) double f(const double x[3]) {
  return first(x);
  // CHECK: param-array-whole.c:[[@LINE-1]]:16: error: using the array parameter 'x' as a whole (passing it on, pointer arithmetic) is not supported in a batch/diff function; index its elements; helpers take scalar parameters
}
