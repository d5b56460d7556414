/* A pointer walked by q += 2 that reads past the record it stands on
 * (q[2]): the walk does not bound it (reading q[0] and q[1], then 'q +=
 * 2' as the loop's last statement or increment, gives the extent 2 n) */
__attribute__((batch, diff)) double f(const double *p, int n) {
  double s = 0.0;
  const double *q = p;
  // CHECK: param-array-extent-step.c:[[@LINE-1]]:21: error: cannot infer the extent of 'p' in a batch/diff function: it is used as a pointer here; declare it as 'const double p[n]' with an integer parameter n before it (or arithmetic of such parameters, 'p[n + 1]'), or 'const double p[static N]', or annotate it BD_EXTENT(n)
  for (int i = 0; i < n; i++) {
    s += q[0] * q[2];
    q += 2;
  }
  return s;
}
