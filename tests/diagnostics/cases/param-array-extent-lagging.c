/* A lagging counter (`for (i = 0, j = n - 1; i < n; j = i++)`, PNPOLY's
 * previous vertex) bounds an index only while nothing else sets it: here
 * the body moves j on by two, past n - 1. */
__attribute__((batch, diff)) double f(const double *x, int n) {
  double s = 0.0;
  int i, j;
  for (i = 0, j = n - 1; i < n; j = i++) {
    s += x[i] * x[j];
    // CHECK: param-array-extent-lagging.c:[[@LINE-1]]:19: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
    j += 2;
    s += x[j];
  }
  return s;
}
