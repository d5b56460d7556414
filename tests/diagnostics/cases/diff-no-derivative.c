/* Every <math.h> function batchdiff knows has a derivative rule; its own
 * __bd_trigamma (lgamma's second derivative, a reserved name) has none. */
#include <math.h>
double __bd_trigamma(double);
__attribute__((batch, diff)) double g(double x, __attribute__((nodiff)) double y) {
  return x * lgamma(y) + tgamma(x) + __bd_trigamma(x);
  // CHECK: diff-no-derivative.c:[[@LINE-1]]:38: error: '__bd_trigamma' has no derivative rule in batchdiff; compute it from BD_NODIFF inputs, or use 'batch' without 'diff'
}
