/* BD_EXTENT over a floating-point parameter. */
#include <batchdiff.h>
BATCHDIFF double f(const double *x BD_EXTENT(h + 1), double h, int k) {
  // CHECK: extent-not-integer.c:[[@LINE-1]]:36: error: BD_EXTENT(h + 1) of 'x': 'h' is not an integer parameter
  return x[k] * h;
}
