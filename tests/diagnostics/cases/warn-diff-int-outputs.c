/* 'diff' on a function whose outputs are all integers (a status, an int
 * array: ERFA's eraA2tf and eraJdcalf, marked diff with the rest of
 * erfa.h) is a warning: its NAME_grad computes them and no derivative
 * (also with a calling convention attribute on the function type; once
 * for a function that waits for a callee's body, lowered twice). */
// EXIT: 0
// DEFINES: f f_batched f_grad g g_batched g_grad h h_batched h_grad a2tf a2tf_batched a2tf_grad
__attribute__((batch, diff)) int f(float x, int *flag) {
  // CHECK: warn-diff-int-outputs.c:[[@LINE-1]]:34: warning: 'diff' on 'f', whose outputs are all integers: 'f_grad' computes them as 'f_batched' does and no derivative (every shadow is left as it is); use only 'batch' if none is wanted
  *flag = x > 1.0f;
  return x > 0.0f;
}
__attribute__((ms_abi)) __attribute__((batch, diff)) int g(float x) {
  // CHECK: warn-diff-int-outputs.c:[[@LINE-1]]:58: warning: 'diff' on 'g', whose outputs are all integers: 'g_grad' computes them as 'g_batched' does and no derivative (every shadow is left as it is); use only 'batch' if none is wanted
  return x > 0.0f;
}
__attribute__((batch, diff)) void h(double a, char *sign, int f[2]) {
  // CHECK: warn-diff-int-outputs.c:[[@LINE-1]]:35: warning: 'diff' on 'h', whose outputs are all integers: 'h_grad' computes them as 'h_batched' does and no derivative (every shadow is left as it is); use only 'batch' if none is wanted
  *sign = a < 0.0 ? '-' : '+';
  f[0] = (int)a;
  f[1] = (int)(a * 60.0) % 60;
}
void d2tf(int ndp, double days, char *sign, int ihmsf[4]);
__attribute__((batch, diff)) void a2tf(int ndp, double angle, char *sign,
                                       int ihmsf[4]) {
  // CHECK: warn-diff-int-outputs.c:[[@LINE-2]]:35: warning: 'diff' on 'a2tf', whose outputs are all integers: 'a2tf_grad' computes them as 'a2tf_batched' does and no derivative (every shadow is left as it is); use only 'batch' if none is wanted
  d2tf(ndp, angle / 6.283185307179586, sign, ihmsf);
}
