/* A struct with a flexible array member. */
struct poly { int n; double c[]; };
__attribute__((batch, diff)) double f(double x) {
  struct poly p;
  // CHECK: struct-flexible-array.c:[[@LINE-1]]:15: error: flexible array member 'c' of 'struct poly' is not supported in a batch/diff function; give the array a constant size, or pass the data as an array parameter
  p.n = 1;
  return x;
}
