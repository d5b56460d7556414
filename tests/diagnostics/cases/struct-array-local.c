/* A local array of structs of more than 65536 elements per member (of any
 * number of dimensions: a[i][j] works). */
typedef struct { double x, y; } pt;
__attribute__((batch, diff)) double f(double x) {
  pt ps[300][300];
  // CHECK: struct-array-local.c:[[@LINE-1]]:6: error: local array 'ps' of type 'pt[300][300]' is not supported in a batch/diff function; use arrays of at most 65536 elements per member
  ps[0][1].x = x;
  return ps[0][1].x;
}
