/* A block-scope function declaration. */
__attribute__((batch, diff)) float f(float x) {
  float helper(float);
  // CHECK: decl-function.c:[[@LINE-1]]:9: error: this declaration is not supported in a batch/diff function; declare scalar locals
  return x;
}
