/* BD_EXTENT names something that is not a parameter of the function. */
#include <batchdiff.h>
BATCHDIFF double f(const double *x BD_EXTENT(len), int n) {
  // CHECK: extent-unknown-name.c:[[@LINE-1]]:36: error: BD_EXTENT(len) of 'x': 'len' is not a parameter of 'f'
  return x[n / 2];
}
