/* Pointer arithmetic on the address of a scalar. */
static inline double second(const double *p) { return p[1]; }
// CHECK: ptr-scalar-arith.c:[[@LINE-1]]:57: error: indexing the address of scalar 'x' is not supported in a batch/diff function; use only *p (or p[0]) on a pointer to a scalar
__attribute__((batch, diff)) double f(double x) { return second(&x); }
