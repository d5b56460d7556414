/* An index that is not affine in the loop variable: no range to infer. */
__attribute__((batch, diff)) double f(const double *a) {
  double s = 0.0;
  for (int i = 0; i < 3; i++)
    s += a[i * i];
  // CHECK: param-array-extent-range.c:[[@LINE-1]]:12: error: cannot infer the extent of 'a' in a batch/diff function; declare it as 'const double a[n]' with an integer parameter n before it (or arithmetic of such parameters, 'a[n + 1]'), or 'const double a[static N]', or annotate it BD_EXTENT(n)
  return s;
}
