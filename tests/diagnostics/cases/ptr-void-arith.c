/* GNU C's arithmetic on a void * counts bytes, not elements. */
static double C[] = {1.0, 2.0, 3.0};
static double second(void *c) {
  const double *p = c + 8;
  // CHECK: ptr-void-arith.c:[[@LINE-1]]:23: error: pointer arithmetic on a 'void *' (GNU C: in bytes) is not supported in a batch/diff function; convert it back to its element type's pointer first
  return p[0];
}
__attribute__((batch)) double f(double x) { return x * second(C); }
