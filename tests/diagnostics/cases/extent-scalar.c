/* BD_EXTENT on a scalar parameter. */
#include <batchdiff.h>
BATCHDIFF double f(double x BD_EXTENT(n), int n) {
  // CHECK: extent-scalar.c:[[@LINE-1]]:29: error: BD_EXTENT on parameter 'x' of type 'double': only a pointer or array parameter has an extent
  return x * n;
}
