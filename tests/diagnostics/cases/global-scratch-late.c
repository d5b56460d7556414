/* A definition after a batch/diff function that keeps a static global per
   example as scratch within one expression (nrutil.h's DSQR), reading it
   outside such an expression: it would see what the batch left (the global
   as it was), not what the scalar loop would leave. */
// GENERATED: f is generated before the later definition comes
static double dsqrarg;
#define DSQR(a) ((dsqrarg = (a)) == 0.0 ? 0.0 : dsqrarg * dsqrarg)
__attribute__((batch, diff)) double f(double x) {
  if (x > 1.0)
    return DSQR(x - 1.0);
  return x;
}
double last(void) { return dsqrarg; }
// CHECK: global-scratch-late.c:[[@LINE-1]]:28: error: 'dsqrarg' is used here other than as scratch within one expression, after a batch/diff function that keeps it per example as such (the batch leaves it as it was, where the scalar loop would leave the last example's value); assign it in the expression that reads it, as nrutil.h's macros do, or use a variable of its own here
// CHECK: global-scratch-late.c:6:15: note: 'dsqrarg' is declared here
