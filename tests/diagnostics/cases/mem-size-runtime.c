/* memcpy/memmove/memset with a size known only at run time. */
#include <string.h>
__attribute__((batch, diff)) double f(const double x[8], int n) {
  double t[8] = {0};
  memcpy(t, x, (unsigned)n * sizeof(double));
  // CHECK: mem-size-runtime.c:[[@LINE-1]]:16: error: a 'memcpy' size known only at run time is not supported in a batch/diff function; use a constant size (sizeof the array), or a loop
  return t[0] + t[7];
}
