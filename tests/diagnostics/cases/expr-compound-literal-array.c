/* A compound literal array used as a table: named as such (it was called
 * 'a row of the two-dimensional array'); a static const local table works */
__attribute__((batch, diff)) double f(double x) {
  const double *c = (const double[]){1.0, 2.0, 3.0};
  // CHECK: expr-compound-literal-array.c:[[@LINE-1]]:21: error: a compound literal '(type){...}' as a pointer is not supported in a batch/diff function; use a local array, an array parameter, &local or &a[k], plus an integer offset
  return c[0] + x * (c[1] + x * c[2]);
}
