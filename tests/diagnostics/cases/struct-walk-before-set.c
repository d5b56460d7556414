/* A struct pointer declared without an initializer, read before it is
 * pointed into an array of records. */
struct pt { double x, y; };
__attribute__((batch, diff)) double f(const struct pt ps[4]) {
  const struct pt *p;
  double s = 0.0;
  if (ps[0].x > 0.0)
    s = p->y;
  // CHECK: struct-walk-before-set.c:[[@LINE-1]]:9: error: reading the struct pointer 'p' before it points into an array of records is not supported in a batch/diff function; point it at the records first ('p = pts;'), or where it is declared
  for (p = ps; p < ps + 4; p++)
    s += p->x;
  return s;
}
