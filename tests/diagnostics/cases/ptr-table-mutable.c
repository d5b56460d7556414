/* A file-scope table of pointers whose entries are not const (other
   functions may re-point them between calls; `const double *const T[]`
   works, and so does a static local one). */
static const double PA[2] = {1.0, 2.0}, PB[2] = {3.0, 4.0};
static const double *T[2] = {PA, PB};
__attribute__((batch, diff)) double f(double x, int k) {
  const double *p = T[k & 1];
  // CHECK: ptr-table-mutable.c:[[@LINE-1]]:21: error: the file-scope table of pointers 'T', whose entries other code may change, is not supported in a batch/diff function; declare its entries const: 'const double *const T[]'
  return x * p[1];
}
