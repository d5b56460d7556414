/* A struct pointer that walks one array of records, then another. */
struct pt { double x, y; };
__attribute__((batch, diff)) double f(const struct pt ps[4],
                                      const struct pt qs[4]) {
  double s = 0.0;
  const struct pt *p = ps;
  for (int i = 0; i < 4; i++, p++)
    s += p->x;
  p = qs;
  // CHECK: struct-walk-two-arrays.c:[[@LINE-1]]:5: error: a struct pointer, 'p', that points into one array of records and, here, into another is not supported in a batch/diff function; keep each pointer in one array of records (or keep integer indices)
  return s + p->y;
}
