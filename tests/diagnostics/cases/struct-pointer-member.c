/* A struct with a pointer member. */
struct view { const double *data; int len; };
__attribute__((batch, diff)) double f(double x) {
  struct view v;
  // CHECK: struct-pointer-member.c:[[@LINE-1]]:15: error: pointer member 'data' of 'struct view' is not supported in a batch/diff function; keep the data in an array member, or pass it as an array parameter
  v.len = 1;
  return x;
}
