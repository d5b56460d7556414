/* The address of one variable passed twice to a function called once per
   example: each out-pointer gets a scalar of its own, so the callee would
   not see one address twice. */
// GENERATED: f waits for minmax's body until the file ends; the declarations of f_batched are injected right after f
void minmax(double x, double *lo, double *hi);
__attribute__((batch)) double f(double x) {
  double m = 0.0;
  minmax(x, &m, &m);
  // CHECK: call-extern-twice.c:[[@LINE-1]]:17: error: passing '&m' twice to 'minmax', which is called once per example, is not supported in a batch/diff function; each out-pointer gets a scalar of its own: pass each variable's address once (copy it into another local for the second)
  return m;
}
