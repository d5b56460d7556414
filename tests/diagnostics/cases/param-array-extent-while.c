/* A while loop's counter changed before the body's last statement: the
 * body may read past n ('while (i < n) { s += x[i]; i++; }', the counter
 * changed only as the last statement, works). */
__attribute__((batch)) double f(const double *x, int n) {
  double s = 0.0;
  int i = 0;
  while (i < n) {
    i += 1;
    s += x[i];
    // CHECK: param-array-extent-while.c:[[@LINE-1]]:12: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  }
  return s;
}
