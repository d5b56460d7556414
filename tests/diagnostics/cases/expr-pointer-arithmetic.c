/* Pointer arithmetic on global pointers (reported at the operator). */
float *lo, *hi;
__attribute__((batch)) long f(float x) {
  return hi - lo;
  // CHECK: expr-pointer-arithmetic.c:[[@LINE-1]]:13: error: pointer arithmetic is not supported in a batch/diff function; index array parameters and local arrays with [] instead
}
