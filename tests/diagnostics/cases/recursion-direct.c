/* Direct recursion. */
__attribute__((batch, diff)) float f(float x) {
  return x > 1.0f ? f(x - 1.0f) : x;
  // CHECK: recursion-direct.c:[[@LINE-1]]:21: error: recursion (through 'f') is not supported in a batch/diff function; write the recursion as a loop
}
