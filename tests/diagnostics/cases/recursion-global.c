/* A recursive call in a function that writes a global, where an example
   may not have written it before the call: the call's run uses the
   global, so each example's call is made with the example's value in it
   and reads back what the call left, which needs the global written on
   every path to the call (as cephes' lgam writes sgngam first:
   tests/exec/test_recursion_global.c), or on none and on every path
   through the function. */
int last, depth;
__attribute__((batch)) double f(double x, int k) {
  if (x > 0)
    last = k;
  if (k <= 0)
    return x;
  return 0.5 * f(x * x, k - 1);
  // CHECK: recursion-global.c:[[@LINE-1]]:16: error: a recursive call of 'f' in a function that writes global 'last', where an example may not have written it is not supported in a batch/diff function; the call's run uses the global, so each example's call is made with the global as the example left it and reads back what the call left, which needs the global written on every path to the call (or on none, and on every path through the function); write it before the recursive call on every path
}
__attribute__((batch)) double g(double x, int k) {
  if (k <= 0)
    return x;
  double r = 0.5 * g(x * x, k - 1);
  // CHECK: recursion-global.c:[[@LINE-1]]:20: error: a recursive call of 'g' in a function that writes global 'depth', where an example may not have written it is not supported in a batch/diff function; the call's run uses the global, so each example's call is made with the global as the example left it and reads back what the call left, which needs the global written on every path to the call (or on none, and on every path through the function); write it before the recursive call on every path
  if (x > 1)
    depth = k;
  return r;
}
