/* A statement before the first case label never runs. */
__attribute__((batch)) double f(double x, int k) {
  switch (k) {
    x = x * 3.0;
    // CHECK: stmt-switch-before-case.c:[[@LINE-1]]:5: error: a statement before the first case label is not supported in a batch/diff function; it never runs; move it before the switch
  case 0:
    x = x + 1.0;
  }
  return x;
}
