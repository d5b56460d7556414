/* A pointer read before anything points it into an array. */
__attribute__((batch, diff)) double f(double x) {
  double t[2] = {x, x};
  double *p;
  double s = x;
  for (int i = 0; i < 2; i++) {
    if (i > 0)
      s += *p;
    // CHECK: ptr-uninit.c:[[@LINE-1]]:13: error: reading pointer 'p' before it points into an array is not supported in a batch/diff function; initialise it where it is declared
    p = t + i;
  }
  return s;
}
