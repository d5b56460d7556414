/* Writing into a static local table through a pointer, the table passed
 * before it is written. */
static inline void bump(double *t) { t[2] = 1.0; }
// CHECK: local-static-table.c:[[@LINE-1]]:38: error: writing static local 'lut' (line 7 may read the value the previous call left in it) is not supported in a batch/diff function; a static local keeps its value from one call to the next, which the examples of a batch cannot share; write it (every element) before every read, on every path, or use an ordinary local
__attribute__((batch, diff)) double f(double x) {
  static double lut[4] = {1.0, 2.0};
  bump(lut);
  return x * lut[1];
}
