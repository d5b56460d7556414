/* A helper writing into a const input array (the const is cast away). */
// FLAGS: -Wno-incompatible-pointer-types-discards-qualifiers
static inline void clear(double *y) { y[0] = 0.0; }
// CHECK: ptr-write-const.c:[[@LINE-1]]:39: error: writing into the const array parameter 'x' is not supported in a batch/diff function; declare the parameter without 'const' to make it an output
__attribute__((batch, diff)) double f(const double x[2]) {
  clear(x);
  return x[1];
}
