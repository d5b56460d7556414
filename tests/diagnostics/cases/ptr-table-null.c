/* A table of pointers with an entry that points into no table (a null
   pointer, the address of a scalar). */
static const double PA[2] = {1.0, 2.0};
__attribute__((batch, diff)) double f(double x, int k) {
  static const double *T[2] = {PA};
  const double *p = T[k & 1];
  // CHECK: ptr-table-null.c:[[@LINE-1]]:21: error: entry 1 of the table of pointers 'T', a null pointer, is not supported in a batch/diff function; point every entry into a read-only table
  return x * p[1];
}
