/* Comparing pointers (a walk to an end pointer). */
__attribute__((batch, diff)) double f(const double x[4]) {
  double s = 0.0;
  for (const double *p = x; p < x + 4; p++)
  // CHECK: ptr-compare.c:[[@LINE-1]]:31: error: comparing pointers is not supported in a batch/diff function; compare integer indices or counts instead (pointers are lowered as an array and an offset)
    s += *p;
  return s;
}
