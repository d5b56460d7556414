/* Mutual recursion through helpers that pass a pointer: reported at the
   call that closes the cycle. */
static void odd(float x, float *out);
static void even(float x, float *out) {
  if (x > 1.0f)
    odd(x - 1.0f, out);
  else
    *out = x;
}
static void odd(float x, float *out) { even(x * 0.5f, out); }
  // CHECK: recursion-mutual.c:[[@LINE-1]]:40: error: recursion (through 'even') is not supported in a batch/diff function; write the recursion as a loop (a recursive call that passes and returns numbers only is made once per example, on the scalar function)
__attribute__((batch, diff)) float f(float x) {
  float r;
  even(x, &r);
  return r;
}
