/* Reading through a global pointer. */
float *weights;
__attribute__((batch, diff)) float f(float x) {
  return x * *weights;
  // CHECK: expr-deref-read.c:[[@LINE-1]]:14: error: reading through a pointer is not supported in a batch/diff function; index array parameters and local arrays with [] instead
}
