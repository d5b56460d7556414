/* A table of const structs whose pointer member is NULL in one entry: a
 * lane's index may pick it, and it points into no table. */
static const double C[3] = {1.0, 2.0, 3.0};
struct poly { int n; const double *c; };
static const struct poly T[3] = {{3, C}, {2, C + 1}, {0, 0}};
__attribute__((batch, diff)) double f(double x, int k) {
  return x * T[k].c[0];
  // CHECK: global-struct-ptr-null.c:[[@LINE-1]]:14: error: the pointer member 'c' of 'T[k]' at k = 2, a null pointer, is not supported in a batch/diff function; point every entry into a read-only table
}
