/* A local array (later: supported with fixed size). */
__attribute__((batch, diff)) float f(float x) {
  float v[2] = {x, x};
  // CHECK: local-array.c:[[@LINE-1]]:9: error: local variable 'v' of type 'float[2]' is not supported in a batch/diff function; local arrays are not supported yet
  return x;
}
