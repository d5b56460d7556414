/* A GNU statement expression. */
__attribute__((batch, diff)) float f(float x) {
  return ({ float t = x * x; t + 1.0f; });
  // CHECK: expr-statement-expression.c:[[@LINE-1]]:10: error: a GNU statement expression '({ ... })' is not supported in a batch/diff function; use a helper function
}
