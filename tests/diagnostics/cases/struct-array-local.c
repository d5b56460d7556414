/* A local array of structs. */
typedef struct { double x, y; } pt;
__attribute__((batch, diff)) double f(double x) {
  pt ps[4];
  // CHECK: struct-array-local.c:[[@LINE-1]]:6: error: local array 'ps' of structs ('pt[4]') is not supported in a batch/diff function; use one local array per member (double x[N], y[N], ...), or a struct with array members
  ps[0].x = x;
  return ps[0].x;
}
