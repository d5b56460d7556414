/* A volatile global (even const). */
const volatile float gain = 2.0f;
__attribute__((batch, diff)) float f(float x) {
  return gain * x;
  // CHECK: global-volatile.c:[[@LINE-1]]:10: error: access to volatile 'gain' is not supported in a batch/diff function; remove 'volatile'
}
