/* qsort told an element size other than the array's (docs/calls.md, "qsort"). */
#include <stdlib.h>
static int cmp(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}
__attribute__((batch, diff)) float med3(const float x[3]) {
  float t[3] = {x[0], x[1], x[2]};
  qsort(t, 3, sizeof(double), cmp);
  // CHECK: call-qsort-size.c:[[@LINE-1]]:15: error: sorting elements of 'float' with a size other than theirs is not supported in a batch/diff function; pass the size of the array's elements ('sizeof t[0]')
  return t[1];
}
