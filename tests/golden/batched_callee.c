/* A call of a function of another file marked batch, diff in its
 * declaration: the lanes that are on call its NAME_batched (in
 * NAME_batched) or its NAME_grad (in NAME_grad, for the partials) together;
 * a uniform parameter makes a call per lane. */
#include <batchdiff.h>
// DEFINES: score score_batched score_grad
#include <math.h>

BATCHDIFF double other(double x, int k);
BATCHDIFF double scaled(double x, BD_UNIFORM double s);

BATCHDIFF double score(double x, int k) {
  double v = other(x * x, k);
  if (x > 1)
    v += scaled(v, x);
  return v * exp(x);
}
