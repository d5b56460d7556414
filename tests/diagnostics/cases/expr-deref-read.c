/* Reading through a global pointer. */
float *weights;
__attribute__((batch, diff)) float f(float x) {
  return x * *weights;
  // CHECK: expr-deref-read.c:[[@LINE-1]]:14: error: reading through global pointer 'weights' is not supported in a batch/diff function; make it a global array, or pass the data as an array parameter
}
