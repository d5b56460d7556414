/* A local array passed twice to a function called once per example: each
   argument gets a copy of the example's array, so the callee would not
   see one array twice. */
// GENERATED: f waits for both's body until the file ends; the declarations of f_batched are injected right after f
void both(double x, double *a, double *b);
__attribute__((batch)) double f(double x) {
  double y[2] = {x, 2.0 * x};
  both(x, y, y);
  // CHECK: call-extern-array-twice.c:[[@LINE-1]]:14: error: passing the local array 'y' twice to 'both', which is called once per example, is not supported in a batch/diff function; each call gets a copy of the example's array per argument: pass it once (copy it into another local array for the second)
  return y[0] + y[1];
}
