/* A C library function without a batched version (here the Bessel function j0). */
#include <math.h>
__attribute__((batch, diff)) double f(double x) {
  return x * j0(x);
  // CHECK: call-library.c:[[@LINE-1]]:14: error: the library function 'j0' is not supported in a batch/diff function; it has no batched version yet (docs/subset.md lists the <math.h> functions that have one)
}
