/* A struct pointer walking an array of records set to NULL. */
struct pt { double x, y; };
__attribute__((batch, diff)) double f(const struct pt pts[4], double a) {
  const struct pt *best = pts;
  for (const struct pt *q = pts; q < pts + 4; q++)
    if (q->y > a)
      best = 0;
  // CHECK: struct-walk-null.c:[[@LINE-1]]:14: error: setting the struct pointer 'best' to NULL is not supported in a batch/diff function; keep an integer index of the record instead ('int k = -1;', then 'if (k >= 0) ... pts[k]')
  return best->x;
}
