/* A block-scope extern declaration. */
__attribute__((batch, diff)) float f(float x) {
  extern float scale;
  // CHECK: local-extern.c:[[@LINE-1]]:16: error: static or extern local variable 'scale' is not supported in a batch/diff function; a batched function keeps no state between calls; use an ordinary local
  return x;
}
