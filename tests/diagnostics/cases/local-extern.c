/* A block-scope extern declaration. */
__attribute__((batch, diff)) float f(float x) {
  extern float scale;
  // CHECK: local-extern.c:[[@LINE-1]]:16: error: a block-scope 'extern' declaration of 'scale' is not supported in a batch/diff function; declare it at file scope
  return x;
}
