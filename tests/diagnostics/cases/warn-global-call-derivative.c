/* In a diff function, a call of a function batchdiff does not see into
 * (another file's, made once per example) that may change a floating
 * global the function has written and whose derivative it uses after the
 * call: where the callee changes it (`acc = acc * 0.5 + k;`), the value
 * read back has no derivative, a warning at the call (values right; where
 * the callee leaves it alone, its derivative is kept). */
// EXIT: 0
// DEFINES: f f_batched f_grad g g_grad k k_batched k_grad
double acc;
void bump(void);
__attribute__((batch, diff)) double f(double x) {
  acc = x * x;
  bump();
  // CHECK: warn-global-call-derivative.c:[[@LINE-1]]:3: warning: 'bump' may change floating global 'acc', which carries a derivative here: batchdiff does not see into 'bump', so where the call changes 'acc' the value it leaves has no derivative (that part of the gradient is 0; the values are right); pass 'acc' to 'bump' as an argument and return its new value, or define 'bump' in this file
  return acc + x;
}

/* Not used after the call with its derivative: no warning. */
__attribute__((diff)) double g(double x) {
  acc = x * x;
  bump();
  acc = 2.0;
  return x * acc;
}

/* A helper inlined twice: one warning at its call. */
static double h(double x) {
  acc = x * x;
  bump();
  // CHECK: warn-global-call-derivative.c:[[@LINE-1]]:3: warning: 'bump' may change floating global 'acc', which carries a derivative here: batchdiff does not see into 'bump', so where the call changes 'acc' the value it leaves has no derivative (that part of the gradient is 0; the values are right); pass 'acc' to 'bump' as an argument and return its new value, or define 'bump' in this file
  return acc;
}
__attribute__((batch, diff)) double k(double x) { return h(x) + h(2 * x); }
