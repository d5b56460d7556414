/* qsort with a comparator another file defines: batchdiff inlines the
   comparator to run it per example on the example's elements
   (docs/calls.md, "qsort"). */
#include <stdlib.h>
int cmp_other(const void *a, const void *b);
__attribute__((batch, diff)) double med3(const double x[3]) {
  double t[3] = {x[0], x[1], x[2]};
  qsort(t, 3, sizeof t[0], cmp_other);
  // CHECK: call-qsort-comparator-extern.c:[[@LINE-1]]:28: error: sorting with 'cmp_other', which this file does not define, is not supported in a batch/diff function; define the comparator in this file (a function of two 'const void *' returning int) and pass its name, so that it is inlined and run per example
  return t[1];
}
