/* A volatile parameter. */
__attribute__((batch, diff)) float f(volatile float x) {
  // CHECK: param-volatile.c:[[@LINE-1]]:53: error: a volatile parameter is not supported in a batch/diff function; remove 'volatile'
  return x;
}
