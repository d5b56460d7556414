/* A table of functions whose elements are not const: any code may store
   another function in it, so its functions are not known. */
static double sq(double t) { return t * t; }
static double cube(double t) { return t * t * t; }
static double (*ops[])(double) = {sq, cube};
__attribute__((batch, diff)) double g(double x, int k) {
  return ops[k](x);
  // CHECK: call-function-table-nonconst.c:[[@LINE-1]]:10: error: the table of functions 'ops', whose elements are not const, is not supported in a batch/diff function; declare its elements const and initialize them with functions' names ('double (*const ops[])(double) = {f, g, h};'): its functions are then known
}
