/* A two-dimensional local array of structs (one-dimensional ones work). */
typedef struct { double x, y; } pt;
__attribute__((batch, diff)) double f(double x) {
  pt ps[2][2];
  // CHECK: struct-array-local.c:[[@LINE-1]]:6: error: local array 'ps' of structs of two or more dimensions ('pt[2][2]') is not supported in a batch/diff function; use a one-dimensional array of structs, indexed as a[i * N + j]
  ps[0][1].x = x;
  return ps[0][1].x;
}
