/* Comparing pointers into two different arrays of records. */
struct pt { double x, y; };
__attribute__((batch, diff)) double f(const struct pt ps[4],
                                      const struct pt qs[4]) {
  double s = 0.0;
  for (const struct pt *p = ps; p < qs + 4; p++)
    // CHECK: struct-walk-compare-arrays.c:[[@LINE-1]]:35: error: comparing pointers into two different arrays of records is not supported in a batch/diff function; compare pointers into one array of records, or integer indices
    s += p->x;
  return s;
}
