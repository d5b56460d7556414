/* A C library function without a batched version (here remainder). */
#include <math.h>
__attribute__((batch, diff)) double f(double x) {
  return x * remainder(x, 2.0);
  // CHECK: call-library.c:[[@LINE-1]]:14: error: the library function 'remainder' is not supported in a batch/diff function; it has no batched version yet (docs/subset.md lists the <math.h> functions that have one)
}
