/* Writing a static local: state shared between examples (a static local
 * that is only read holds its initializer, and works). */
__attribute__((batch, diff)) float f(float x) {
  static float calls;
  calls += 1.0f;
  // CHECK: local-static.c:[[@LINE-1]]:3: error: writing static local 'calls' is not supported in a batch/diff function; a static local keeps its value from one call to the next, which the examples of a batch cannot share; use an ordinary local, or only read it
  return x * calls;
}
