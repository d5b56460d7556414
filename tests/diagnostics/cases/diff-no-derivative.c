/* lgamma and tgamma can be batched, but batchdiff has no derivative rule for them. */
#include <math.h>
__attribute__((batch, diff)) double g(double x, __attribute__((nodiff)) double y) {
  return x * lgamma(y) + tgamma(x);
  // CHECK: diff-no-derivative.c:[[@LINE-1]]:26: error: 'tgamma' has no derivative rule in batchdiff; compute it from BD_NODIFF inputs, or use 'batch' without 'diff'
}
