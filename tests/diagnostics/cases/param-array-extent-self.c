/* A parameter stepped by x += 1 that reads x[1], one element past its step
 * (a sliding window): the walk does not bound it (reading x[0] .. x[k-1],
 * then 'x += k' as the loop's last statement or increment, gives the
 * extent k n; declared 'const double x[n + 1]', with n before it, it works) */
__attribute__((batch, diff)) double f(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s += x[0] * x[1];
    x += 1;
    // CHECK: param-array-extent-self.c:[[@LINE-1]]:5: error: cannot infer the extent of 'x' in a batch/diff function: it is used as a pointer here; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  }
  return s;
}
