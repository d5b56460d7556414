/* A variable-length local array of structs. */
struct pt { double x, y; };
__attribute__((batch, diff)) double f(double x, int n) {
  struct pt v[n];
  // CHECK: local-array-vla-type.c:[[@LINE-1]]:13: error: local variable-length array 'v' of type 'struct pt[n]' is not supported in a batch/diff function; use an array of float, double, integer or _Bool elements
  v[0].x = x;
  return v[0].x;
}
