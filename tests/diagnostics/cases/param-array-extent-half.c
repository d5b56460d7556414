/* Pairs under a loop to 'n / 2' that read past the last pair: 'x[2 * i +
 * 2]' reaches x[2 * (n / 2)] ('x[2 * i]' and 'x[2 * i + 1]' there work: 2 *
 * (n / 2) elements). */
__attribute__((batch)) double f(const double *x, int n) {
  double s = 0.0;
  for (int i = 0; i < n / 2; i++)
    s += x[2 * i + 1] * x[2 * i + 2];
  // CHECK: param-array-extent-half.c:[[@LINE-1]]:27: error: cannot infer the extent of 'x' in a batch/diff function; declare it as 'const double x[n]' with an integer parameter n before it (or arithmetic of such parameters, 'x[n + 1]'), or 'const double x[static N]', or annotate it BD_EXTENT(n)
  return s;
}
