/* A C library function without a batched version that cannot be called once
   per example either (here lgamma_r, whose sign comes back through a
   pointer). */
#include <math.h>
__attribute__((batch, diff)) double f(double x) {
  int sign;
  return x * lgamma_r(x, &sign);
  // CHECK: call-library.c:[[@LINE-1]]:14: error: the library function 'lgamma_r' is not supported in a batch/diff function; it has no batched version yet (docs/subset.md lists the <math.h> functions that have one)
}
