/* An element of a local array of pointers read before any is set
   (docs/row-pointers.md). */
__attribute__((batch, diff)) double f(const double x[4]) {
  double a[2][2] = {{x[0], x[1]}, {x[2], x[3]}};
  double *row[2];
  double s = row[0][0];
  // CHECK: ptr-array-unset.c:[[@LINE-1]]:14: error: reading an element of 'row', an array of pointers, before any is set is not supported in a batch/diff function; set its elements first ('row[i] = a[i]')
  row[0] = a[0];
  return s + row[0][1];
}
