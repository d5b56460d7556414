/* A recursive call (made once per example, on the scalar function) in a
   function that writes a global (kept per example in the batch). */
int depth;
__attribute__((batch)) double f(double x, int k) {
  depth = k;
  if (k <= 0)
    return x;
  return 0.5 * f(x * x, k - 1);
  // CHECK: recursion-global.c:[[@LINE-1]]:16: error: a recursive call of 'f' in a function that writes global 'depth' is not supported in a batch/diff function; the recursive call runs the scalar function, which would use the global while the batch keeps it per example; write the recursion as a loop, or return the value instead of writing the global
}
