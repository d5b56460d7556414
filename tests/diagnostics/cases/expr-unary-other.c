/* A unary operator without a batched form (__real__ of an rvalue). */
__attribute__((batch, diff)) float f(float x) {
  return __real__(x + 1.0f);
  // CHECK: expr-unary-other.c:[[@LINE-1]]:10: error: this unary operator is not supported in a batch/diff function; use scalar arithmetic
}
