/* One array indexed by loops to two different parameters: it has max(n,
 * m) elements, which no one parameter names (before, the last loop's bound
 * was taken: m, where x[n - 1] is read). Loops to the same n work; else
 * pass the larger as a parameter of its own and declare the extent with
 * it, 'const double x[len]' before n and m, or BD_EXTENT(len). */
__attribute__((batch)) double twice(const double *x, int n, int m) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i];
  for (int j = 0; j < m; j++)
    s -= x[j];
  // CHECK: param-array-extent-two-bounds.c:[[@LINE-1]]:12: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  return s;
}

__attribute__((batch)) double nested(const double *x, int n, int m) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      s += x[i] * x[j];
  // CHECK: param-array-extent-two-bounds.c:[[@LINE-1]]:21: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  return s;
}
