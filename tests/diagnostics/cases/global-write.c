/* Writing a global. */
float last;
__attribute__((batch, diff)) float f(float x) {
  last = x;
  // CHECK: global-write.c:[[@LINE-1]]:3: error: writing of global variable 'last' is not supported in a batch/diff function; return the value instead
  return x;
}
