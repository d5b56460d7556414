/* A double function with an early return and an if/else. */
#include <batchdiff.h>
// DEFINES: huber huber_batched huber_grad
#include <math.h>

BATCHDIFF double huber(double r, double delta) {
  if (delta <= 0.0)
    return 0.0;
  double a = fabs(r);
  double out;
  if (a <= delta)
    out = 0.5 * r * r;
  else
    out = delta * (a - 0.5 * delta);
  return out;
}
