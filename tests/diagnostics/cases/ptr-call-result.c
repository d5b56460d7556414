/* A helper returning a pointer. */
static inline double *pick(double *a) { return a + 1; }
__attribute__((batch)) double f(double x) {
  double t[2] = {x, x};
  return *pick(t);
  // CHECK: ptr-call-result.c:[[@LINE-1]]:11: error: a call returning a pointer is not supported in a batch/diff function; return a scalar, or write results through pointer parameters
}
