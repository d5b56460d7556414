/* A batch/diff function calling a function batchdiff generated (here to
   differentiate a gradient: no second derivatives). */
// GENERATED: f_batched and f_grad are generated (f is fine); gx is the error
__attribute__((batch, diff)) double f(double x, double y) { return x * x * y; }
__attribute__((batch, diff)) double gx(double x, double y) {
  double d = 0;
  f_grad(1, &x, &y, 0, 0, &d, 0);
  // CHECK: call-generated.c:[[@LINE-1]]:3: error: a call to 'f_grad', which batchdiff generates, is not supported in a batch/diff function; call 'f' itself (it is inlined, batched and differentiated with the caller), and call 'f_grad' from code that is not batch/diff (generated functions are not differentiated again: no second derivatives)
  return d;
}
