/* A string literal. */
__attribute__((batch, diff)) float f(float x) {
  (void)"unused";
  // CHECK: expr-string-literal.c:[[@LINE-1]]:9: error: a string literal is not supported in a batch/diff function; use numbers
  return x;
}
