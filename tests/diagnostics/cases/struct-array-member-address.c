/* An index other than 0 through the address of a scalar member of a
   written array of records: only *p (p[0]) reaches the member, as for the
   address of a local scalar (`&out->x` passed to a helper writing `*v`
   works). */
typedef struct { double x, y; } pt;
static void set2(double *v, double a) { v[0] = a; v[1] = a; }
// CHECK: struct-array-member-address.c:[[@LINE-1]]:53: error: indexing the address of scalar 'out->x' is not supported in a batch/diff function; use only *p (or p[0]) on a pointer to a scalar
__attribute__((batch)) void f(pt *out, double a) {
  set2(&out->x, a);
  out->y = a;
}
