/* Writing through a global pointer. */
float *out;
__attribute__((batch, diff)) float f(float x) {
  *out = x;
  // CHECK: expr-deref-write.c:[[@LINE-1]]:3: error: writing through global pointer 'out' is not supported in a batch/diff function; make it a global array, or pass the data as an array parameter
  return x;
}
