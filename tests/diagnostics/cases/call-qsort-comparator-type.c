/* A function that is not a comparator, cast to one (docs/calls.md, "qsort"). */
#include <stdlib.h>
static double cmp(const double *a) { return *a; }
__attribute__((batch, diff)) double med3(const double x[3]) {
  double t[3] = {x[0], x[1], x[2]};
  qsort(t, 3, sizeof t[0], (int (*)(const void *, const void *))cmp);
  // CHECK: call-qsort-comparator-type.c:[[@LINE-1]]:28: error: sorting with 'cmp', which is not a comparator, is not supported in a batch/diff function; pass a function of two 'const void *' returning int
  return t[1];
}
