/* A static function declared but never defined in this file (no other file
   can define it): reported at the call at the end of the translation unit
   (its body could still have come). */
// GENERATED: the declarations of f_batched/f_grad are injected right after f
static float elsewhere(float);
__attribute__((batch, diff)) float f(float x) {
  return 2.0f * elsewhere(x);
  // CHECK: call-unknown.c:[[@LINE-1]]:17: error: a call to 'elsewhere', which this file declares but never defines, is not supported in a batch/diff function; define it in this file (before or after the caller) so its body can be inlined
}
