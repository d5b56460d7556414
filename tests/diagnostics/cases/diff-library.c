/* In a diff function, a C library function without a derivative rule (here
   remquo, the remainder and low bits of the quotient, called once per
   example) whose value carries a derivative. */
#include <math.h>
__attribute__((batch, diff)) double f(double x, int k) {
  int q;
  double c = remquo(k, 3.0, &q); /* a constant: k does not depend on x */
  return c * x * remquo(x, 3.0, &q);
  // CHECK: diff-library.c:[[@LINE-1]]:18: error: 'remquo' has no derivative rule in batchdiff; compute it from BD_NODIFF inputs, or use 'batch' without 'diff'
}
