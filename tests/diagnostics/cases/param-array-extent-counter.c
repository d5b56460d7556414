/* A pointer walked before a loop and once per iteration of it, the loop
 * counted down by a copy of a parameter that the loop's body sets again:
 * no bound on the walk ('p = c; s = *p++; i = n; do s = s * x + *p++;
 * while (--i);', the counter changed only by the loop's test, gives n + 1
 * for n >= 1; declared 'BD_EXTENT(n + 1)' it works) */
__attribute__((batch, diff)) double f(double x, const double *c, int n) {
  const double *p;
  double s;
  int i;
  p = c;
  s = *p++;
  // CHECK: param-array-extent-counter.c:[[@LINE-1]]:8: error: cannot infer the extent of 'c' in a batch/diff function: it is used as a pointer here; declare it as 'const double c[n]' with an integer parameter n before it (or arithmetic of such parameters, 'c[n + 1]'), or 'const double c[static N]', or annotate it BD_EXTENT(n)
  i = n;
  do {
    s = s * x + *p++;
    if (s > 1.0)
      i = n;
  } while (--i);
  return s;
}
