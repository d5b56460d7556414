/* A local table of functions holding a function pointer variable: a table
   a call chooses from holds functions' names only. */
static double sq(double t) { return t * t; }
static double cube(double t) { return t * t * t; }
__attribute__((batch, diff)) double g(double x, int k) {
  double (*f)(double) = x > 0.0 ? sq : cube;
  double (*const ops[2])(double) = {sq, f};
  // CHECK: call-function-table-init.c:[[@LINE-1]]:41: error: the table of functions 'ops' holding something other than a function's name is not supported in a batch/diff function; initialize it with functions' names only ('double (*const ops[])(double) = {f, g, h};'): its functions are then known
  return ops[k](x);
}
