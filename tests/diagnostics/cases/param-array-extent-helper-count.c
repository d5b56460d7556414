/* Rows 'x + i * d' passed to a helper that reads a number of elements
 * other than the rows' length d from each ('m', another parameter): the
 * rows may overlap or leave gaps, so n x d is not the extent (the same call
 * with the count 'd' gives n x d; declared BD_EXTENT(n * d) it works when
 * m <= d) */
static double dot(const double *a, const double *b, int len) {
  double s = 0;
  for (int j = 0; j < len; j++)
    s += a[j] * b[j];
  return s;
}

__attribute__((batch, diff)) double f(const double *x, int n, int d, int m) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += dot(x + i * d, x + i * d, m);
  // CHECK: param-array-extent-helper-count.c:[[@LINE-1]]:14: error: cannot infer the extent of 'x' in a batch/diff function: it is passed to 'dot' as 'x + i * d', rows of 'd' elements, where it does not read 'd' elements from a row's start (an index below its parameter the call gives 'd'); declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  return s;
}
