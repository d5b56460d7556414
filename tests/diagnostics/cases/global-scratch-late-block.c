/* A definition after a batch/diff function that keeps a static global per
   example as scratch within one expression (nrutil.h's DSQR), reading it
   inside a block literal (-fblocks), which runs when it is called: each
   full expression of a block's body must use it as scratch on its own (the
   first block does), not read what the batch or the scalar loop left (the
   second, and the third inside a statement expression). */
// FLAGS: -fblocks
// GENERATED: f is generated before the later definitions come
static double dsqrarg;
#define DSQR(a) ((dsqrarg = (a)) == 0.0 ? 0.0 : dsqrarg * dsqrarg)
__attribute__((batch, diff)) double f(double x) {
  if (x > 1.0)
    return DSQR(x - 1.0);
  return x;
}
double again(double y) { return ^{ return DSQR(y); }(); }
double last(void) { return ^{ return dsqrarg; }(); }
// CHECK: global-scratch-late-block.c:[[@LINE-1]]:38: error: 'dsqrarg' is used here other than as scratch within one expression, after a batch/diff function that keeps it per example as such (the batch leaves it as it was, where the scalar loop would leave the last example's value); assign it in the expression that reads it, as nrutil.h's macros do, or use a variable of its own here
// CHECK: global-scratch-late-block.c:9:15: note: 'dsqrarg' is declared here
double inside(void) { return __extension__({ ^{ return dsqrarg; }(); }); }
// CHECK: global-scratch-late-block.c:[[@LINE-1]]:43: error: 'dsqrarg' is used here other than as scratch within one expression, after a batch/diff function that keeps it per example as such (the batch leaves it as it was, where the scalar loop would leave the last example's value); assign it in the expression that reads it, as nrutil.h's macros do, or use a variable of its own here
// CHECK: global-scratch-late-block.c:9:15: note: 'dsqrarg' is declared here
