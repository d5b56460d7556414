/* A loop bound (or end pointer) that is an integer parameter the function
 * assigns ('n = n * 2;' before the loop): the reads do not stop at the value
 * passed, so no extent follows from it (for a walk '*p++' as for an index
 * 'x[i]'; a parameter assigned nowhere gives the extent n; declared 'const
 * double x[2 * n]', or BD_EXTENT(2 * n), it works). */
__attribute__((batch, diff)) double f(const double *x, int n) {
  double s = 0.0;
  n = n * 2;
  for (int i = 0; i < n; i++)
    s += x[i];
  // CHECK: param-array-extent-assigned.c:[[@LINE-1]]:12: error: cannot infer the extent of 'x' in a batch/diff function: its reads stop at 'n', which the function assigns, not at the value passed for 'n'; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  return s;
}

__attribute__((batch, diff)) double g(const double *p, int n) {
  double s = 0.0;
  n = n * 2;
  for (int i = 0; i < n; i++)
    s += *p++;
  // CHECK: param-array-extent-assigned.c:[[@LINE-1]]:11: error: cannot infer the extent of 'p' in a batch/diff function: its reads stop at 'n', which the function assigns, not at the value passed for 'n'; declare it as 'const double p[n]' with an integer parameter n before it (or arithmetic of such parameters, 'p[n + 1]'), or 'const double p[static N]', or annotate it BD_EXTENT(n)
  return s;
}
