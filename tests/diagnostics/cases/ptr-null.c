/* A null pointer. */
__attribute__((batch)) double f(double x) {
  double *p = 0;
  // CHECK: ptr-null.c:[[@LINE-1]]:15: error: a null pointer is not supported in a batch/diff function; point it into an array or at a local
  return x;
}
