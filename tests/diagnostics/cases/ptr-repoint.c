/* A pointer re-pointed into a second array. */
__attribute__((batch, diff)) double f(double x, const double u[2],
                                      const double v[2]) {
  const double *p = u;
  if (x > 0.0)
    p = v;
  // CHECK: ptr-repoint.c:[[@LINE-1]]:5: error: a pointer that points into 'u' and, here, into 'v' is not supported in a batch/diff function; keep each pointer in one array; index one array, with an integer offset computed from the condition
  return x * *p;
}
