/* A pointer re-pointed into a second array (into a second read-only table,
   or between array parameters the function only reads, declared with a
   constant length, it works). */
__attribute__((batch, diff)) double f(double x, double u[2],
                                      const double v[2]) {
  u[0] = x;
  const double *p = u;
  if (x > 0.0)
    p = v;
  // CHECK: ptr-repoint.c:[[@LINE-1]]:5: error: a pointer that points into 'u' and, here, into 'v' is not supported in a batch/diff function; keep each pointer in one array; index one array, with an integer offset computed from the condition
  return x * *p;
}

/* Read-only array parameters declared without a length: a lane may not
   read the other array where its own pointer points. */
__attribute__((batch, diff)) double g(double x, const double *u,
                                      const double *v) {
  const double *p = u;
  if (x > 0.0)
    p = v;
  // CHECK: ptr-repoint.c:[[@LINE-1]]:5: error: a pointer that points into 'u' and, here, into 'v' is not supported in a batch/diff function; keep each pointer in one array; declare 'u' with its length ('u[N]', N a constant: between read-only arrays of a constant length it works), or index one array, with an integer offset computed from the condition
  return x * p[1];
}
