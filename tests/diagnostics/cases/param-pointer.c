/* Pointer parameters are not supported yet. */
__attribute__((batch, diff)) float f(const float *v,
                                     float x) {
  // CHECK: param-pointer.c:[[@LINE-2]]:51: error: pointer or array parameter 'v' is not supported in a batch/diff function; pointer and array parameters are not supported yet; pass scalars
  return x;
}
