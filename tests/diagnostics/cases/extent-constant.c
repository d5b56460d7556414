/* A constant BD_EXTENT below 1. */
#include <batchdiff.h>
#define NK 4
BATCHDIFF double f(const double *c BD_EXTENT(NK - 4), int k) {
  // CHECK: extent-constant.c:[[@LINE-1]]:36: error: BD_EXTENT(4 - 4) of 'c' is 0: an extent is at least 1 (and at most 2^30 elements)
  return c[k];
}
