/* Re-pointing an entry of a table of pointers (its entries are the
   constants it was initialised with). */
static const double PA[2] = {1.0, 2.0}, PB[2] = {3.0, 4.0};
__attribute__((batch, diff)) double f(double x, int k) {
  static const double *T[2] = {PA, PA};
  T[1] = PB;
  // CHECK: ptr-table-write.c:[[@LINE-1]]:3: error: re-pointing an entry of the table of pointers 'T' is not supported in a batch/diff function; keep its entries as initialised; point a local pointer instead
  return x * T[k & 1][1];
}
