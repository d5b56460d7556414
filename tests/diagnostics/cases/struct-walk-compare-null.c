/* Comparing a pointer into an array of records with NULL. */
struct pt { double x, y; };
__attribute__((batch, diff)) double f(const struct pt ps[4]) {
  double s = 0.0;
  for (const struct pt *p = ps; p != 0 && p < ps + 4; p++)
    // CHECK: struct-walk-compare-null.c:[[@LINE-1]]:38: error: comparing a pointer into an array of records with NULL is not supported in a batch/diff function; pointers into arrays of records are never NULL here; keep an integer index of the record where it may be unset
    s += p->x;
  return s;
}
