/* A local pointer set to NULL and assigned on some paths only, then used
   where no test of it (`if (c)`, `c != NULL &&`, `c ? *c : 0`) says it is
   not NULL, or a helper's pointer parameter set to NULL on some paths,
   then tested: whether it is null would differ per example. */
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

/* Passed to a helper where it may be NULL (the helper's tests of it would
   differ per example). */
static double first_of(const double *p) { return p ? p[0] : 0.0; }
__attribute__((batch)) double pass(double x, const double a[4]) {
  const double *c = NULL;
  if (x > 0)
    c = a;
  return first_of(c);
  // CHECK: ptr-null-maybe.c:[[@LINE-1]]:19: error: using 'c', which may still be NULL here (set to NULL at line 37 and not assigned on every path from there), is not supported in a batch/diff function; use it only where a test of it says it is not NULL ('if (c != NULL) ...', 'c ? *c : 0'), or assign 'c' on every path before this use
}

/* A helper's parameter set to NULL on some paths, then tested. */
static double maybe(const double *p, double x) {
  if (x > 1)
    p = NULL;
  return p ? p[0] : x;
  // CHECK: ptr-null-maybe.c:[[@LINE-1]]:10: error: testing 'p', which may still be NULL here (set to NULL at line 47 and not assigned on every path from there), is not supported in a batch/diff function; assign 'p' on every path before this test, or keep an index instead of a pointer ('int k = -1;', then 'if (k >= 0)')
}
__attribute__((batch)) double viaparam(double x, const double a[2]) {
  return maybe(a, x);
}
