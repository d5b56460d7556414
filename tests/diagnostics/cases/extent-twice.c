/* An extent declared in the type and with BD_EXTENT. */
#include <batchdiff.h>
BATCHDIFF double f(int n, const double x[n] BD_EXTENT(n + 1)) {
  // CHECK: extent-twice.c:[[@LINE-1]]:45: error: 'x' declares its extent twice, in its type and with BD_EXTENT(n + 1); keep one
  return x[n / 2];
}
