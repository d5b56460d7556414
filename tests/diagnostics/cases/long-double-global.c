/* A call of a helper that declares a long double local (made once per
   example on the scalar function) using a global the function writes
   (kept per example in the batch), writing one the function reads (read
   once for all examples), or writing a static local the batch keeps per
   example (here through a call back into the helper that declares it);
   also where the global is declared twice, as a header and its file do,
   and the helper writes it through the later declaration. */
double scale;
static double ldsum(double x, int n) {
  long double s = 0;
  for (int i = 1; i <= n; i++)
    s += (long double)x * scale / i;
  return (double)s;
}
__attribute__((batch)) double f(double x, int n) {
  scale = 2.0 * x;
  return ldsum(x, n);
  // CHECK: long-double-global.c:[[@LINE-1]]:10: error: a call of 'ldsum' (which declares a long double local, so runs as the scalar function) using global 'scale', which the batch keeps per example, is not supported in a batch/diff function; the call uses the variable itself, not what each example has made of it; pass the value as an argument, or return it instead of keeping it in the variable
}
int calls;
static double ldcount(double x) {
  long double s = x;
  calls++;
  return (double)(s * s);
}
__attribute__((batch)) double g(double x) {
  return ldcount(x) + calls;
  // CHECK: long-double-global.c:[[@LINE-1]]:10: error: a call of 'ldcount' (which declares a long double local, so runs as the scalar function) using global 'calls', which the batch reads once for all examples, is not supported in a batch/diff function; the call uses the variable itself, not what each example has made of it; pass the value as an argument, or return it instead of keeping it in the variable
}
static double kstep(double x, int d);
static double ldhalf(double x, int d) {
  long double s = x;
  return d > 0 ? kstep((double)(s / 2), d - 1) : (double)s;
}
static double kstep(double x, int d) {
  static double t;
  t = x * x;
  double y = ldhalf(x, d);
  // CHECK: long-double-global.c:[[@LINE-1]]:14: error: a call of 'ldhalf' (which declares a long double local, so runs as the scalar function) using static local 't', which the batch keeps per example, is not supported in a batch/diff function; the call uses the variable itself, not what each example has made of it; pass the value as an argument, or return it instead of keeping it in the variable
  return t + y;
}
__attribute__((batch)) double h(double x, int d) { return kstep(x, d); }
extern int ticks;
int ticks;
static double ldtick(double x) {
  long double s = x;
  ticks++;
  return (double)(s * s);
}
__attribute__((batch)) double k(double x) {
  return ldtick(x) + ticks;
  // CHECK: long-double-global.c:[[@LINE-1]]:10: error: a call of 'ldtick' (which declares a long double local, so runs as the scalar function) using global 'ticks', which the batch reads once for all examples, is not supported in a batch/diff function; the call uses the variable itself, not what each example has made of it; pass the value as an argument, or return it instead of keeping it in the variable
}
