/* An external (non-static, non-inline, unannotated) function of this file. */
float twice(float x) { return 2.0f * x; }
__attribute__((batch, diff)) float f(float x) {
  return twice(x) + 1.0f;
  // CHECK: call-external.c:[[@LINE-1]]:10: error: call to external function 'twice' is not supported in a batch/diff function; mark it 'static inline' or batch/diff so its body can be batched
}
