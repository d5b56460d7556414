/* A walk counted by 'while (n--)' after 'n = 2 * n;': the loop runs twice
 * the parameter's n times, so n is not the extent (a count that only the
 * loop changes, 'while (n--) s += *p++;', gives n; declared 'const double
 * p[2 * n]', or BD_EXTENT(2 * n), this works). */
__attribute__((batch, diff)) double f(const double *p, int n) {
  double s = 0.0;
  n = 2 * n;
  while (n--)
    s += *p++;
  // CHECK: param-array-extent-walk-reassigned.c:[[@LINE-1]]:11: error: cannot infer the extent of 'p' in a batch/diff function: it is used as a pointer here; declare it as 'const double p[n]' with an integer parameter n before it (or arithmetic of such parameters, 'p[n + 1]'), or 'const double p[static N]', or annotate it BD_EXTENT(n)
  return s;
}
