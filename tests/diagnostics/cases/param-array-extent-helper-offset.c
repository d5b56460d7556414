/* A pointer parameter passed to a helper at an offset no loop bounds
 * ('x + k * d', k a parameter): the helper's reads give no extent ('x + i *
 * d' under 'for (i = 0; i < n; i++)', to a helper reading 'd' elements from
 * it, gives n x d; declared BD_EXTENT((k + 1) * d) it works) */
static double dot(const double *a, const double *b, int m) {
  double s = 0;
  for (int j = 0; j < m; j++)
    s += a[j] * b[j];
  return s;
}

__attribute__((batch, diff)) double f(const double *x, const double *w, int k,
                                      int d) {
  return dot(x + k * d, w, d);
  // CHECK: param-array-extent-helper-offset.c:[[@LINE-1]]:14: error: cannot infer the extent of 'x' in a batch/diff function: it is passed to 'dot' as 'x + k * d', an offset that is neither a constant nor 'i * c' or 'k * i' (c an integer parameter nothing assigns, k a constant), i the variable of a loop 'for (i = 0; i < n; i++)' around the call; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
}
