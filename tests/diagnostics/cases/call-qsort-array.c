/* qsort of an array parameter (docs/calls.md, "qsort": a local array). */
#include <stdlib.h>
static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
__attribute__((batch, diff)) double med3(double x[3]) {
  qsort(x, 3, sizeof x[0], cmp);
  // CHECK: call-qsort-array.c:[[@LINE-1]]:9: error: sorting 'x', which is not a local array, is not supported in a batch/diff function; copy the elements into a local array and sort that
  return x[1];
}
