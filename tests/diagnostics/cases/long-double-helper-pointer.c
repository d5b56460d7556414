/* A call of a helper computing in long double that passes a pointer other
   than a local array of at most 64 numbers, whole, to a pointer to const
   (here one of 65 elements, a pointer to non-const, a parameter, a pointer
   into an array): the helper runs only as the scalar function, once per
   example, and such a call cannot be made so (a local array of at most 64
   numbers to a pointer to const is copied per example, docs/calls.md). The
   error is at the argument, saying why. */
static double big(const double *v) {
  long double s = 0;
  for (int i = 0; i < 65; i++)
    s += v[i];
  return (double)s;
}
static double nonconst(double *v) {
  long double s = v[0];
  v[1] = 0;
  return (double)s;
}
__attribute__((batch)) double f(double x) {
  double a[65] = {x};
  return big(a);
  // CHECK: long-double-helper-pointer.c:[[@LINE-1]]:14: error: passing 'a', argument 1 (a local array of 65 elements: at most 64 are copied for each example's call), to 'big', which declares a long double local and so runs only as the scalar function, once per example, is not supported in a batch/diff function; pass it numbers, and to a pointer to const a local array of at most 64 numbers of its element type, whole by its name (each example's call gets a copy); or compute 'big' in double
}
__attribute__((batch)) double g(double x) {
  double b[2] = {x, x};
  return nonconst(b);
  // CHECK: long-double-helper-pointer.c:[[@LINE-1]]:19: error: passing 'b', argument 1 (for 'v', a pointer to non-const: each example's call would get a copy of the elements, and what it writes there would be lost), to 'nonconst', which declares a long double local and so runs only as the scalar function, once per example, is not supported in a batch/diff function; pass it numbers, and to a pointer to const a local array of at most 64 numbers of its element type, whole by its name (each example's call gets a copy); or compute 'nonconst' in double
}
__attribute__((batch)) double h(const double x[65]) {
  return big(x);
  // CHECK: long-double-helper-pointer.c:[[@LINE-1]]:14: error: passing 'x', argument 1 (a parameter: only a local array is copied for each example's call), to 'big', which declares a long double local and so runs only as the scalar function, once per example, is not supported in a batch/diff function; pass it numbers, and to a pointer to const a local array of at most 64 numbers of its element type, whole by its name (each example's call gets a copy); or compute 'big' in double
}
__attribute__((batch)) double k(double x) {
  double c[66] = {x};
  return big(&c[1]);
  // CHECK: long-double-helper-pointer.c:[[@LINE-1]]:14: error: passing '&c[1]', argument 1 (not a local array passed whole by its name), to 'big', which declares a long double local and so runs only as the scalar function, once per example, is not supported in a batch/diff function; pass it numbers, and to a pointer to const a local array of at most 64 numbers of its element type, whole by its name (each example's call gets a copy); or compute 'big' in double
}
/* A null pointer (through a helper's parameter its call passed NULL). */
static double pass(double x, double *s) { return nonconst(s) + x; }
__attribute__((batch)) double n(double x) { return pass(x, 0); }
// CHECK: long-double-helper-pointer.c:[[@LINE-2]]:59: error: passing 's', argument 1 (a null pointer), to 'nonconst', which declares a long double local and so runs only as the scalar function, once per example, is not supported in a batch/diff function; pass it numbers, and to a pointer to const a local array of at most 64 numbers of its element type, whole by its name (each example's call gets a copy); or compute 'nonconst' in double
