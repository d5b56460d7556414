/* Incrementing a global counter. */
int calls;
__attribute__((batch, diff)) float f(float x) {
  calls++;
  // CHECK: global-increment.c:[[@LINE-1]]:3: error: writing of global variable 'calls' is not supported in a batch/diff function; return the value instead
  return x;
}
