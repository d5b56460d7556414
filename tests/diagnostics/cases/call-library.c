/* A C library function without a batched version (here lgamma). */
#include <math.h>
__attribute__((batch, diff)) double f(double x) {
  return x * lgamma(x);
  // CHECK: call-library.c:[[@LINE-1]]:14: error: the library function 'lgamma' is not supported in a batch/diff function; it has no batched version yet (docs/subset.md lists the <math.h> functions that have one)
}
