/* An element of a local array of pointers pointed at a scalar
   (docs/row-pointers.md). */
__attribute__((batch, diff)) double f(double x) {
  double s = x, *p[2];
  p[0] = &s;
  // CHECK: ptr-array-scalar.c:[[@LINE-1]]:10: error: pointing an element of 'p', an array of pointers, at the scalar 's' is not supported in a batch/diff function; point its elements into one array: the rows of a local or parameter array ('row[i] = a[i]'), or elements of one
  return *p[0];
}
