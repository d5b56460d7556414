/* switch on an integer parameter. */
__attribute__((batch)) float f(int k, float x) {
  switch (k) {
  // CHECK: stmt-switch.c:[[@LINE-1]]:3: error: 'switch' is not supported in a batch/diff function; use if/else
  case 0:
    return x;
  default:
    return -x;
  }
}
