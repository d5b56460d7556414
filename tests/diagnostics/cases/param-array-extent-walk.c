/* A pointer walked in nested loops whose inner loop runs a number of times
 * that changes with the outer one (a triangle): no parameter bounds its
 * length (loops counted by parameters or constants, 'for (i = 0; i < n;
 * i++) for (j = 0; j < m; j++) s += *p++;', give the extent n x m; declared
 * 'const double p[n * (n + 1) / 2]', with n before it, it works) */
__attribute__((batch, diff)) double f(const double *p, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      s += *p++;
  // CHECK: param-array-extent-walk.c:[[@LINE-1]]:13: error: cannot infer the extent of 'p' in a batch/diff function: it is used as a pointer here; declare it as 'const double p[n]' with an integer parameter n before it (or arithmetic of such parameters, 'p[n + 1]'), or 'const double p[static N]', or annotate it BD_EXTENT(n)
  return s;
}
