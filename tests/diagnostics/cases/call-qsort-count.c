/* qsort of more elements than the array has (docs/calls.md, "qsort"). */
#include <stdlib.h>
static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
__attribute__((batch, diff)) double med3(const double x[3]) {
  double t[3] = {x[0], x[1], x[2]};
  qsort(t, 4, sizeof t[0], cmp);
  // CHECK: call-qsort-count.c:[[@LINE-1]]:12: error: sorting 4 elements of 't', which has 3, is not supported in a batch/diff function; sort at most the elements the array has
  return t[1];
}
