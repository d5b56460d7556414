/* BD_EXTENT that is not integer arithmetic (a conditional). */
#include <batchdiff.h>
BATCHDIFF double f(const double *x BD_EXTENT(n > 0 ? n : 1), int n) {
  // CHECK: extent-syntax.c:[[@LINE-1]]:36: error: BD_EXTENT(n > 0 ? n : 1) of 'x': expected integer arithmetic over integer parameters and constants, e.g. BD_EXTENT(n) or BD_EXTENT(n + 1)
  return x[n / 2];
}
