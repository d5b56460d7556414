/* Backward gotos whose loops overlap instead of nesting. */
__attribute__((batch, diff)) double f(double x, int n) {
  int i = 0;
a:
  x = x * 0.5;
b:
  // CHECK: stmt-goto-overlap.c:[[@LINE-1]]:1: error: a label that a backward 'goto' jumps to from beyond the loop another backward 'goto' forms is not supported in a batch/diff function; nest the jumps: a backward goto may jump only within the statements an enclosing one repeats
  x = x + 1.0;
  if (++i < n)
    goto a;
  if (x < 10.0)
    goto b;
  return x;
}
