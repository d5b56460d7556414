/* A block-scope declaration that is neither a variable, a type nor a
 * function prototype: a GNU local label (block-scope prototypes such as
 * 'float helper(float);' are accepted: calls find the definition). */
__attribute__((batch, diff)) float f(float x) {
  __label__ out;
  // CHECK: decl-label.c:[[@LINE-1]]:13: error: this declaration is not supported in a batch/diff function; declare scalar locals
  x *= 2.0f;
out:
  return x;
}
