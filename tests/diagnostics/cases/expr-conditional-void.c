/* A '?:' whose arms are not arithmetic. */
__attribute__((batch, diff)) float f(float x) {
  x > 0.0f ? (void)0 : (void)0;
  // CHECK: expr-conditional-void.c:[[@LINE-1]]:3: error: a '?:' of non-arithmetic type is not supported in a batch/diff function; use arithmetic types
  return x;
}
