/* Re-pointing a pointer to a member of a record (not a whole record). */
struct pt { double x, y; };
struct seg { struct pt a, b; };
__attribute__((batch, diff)) double f(const struct seg ss[4]) {
  double s = 0.0;
  const struct pt *p = &ss[0].a;
  // CHECK: struct-walk-member.c:[[@LINE-1]]:20: error: re-pointing 'p', a pointer to a member of a record, is not supported in a batch/diff function; walk the records themselves ('p->m.x'), or keep an integer index of the record
  for (int i = 0; i < 2; i++) {
    s += p->x;
    p++;
  }
  return s;
}
