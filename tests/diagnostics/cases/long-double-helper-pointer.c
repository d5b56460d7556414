/* A call of a helper computing in long double that passes a pointer other
   than a local array of at most 64 numbers, whole, to a pointer to const
   (here one of 65 elements, a pointer to non-const, an array parameter
   with a derivative, a pointer
   into an array, a helper's pointer into a local array not at its start
   or into one of 65 elements): the helper runs only as the scalar function, once per
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
  // CHECK: long-double-helper-pointer.c:[[@LINE-1]]:14: error: passing 'a', argument 1 (a local array of 65 elements: at most 64 are copied for each example's call), to 'big', which declares a long double local and so runs only as the scalar function, once per example, is not supported in a batch/diff function; pass it numbers, the function's own arrays, and to a pointer to const a local array of at most 64 numbers of its element type, whole (by its name, or a pointer to its start; each example's call gets a copy); or compute 'big' in double
}
__attribute__((batch)) double g(double x) {
  double b[2] = {x, x};
  return nonconst(b);
  // CHECK: long-double-helper-pointer.c:[[@LINE-1]]:19: error: passing 'b', argument 1 (for 'v', a pointer to non-const: each example's call would get a copy of the elements, and what it writes there would be lost), to 'nonconst', which declares a long double local and so runs only as the scalar function, once per example, is not supported in a batch/diff function; pass it numbers, the function's own arrays, and to a pointer to const a local array of at most 64 numbers of its element type, whole (by its name, or a pointer to its start; each example's call gets a copy); or compute 'nonconst' in double
}
/* The function's own array passes (each example's), but not with a
   derivative. */
__attribute__((batch, diff)) double h(const double x[65]) {
  return big(x);
  // CHECK: long-double-helper-pointer.c:[[@LINE-1]]:14: error: passing 'x', argument 1 (an array parameter with a derivative: the call runs as the scalar function, which has none; mark 'x' BD_NODIFF if it needs none), to 'big', which declares a long double local and so runs only as the scalar function, once per example, is not supported in a batch/diff function; pass it numbers, the function's own arrays, and to a pointer to const a local array of at most 64 numbers of its element type, whole (by its name, or a pointer to its start; each example's call gets a copy); or compute 'big' in double
}
__attribute__((batch)) double k(double x) {
  double c[66] = {x};
  return big(&c[1]);
  // CHECK: long-double-helper-pointer.c:[[@LINE-1]]:14: error: passing '&c[1]', argument 1 (not a local array passed whole), to 'big', which declares a long double local and so runs only as the scalar function, once per example, is not supported in a batch/diff function; pass it numbers, the function's own arrays, and to a pointer to const a local array of at most 64 numbers of its element type, whole (by its name, or a pointer to its start; each example's call gets a copy); or compute 'big' in double
}
/* A helper's pointer parameter bound to a local array, passed on: not at
   the array's start, or an array of more than 64 elements. (Bound to a
   whole local array of at most 64, or NULL, it is passed per example.) */
static double two(const double *v) {
  long double s = v[0];
  return (double)(s * v[1]);
}
static double pass(double x, const double *s) { return two(s) + x; }
__attribute__((batch)) double n(double x) {
  double c[4] = {x, x, x, x};
  return pass(x, c + 1);
}
// CHECK: long-double-helper-pointer.c:[[@LINE-5]]:60: error: passing 's', argument 1 ('s' points into local array 'c' but not at its start, or is re-pointed: only a local array passed whole is copied for each example's call), to 'two', which declares a long double local and so runs only as the scalar function, once per example, is not supported in a batch/diff function; pass it numbers, the function's own arrays, and to a pointer to const a local array of at most 64 numbers of its element type, whole (by its name, or a pointer to its start; each example's call gets a copy); or compute 'two' in double
__attribute__((batch)) double m(double x) {
  double d[65] = {x};
  return pass(x, d);
}
// CHECK: long-double-helper-pointer.c:[[@LINE-10]]:60: error: passing 's', argument 1 ('s' points into local array 'd', of 65 elements: at most 64 are copied for each example's call), to 'two', which declares a long double local and so runs only as the scalar function, once per example, is not supported in a batch/diff function; pass it numbers, the function's own arrays, and to a pointer to const a local array of at most 64 numbers of its element type, whole (by its name, or a pointer to its start; each example's call gets a copy); or compute 'two' in double
