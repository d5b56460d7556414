/* Pairs under 'k * i + c < n' read past n at 'x[2 * i + 2]' (x[n] for an
 * even n: 'x[2 * i]' and 'x[2 * i + 1]' under '2 * i + 1 < n' work, n
 * elements), and 'x[n - 1]' in 'do ... while (--n > 0)', whose body runs
 * once for n < 1, reads x[-1] there ('do ... while (--n);' works: n
 * elements, for n >= 1). */
__attribute__((batch)) double pairs(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; 2 * i + 1 < n; i++)
    s += x[2 * i] * x[2 * i + 2];
  // CHECK: param-array-extent-pairs-past.c:[[@LINE-1]]:23: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  return s;
}

__attribute__((batch)) double down(const double *x, int n) {
  double p = 1.0;
  do {
    p *= x[n - 1];
    // CHECK: param-array-extent-pairs-past.c:[[@LINE-1]]:12: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  } while (--n > 0);
  return p;
}
