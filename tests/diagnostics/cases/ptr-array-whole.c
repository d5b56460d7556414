/* A local array of pointers used whole: passed to a helper taking
   'double **' (here to exchange two rows), or its address kept
   (docs/row-pointers.md: only its elements are pointers). */
static void swap_rows(double **u, double **v) {
  double *t = *u;
  *u = *v;
  *v = t;
}
__attribute__((batch, diff)) double f(const double x[4]) {
  double a[2][2] = {{x[0], x[1]}, {x[2], x[3]}};
  double *row[2] = {a[0], a[1]};
  if (x[2] > x[0])
    swap_rows(&row[0], &row[1]);
  // CHECK: ptr-array-whole.c:[[@LINE-1]]:15: error: a pointer to the elements of 'row', an array of pointers, is not supported in a batch/diff function; use its elements where it is declared ('row[i][j]', 'double *p = row[i]', passing 'row[i]' to a helper), and exchange two in place through a temporary pointer
  return row[0][1];
}
