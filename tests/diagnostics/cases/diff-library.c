/* In a diff function, a C library function without a derivative rule (here
   the Bessel function jn of order n, called once per example) whose value
   carries a derivative. */
#include <math.h>
__attribute__((batch, diff)) double f(double x, int k) {
  double c = jn(2, k); /* a constant: its argument does not depend on x */
  return c * x * jn(2, x);
  // CHECK: diff-library.c:[[@LINE-1]]:18: error: 'jn' has no derivative rule in batchdiff; compute it from BD_NODIFF inputs, or use 'batch' without 'diff'
}
