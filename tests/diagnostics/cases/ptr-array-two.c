/* The elements of one local array of pointers pointed into two arrays
   (docs/row-pointers.md): they are offsets into one array. */
__attribute__((batch, diff)) double f(const double x[4]) {
  double a[2][2] = {{x[0], x[1]}, {x[2], x[3]}}, b[2] = {x[0], x[3]};
  double *row[2];
  row[0] = a[0];
  row[1] = b;
  // CHECK: ptr-array-two.c:[[@LINE-1]]:12: error: pointing an element of 'row', an array of pointers into 'a', into 'b' is not supported in a batch/diff function; point all the elements of an array of pointers into one array (the rows of one matrix)
  return row[0][1] + row[1][0];
}
