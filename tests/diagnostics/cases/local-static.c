/* A static local would be state shared between examples. */
__attribute__((batch, diff)) float f(float x) {
  static float calls;
  // CHECK: local-static.c:[[@LINE-1]]:16: error: static or extern local variable 'calls' is not supported in a batch/diff function; a batched function keeps no state between calls; use an ordinary local
  return x;
}
