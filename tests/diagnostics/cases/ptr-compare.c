/* Comparing pointers into two different arrays (pointers into one array compare as their offsets). */
__attribute__((batch, diff)) double f(const double x[4], const double y[4]) {
  double s = 0.0;
  for (const double *p = x; p < y + 4; p++)
  // CHECK: ptr-compare.c:[[@LINE-1]]:31: error: comparing pointers into 'x' and 'y' is not supported in a batch/diff function; compare pointers into the same array, or integer indices
    s += *p;
  return s;
}
