/* A do/while loop's counter gives an extent (max(n, 1): the body runs
 * once) when it starts at a constant where it is declared, changes only as
 * the body's last statement, and the loop is in no other loop: here the
 * outer loop runs the do/while again from i = n, whose body reads x[n]. */
__attribute__((batch)) double f(const double *x, int n) {
  double s = 0.0;
  int i = 0;
  for (int k = 0; k < 2; k++)
    do {
      s += x[i];
      // CHECK: param-array-extent-do.c:[[@LINE-1]]:14: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
      i++;
    } while (i < n);
  return s;
}
/* A counter assigned elsewhere: its first value is not known. */
__attribute__((batch)) double g(const double *x, int n, int k) {
  double s = 0.0;
  int i = 0;
  if (k > 0)
    i = k;
  do {
    s += x[i];
    // CHECK: param-array-extent-do.c:[[@LINE-1]]:12: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
    i++;
  } while (i < n);
  return s;
}
