/* In a diff function, a recursive call that may change a floating global
 * the function has written and whose derivative it uses after the call
 * (cephes' lgam and sgngam, but a double): the call carries derivatives
 * through its arguments and result only, so where it changes the global
 * the value read back has no derivative. The warning does not say "define
 * it in this file" (it is defined: the call is recursive). */
// EXIT: 0
// DEFINES: f f_batched f_grad
static double acc;
__attribute__((batch, diff)) double f(double x, int n) {
  acc = x;
  if (n > 0) {
    double r = f(x * 0.5, n - 1);
    // CHECK: warn-recursion-global-derivative.c:[[@LINE-1]]:16: warning: the recursive call of 'f' may change floating global 'acc', which carries a derivative here: derivatives cross a recursive call through its arguments and result only, so where the call changes 'acc' the value it leaves has no derivative (that part of the gradient is 0; the values are right); pass 'acc' to 'f' as an argument and return its new value
    return r + acc;
  }
  return acc * x;
}
