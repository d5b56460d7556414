/* A static local passed by address to a helper that reads through the
 * pointer before it writes through it (a helper that writes first, as
 * cephes' airy(t, &ai, &aip, &bi, &bip) does, fills it: that works). */
static void accumulate(double *s, double x) { *s = *s * 0.5 + x; }
// CHECK: local-static-outparam.c:[[@LINE-1]]:47: error: writing static local 'acc' (line 8 may read the value the previous call left in it) is not supported in a batch/diff function; a static local keeps its value from one call to the next, which the examples of a batch cannot share; write it (every element) before every read, on every path, or use an ordinary local
__attribute__((batch, diff)) double f(double x) {
  static double acc;
  accumulate(&acc, x);
  return acc * x;
}
