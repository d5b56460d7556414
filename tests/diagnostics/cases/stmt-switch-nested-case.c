/* A case label inside a nested statement (Duff's device). */
__attribute__((batch)) double f(double x, int k) {
  switch (k) {
  case 0:
    x = x + 1.0;
    if (x > 2.0) {
    case 1:
    // CHECK: stmt-switch-nested-case.c:[[@LINE-1]]:5: error: a case label inside a statement nested in the 'switch' is not supported in a batch/diff function; write every case label directly in the switch's braces
      x = x * 2.0;
    }
  }
  return x;
}
