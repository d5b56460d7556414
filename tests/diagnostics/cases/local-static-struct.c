/* Writing a static local struct or table of structs (reading them works:
 * they hold their initializer on every call). */
typedef struct { double lo, hi; } range;
__attribute__((batch, diff)) double f(double x, int k) {
  static range R[2] = {{0.0, 1.0}, {1.0, 2.0}};
  R[k & 1].hi = x;
  // CHECK: local-static-struct.c:[[@LINE-1]]:3: error: writing static local 'R' is not supported in a batch/diff function; a static local keeps its value from one call to the next, which the examples of a batch cannot share; use an ordinary local, or only read it
  return R[0].lo * x;
}
