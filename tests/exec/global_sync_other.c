/* Compiled with the plugin, without being checked itself: the callees of
 * test_global_sync.c. */
#include "global_sync.h"

int osign;
double ofactor = 1.5;

double olg(double x) {
  osign = x < 0 ? -1 : 1;
  return 2 * x;
}

BATCHDIFF double bsq(double x) {
  if (x < 0) {
    osign = -1;
    return -x * x;
  }
  osign = 1;
  return x * x;
}

BATCHDIFF double bpoly(double x) { return x * (1.0 + x); }
