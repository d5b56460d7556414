/* A K&R helper called with too few arguments: reported at the parameter
   that got no argument (after clang's own warning at the call). */
// FLAGS: -Wno-deprecated-non-prototype
static float add(a, b) float a, b; { return a + b; }
__attribute__((batch, diff)) float f(float x) { return add(x); }
  // CHECK: helper-parameter.c:[[@LINE-1]]:61: warning: too few arguments in call to 'add'
  // CHECK: helper-parameter.c:[[@LINE-3]]:33: error: helper parameter 'b' is not supported in a batch/diff function; helpers take scalar parameters
