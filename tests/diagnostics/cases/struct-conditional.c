/* A '?:' choosing between two structs. */
typedef struct { double re, im; } cplx;
__attribute__((batch, diff)) double f(double x) {
  cplx a = {x, 0.0}, b = {0.0, x};
  cplx c = x > 0.0 ? a : b;
  // CHECK: struct-conditional.c:[[@LINE-1]]:12: error: a '?:' choosing between structs is not supported in a batch/diff function; assign the struct in an if/else
  return c.re;
}
