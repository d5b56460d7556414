/* A pointer stored outside the function's locals. */
double *last;
__attribute__((batch)) double f(double x) {
  double t[2] = {x, x};
  last = t;
  // CHECK: ptr-escape.c:[[@LINE-1]]:3: error: storing a pointer in 'last' is not supported in a batch/diff function; keep pointers in local variables
  return t[0];
}
