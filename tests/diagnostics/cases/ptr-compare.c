/* Comparing pointers into two different arrays (pointers into one array compare as their offsets). */
__attribute__((batch, diff)) double f(const double x[4], const double y[4]) {
  double s = 0.0;
  for (const double *p = x; p < y + 4; p++)
  // CHECK: ptr-compare.c:[[@LINE-1]]:31: error: comparing pointers into 'x' and 'y' is not supported in a batch/diff function; compare pointers into the same array, or integer indices
    s += *p;
  return s;
}

/* A pointer chosen between array parameters (reading through it works):
   the caller may pass one array for both, and then C compares addresses,
   not offsets. */
__attribute__((batch, diff)) double g(const double a[4], const double b[4],
                                      double x) {
  const double *p = x > 0.0 ? a : b;
  if (p == a)
  // CHECK: ptr-compare.c:[[@LINE-1]]:9: error: comparing a pointer chosen between the array parameters 'a', 'b' is not supported in a batch/diff function; compare pointers into the same array, or integer indices (two parameters may be one array)
    return x;
  return p[1] * x;
}
