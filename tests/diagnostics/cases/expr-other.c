/* Any other expression is named in C's words: here a compound literal. */
__attribute__((batch, diff)) float f(float x) {
  return (float){x} * 2.0f;
  // CHECK: expr-other.c:[[@LINE-1]]:10: error: a compound literal '(type){...}' is not supported in a batch/diff function; use arithmetic on scalar locals and parameters
}
