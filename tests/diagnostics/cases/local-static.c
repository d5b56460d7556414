/* Writing a static local that a read may find holding the previous call's
 * value: state shared between examples (a static local that is only read
 * holds its initializer, and one written before every read is an ordinary
 * local; both work). */
__attribute__((batch, diff)) float f(float x) {
  static float calls;
  calls += 1.0f;
  // CHECK: local-static.c:[[@LINE-1]]:3: error: writing static local 'calls' (line 7 may read the value the previous call left in it) is not supported in a batch/diff function; a static local keeps its value from one call to the next, which the examples of a batch cannot share; write it (every element) before every read, on every path, or use an ordinary local
  return x * calls;
}
