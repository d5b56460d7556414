/* A recursive call (made once per example, on the scalar function) in a
   function whose static local is written before every read (kept per
   example in the batch, but written by the scalar function the call
   runs). */
__attribute__((batch)) double f(double x, int k) {
  static double t;
  t = x * x;
  if (k <= 0)
    return t;
  return t + 0.5 * f(x, k - 1);
  // CHECK: local-static-recursion.c:[[@LINE-1]]:20: error: a recursive call of 'f' in a function that writes static local 't' is not supported in a batch/diff function; the recursive call runs the scalar function, which writes the static itself while the batch keeps a copy per example; write the recursion as a loop, or use an ordinary local
}
