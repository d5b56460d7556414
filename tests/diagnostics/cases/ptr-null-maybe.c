/* A local pointer set to NULL and assigned on some paths only, then used
   where no test of it (`if (c)`, `c != NULL &&`, `c ? *c : 0`) says it is
   not NULL (also a helper's pointer parameter, or a helper passed such a
   local): whether it is null differs per example. */
#include <stddef.h>

__attribute__((batch, diff)) double first(double x, const double a[8]) {
  const double *c = NULL;
  for (int i = 0; i < 8; i++)
    if (a[i] > x)
      c = &a[i];
  if (x > 0)
    return *c;
  // CHECK: ptr-null-maybe.c:[[@LINE-1]]:13: error: using 'c', which may still be NULL here (set to NULL at line 8 and not assigned on every path from there), is not supported in a batch/diff function; use it only where a test of it says it is not NULL ('if (c != NULL) ...', 'c ? *c : 0'), or assign 'c' on every path before this use
  return c ? *c : x;
}

static const double A[2] = {1, 2}, B[2] = {3, 4};
__attribute__((batch, diff)) double pick(double x, int k) {
  const double *c = NULL;
  switch (k) {
  case 0:
    c = A;
    break;
  case 1:
    c = B;
    break;
  }
  return c[0] + c[1] * x;
  // CHECK: ptr-null-maybe.c:[[@LINE-1]]:10: error: using 'c', which may still be NULL here (set to NULL at line 20 and not assigned on every path from there), is not supported in a batch/diff function; use it only where a test of it says it is not NULL ('if (c != NULL) ...', 'c ? *c : 0'), or assign 'c' on every path before this use
}

/* Passed to a helper that uses it without a test of it (a helper that
   tests it runs with it where it is set, with NULL elsewhere). */
static double first_of(const double *p) { return p[0]; }
// CHECK: ptr-null-maybe.c:[[@LINE-1]]:50: error: using 'p', which may be NULL here (the call at line 41 passes 'c', which may still be NULL), is not supported in a batch/diff function; test it first ('if (p != NULL) ...'), or pass 'c' only where a test of it says it is not NULL ('c ? first_of(c) : 0')
__attribute__((batch)) double pass(double x, const double a[4]) {
  const double *c = NULL;
  if (x > 0)
    c = a;
  return first_of(c);
}

/* A helper's parameter set to NULL on some paths, then used without a
   test of it (its tests work: a flag per lane). */
static double maybe(const double *p, double x) {
  if (x > 1)
    p = NULL;
  return p[0] * x;
  // CHECK: ptr-null-maybe.c:[[@LINE-1]]:10: error: using 'p', which may still be NULL here (set to NULL at line 48 and not assigned on every path from there), is not supported in a batch/diff function; use it only where a test of it says it is not NULL ('if (p != NULL) ...', 'p ? *p : 0'), or assign 'p' on every path before this use
}
__attribute__((batch)) double viaparam(double x, const double a[2]) {
  return maybe(a, x);
}
