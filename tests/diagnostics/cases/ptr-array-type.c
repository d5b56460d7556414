/* A local array of pointers to structs (docs/row-pointers.md: pointers to
   numbers). */
struct pt { double x, y; };
__attribute__((batch, diff)) double f(double x) {
  struct pt a = {x, 2 * x}, b = {3 * x, x};
  struct pt *p[2] = {&a, &b};
  // CHECK: ptr-array-type.c:[[@LINE-1]]:14: error: local array 'p' of type 'struct pt *[2]' is not supported in a batch/diff function; use an array of 1..65536 pointers to float, double or integer elements (all into one array), or an array of scalars
  return p[0]->x + p[1]->y;
}
