/* Direct recursion through a call that passes a pointer (a recursive call
   that passes and returns numbers only is made once per example). */
__attribute__((batch)) float f(const float x[4], int n) {
  return n > 0 ? x[0] + f(x + 1, n - 1) : 0.0f;
  // CHECK: recursion-direct.c:[[@LINE-1]]:25: error: recursion (through 'f') is not supported in a batch/diff function; write the recursion as a loop (a recursive call that passes and returns numbers only is made once per example, on the scalar function)
}
