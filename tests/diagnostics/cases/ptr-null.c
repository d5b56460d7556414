/* A null pointer anywhere but what a pointer local is declared or assigned
   with (`c = NULL;`, `c = x > 0 ? T : NULL;`, then tested), or a helper's
   argument: a struct pointer or a function pointer set to NULL. */
#include <stddef.h>
static const double T[3] = {1, 2, 3};
static double first(const double *p) { return p ? p[0] : 0.0; }
__attribute__((batch)) double f(double x) {
  return first(x > 0 ? T : 0) * x;
  // CHECK: ptr-null.c:[[@LINE-1]]:28: error: a null pointer is not supported in a batch/diff function; point it into an array or at a local; a pointer local may be set to NULL, then tested ('c = NULL; if (x > 0) c = T; ... c ? *c : 0')
}

struct rec {
  double a, b;
};
__attribute__((batch)) double g(double x) {
  struct rec r[2] = {{x, 1}, {2, x}};
  struct rec *best = NULL;
  // CHECK: ptr-null.c:[[@LINE-1]]:15: error: a pointer to a struct, 'best', set to NULL is not supported in a batch/diff function; keep an index of the struct instead ('int k = -1;', then 'if (k >= 0) ... r[k]'), or point it at a struct where it is declared and keep whether it is set in an int
  for (int i = 0; i < 2; i++)
    if (!best || r[i].a < best->a)
      best = &r[i];
  return best ? best->b : 0.0;
}

static double sq(double x) { return x * x; }
__attribute__((batch)) double h(double x) {
  double (*fn)(double) = NULL;
  // CHECK: ptr-null.c:[[@LINE-1]]:26: error: setting the function pointer 'fn' to NULL is not supported in a batch/diff function; assign it a function on every path before a call instead, or keep which one in an int ('int k = -1;', then 'if (k >= 0)')
  if (x > 0)
    fn = sq;
  return fn ? fn(x) : x;
}
