/* In a diff function, a C library function without a derivative rule (here
   the Bessel function j0, called once per example) whose value carries a
   derivative. */
#include <math.h>
__attribute__((batch, diff)) double f(double x, int k) {
  double c = j0(k); /* a constant: its argument does not depend on x */
  return c * x * j0(x);
  // CHECK: diff-library.c:[[@LINE-1]]:18: error: 'j0' has no derivative rule in batchdiff; compute it from BD_NODIFF inputs, or use 'batch' without 'diff'
}
