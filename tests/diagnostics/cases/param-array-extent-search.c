/* A binary search whose bounds step past the midpoint: 'lo = mid + 1' can
 * be n, outside 0 .. n - 1, so its indices give no extent (a bracketing
 * search, 'lo = 0; hi = n - 1; while (hi - lo > 1) { mid = (lo + hi) / 2;
 * ... hi = mid; ... lo = mid; }', gives n for n >= 1; here declare
 * BD_EXTENT(n)). */
__attribute__((batch)) int f(const double *x, int n, double t) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (x[mid] > t)
      // CHECK: param-array-extent-search.c:[[@LINE-1]]:11: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
      hi = mid - 1;
    else
      lo = mid + 1;
  }
  return lo;
}
