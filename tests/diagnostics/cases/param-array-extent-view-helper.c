/* A pointer parameter passed as 'x - 1' to a helper that indexes it from
 * 0: the helper's a[0] would read x[-1], before the array (a 1-based
 * helper, reading a[1] .. a[n], gives x the extent n) */
static double sum1(const double *a, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += a[i];
  // CHECK: param-array-extent-view-helper.c:[[@LINE-1]]:12: error: this index of 'a' ('a = x - 1') can be 0, which reads 'x[-1]', before the start of 'x'; start at 1 ('a[1]' is 'x[0]'), or, if a test keeps it there, declare the extent: 'const double x[n]' with an integer parameter n before it, or BD_EXTENT(n)
  return s;
}

__attribute__((batch, diff)) double f(const double *x, int n) {
  return sum1(x - 1, n);
}
