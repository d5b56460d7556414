/* A local pointer set to NULL and assigned on some paths only, then tested
   or used: whether it is null would differ per example. */
#include <stddef.h>

__attribute__((batch, diff)) double first(double x, const double a[8]) {
  const double *c = NULL;
  for (int i = 0; i < 8; i++)
    if (a[i] > x)
      c = &a[i];
  if (c)
    // CHECK: ptr-null-maybe.c:[[@LINE-1]]:7: error: testing 'c', which may still be NULL here (set to NULL at line 6 and not assigned on every path from there), is not supported in a batch/diff function; assign 'c' on every path before this test, or keep an index instead of a pointer ('int k = -1;', then 'if (k >= 0)')
    return *c;
  return x;
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
  // CHECK: ptr-null-maybe.c:[[@LINE-1]]:10: error: using 'c', which may still be NULL here (set to NULL at line 18 and not assigned on every path from there), is not supported in a batch/diff function; assign 'c' on every path before this use, or keep an index instead of a pointer
}
