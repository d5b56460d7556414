/* A '?:' choosing a struct pointer with a side effect in an arm. */
struct pt { double x, y; };
__attribute__((batch, diff)) double f(const struct pt ps[4], double a) {
  const struct pt *p = ps, *q = ps + 1;
  const struct pt *r = a > 0.0 ? p++ : q;
  // CHECK: struct-walk-choice.c:[[@LINE-1]]:24: error: a '?:' choosing a struct pointer, with side effects in an arm or not into an array of records, is not supported in a batch/diff function; choose in an if/else ('if (c) p = q; else p = r;')
  return r->x + p->y;
}
