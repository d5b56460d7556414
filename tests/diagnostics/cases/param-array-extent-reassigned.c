/* A loop bound assigned before the loop: 'n = 2 * n;' then 'i < n' counts
 * to twice the parameter, so the parameter n is not the extent (declared
 * 'const double x[2 * n]', or BD_EXTENT(2 * n), it works: C and batchdiff
 * compute a declared extent once, on entry). */
__attribute__((batch, diff)) double f(const double *x, int n) {
  double s = 0.0;
  n = 2 * n;
  for (int i = 0; i < n; i++)
    s += x[i];
  // CHECK: param-array-extent-reassigned.c:[[@LINE-1]]:12: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  return s;
}
