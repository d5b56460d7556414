/* Array parameters are not supported yet. */
__attribute__((batch, diff)) float f(float x, float v[3]) {
  // CHECK: param-array.c:[[@LINE-1]]:53: error: pointer or array parameter 'v' is not supported in a batch/diff function; pointer and array parameters are not supported yet; pass scalars
  return x;
}
