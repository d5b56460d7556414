/* A counter set to n and counted down where the body reads before it
 * decrements: the first read is x[n], past the extent ('while (i > 0) {
 * i--; s += x[i]; }', the decrement the body's first statement, 'while (i--
 * > 0) s += x[i];', and from 'i = n - 1', 'while (i >= 0) { s += x[i];
 * i--; }', work: n elements). */
__attribute__((batch)) double f(const double *x, int n) {
  double s = 0.0;
  int i = n;
  while (i > 0) {
    s += x[i];
    // CHECK: param-array-extent-down.c:[[@LINE-1]]:12: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
    i--;
  }
  return s;
}
