/* An array of records whose extent cannot be inferred. */
typedef struct { double x, y; } pt;
__attribute__((batch)) double f(const pt *p, int k) {
  return p[k].x;
  // CHECK: struct-array-extent.c:[[@LINE-1]]:12: error: cannot infer the extent of 'p' in a batch/diff function; declare it as 'const pt p[n]' with an integer parameter n before it (or arithmetic of such parameters, 'p[n + 1]'), or 'const pt p[static N]', or annotate it BD_EXTENT(n)
}
