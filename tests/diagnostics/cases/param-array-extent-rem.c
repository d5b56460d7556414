/* A remainder bounds an index only when what it divides is >= 0: C's `%`
 * keeps the dividend's sign, so `(i - 1) % n` is -1 at i = 0 and reads
 * before x's start. (`x[(i + 1) % n]` under `i < n` has extent n; declared
 * 'const double x[n]', this function reads x[-1] in C, as it does.) */
__attribute__((batch, diff)) double f(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[(i - 1) % n];
  // CHECK: param-array-extent-rem.c:[[@LINE-1]]:19: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  return s;
}
