/* A static local pointer (static locals that are only read must be
 * scalars, structs, or tables of them). */
static double table[4] = {1.0, 2.0, 3.0, 4.0};
__attribute__((batch, diff)) double f(double x) {
  static double *p = table;
  // CHECK: local-static-type.c:[[@LINE-1]]:18: error: static local 'p' of type 'double *' is not supported in a batch/diff function; use a float, double, integer or _Bool scalar, a struct of them, or a table of 1..65536 scalars or structs
  return x * p[1];
}
