/* An array of records with a bit-field member (at the parameter). */
typedef struct { double x; unsigned on : 1; } item;
__attribute__((batch, diff)) double f(const item *p, int n) {
  // CHECK: struct-array-bitfield.c:[[@LINE-1]]:51: error: bit-field member 'on' of 'item' is not supported in a batch/diff function; use a plain integer member
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += p[i].x;
  return s;
}
