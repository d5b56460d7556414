/* A struct pointer walking an array of records re-pointed at a struct
 * local. */
struct pt { double x, y; };
__attribute__((batch, diff)) double f(const struct pt ps[4], double a) {
  struct pt c = {a, a};
  const struct pt *p = ps;
  if (a > 0.0)
    p = &c;
  // CHECK: struct-walk-local.c:[[@LINE-1]]:7: error: re-pointing the struct pointer 'p', which points into an array of records, at a struct outside it is not supported in a batch/diff function; point it only into its array of records ('p = pts + k;', 'p = q;')
  return p->x;
}
