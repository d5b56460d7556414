/* A comparator that counts its calls in a global: batchdiff's sort calls
   it in another order and a different number of times than the C
   library's qsort (docs/calls.md, "qsort"). */
#include <stdlib.h>
static long ncmp;
static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  ncmp++;
  // CHECK: call-qsort-comparator-effect.c:[[@LINE-1]]:3: error: sorting with 'cmp', which writes 'ncmp', is not supported in a batch/diff function; batchdiff sorts with its own algorithm, which calls the comparator in another order and a different number of times than the C library's qsort: compare the two elements and return, with no other effect
  return (x > y) - (x < y);
}
__attribute__((batch, diff)) double med3(const double x[3]) {
  double t[3] = {x[0], x[1], x[2]};
  qsort(t, 3, sizeof t[0], cmp);
  return t[1];
}
