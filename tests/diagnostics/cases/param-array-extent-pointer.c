/* A pointer parameter walked until a sentinel: no extent to infer (a walk
 * of one element per iteration of a loop counted by a parameter, also after
 * reads before it, as Cephes' polevl, or to an end pointer 'x + n', gives
 * one). */
__attribute__((batch, diff)) double f(const double *x) {
  const double *p = x;
  // CHECK: param-array-extent-pointer.c:[[@LINE-1]]:21: error: cannot infer the extent of 'x' in a batch/diff function: it is used as a pointer here; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  double s = 0.0;
  while (*p > 0.0)
    s += *p++;
  return s;
}
