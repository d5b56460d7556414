/* A block-scope extern declaration of a variable whose type is declared in
 * the block (block-scope extern declarations of other globals work: they
 * are the global they name). */
__attribute__((batch, diff)) float f(float x) {
  struct pt { float a, b; };
  extern struct pt origin;
  return x * origin.a;
  // CHECK: local-extern.c:[[@LINE-1]]:14: error: 'origin', declared 'extern' in a block with a type declared there is not supported in a batch/diff function; declare the type, or the variable, at file scope
}
