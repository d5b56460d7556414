/* The address of a member of a written array of records (of a const one
   works: a pointer into that member's elements). */
typedef struct { double x, y; } pt;
static void set(double *v, double a) { *v = a; }
__attribute__((batch)) void f(pt *out, double a) {
  set(&out->x, a);
  // CHECK: struct-array-member-address.c:[[@LINE-1]]:7: error: taking the address of a member of the written array of records 'out' is not supported in a batch/diff function; pass the record ('&p[i]') or the member's value
  out->y = a;
}
