/* A pointer chosen by a (varying) condition between two arrays. */
__attribute__((batch, diff)) double f(double x) {
  double a[2] = {x, 1.0}, b[2] = {2.0, x};
  const double *p = x > 0.0 ? a : b;
  // CHECK: ptr-two-arrays.c:[[@LINE-1]]:21: error: a pointer chosen at run time between 'a' and 'b' is not supported in a batch/diff function; index one array, with an integer offset computed from the condition
  return p[1];
}

/* Between array parameters the function only reads, declared without a
   length (declared 'const double a[2]', it works). */
__attribute__((batch, diff)) double g(double x, const double *a,
                                      const double *b) {
  const double *p = x > 0.0 ? a : b;
  // CHECK: ptr-two-arrays.c:[[@LINE-1]]:21: error: a pointer chosen at run time between 'a' and 'b' is not supported in a batch/diff function; declare 'a' with its length ('a[N]', N a constant: between read-only arrays of a constant length it works), or index one array, with an integer offset computed from the condition
  return p[1];
}
