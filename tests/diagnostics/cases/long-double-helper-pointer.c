/* A helper computing in long double that takes a pointer and is not passed
   a local array of at most 64 numbers to a pointer to const (here one of
   65 elements, and a pointer to non-const) is not called per example: it
   is inlined, and its long double local refused (a local array of at most
   64 numbers to a pointer to const is copied per example, docs/calls.md). */
static double big(const double *v) {
  long double s = 0;
  // CHECK: long-double-helper-pointer.c:[[@LINE-1]]:15: error: local variable 's' of type 'long double' is not supported in a batch/diff function; use float, double, integer or _Bool locals
  for (int i = 0; i < 65; i++)
    s += v[i];
  return (double)s;
}
static double nonconst(double *v) {
  long double s = v[0];
  // CHECK: long-double-helper-pointer.c:[[@LINE-1]]:15: error: local variable 's' of type 'long double' is not supported in a batch/diff function; use float, double, integer or _Bool locals
  v[1] = 0;
  return (double)s;
}
__attribute__((batch)) double f(double x) {
  double a[65] = {x};
  double b[2] = {x, x};
  return big(a) + nonconst(b);
}
