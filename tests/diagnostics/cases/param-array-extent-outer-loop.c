/* A loop bound assigned after its loop but inside a loop around both:
 * 'n = n + 1;' reaches 'i < n' on the next round, so the inner loop reads
 * past the parameter's n (a bound assigned only after its loop, in no loop
 * around it, is still the extent: plugin.extent_after_loop). */
__attribute__((batch, diff)) double f(const double *x, int n) {
  double s = 0.0;
  for (int j = 0; j < 3; j++) {
    for (int i = 0; i < n; i++)
      s += x[i];
    // CHECK: param-array-extent-outer-loop.c:[[@LINE-1]]:14: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
    n = n + 1;
  }
  return s;
}
