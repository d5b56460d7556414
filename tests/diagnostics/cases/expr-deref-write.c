/* Writing through a global pointer. */
float *out;
__attribute__((batch, diff)) float f(float x) {
  *out = x;
  // CHECK: expr-deref-write.c:[[@LINE-1]]:3: error: writing through a pointer is not supported in a batch/diff function; index array parameters and local arrays with [] instead
  return x;
}
