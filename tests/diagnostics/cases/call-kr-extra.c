/* A K&R helper called with more arguments than it has parameters. */
// FLAGS: -Wno-deprecated-non-prototype
static double twice(x) double x; { return 2.0 * x; }
__attribute__((batch, diff)) double f(double x) {
  return twice(x, 1.0);
  // CHECK: call-kr-extra.c:[[@LINE-1]]:22: warning: too many arguments in call to 'twice'
  // CHECK: call-kr-extra.c:[[@LINE-2]]:19: error: passing more arguments than 'twice' has parameters is not supported in a batch/diff function; pass one argument per parameter
}
