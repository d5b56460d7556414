/* Calls of functions of another file marked batch, diff that take
 * read-only arrays (Cephes' polevl and p1evl): a file's table goes to
 * their NAME_batched / NAME_grad as one pointer with a stride of 0, its
 * shadow NULL; a BD_UNIFORM array (BD_NODIFF) as its pointer; an array
 * per example with its stride. */
#include <batchdiff.h>
// DEFINES: rat rat_batched rat_grad each each_batched each_grad
BATCHDIFF double polevl(double x, const double coef[], int N);
BATCHDIFF double p1evl(double x, const double coef[], int N);

static double P[] = {0.5, 1.5, -2.0};
static const double Q[] = {3.0, -1.0};

BATCHDIFF double rat(double x, BD_UNIFORM BD_NODIFF const double c[3]) {
  return polevl(x, P, 2) / p1evl(x, Q, 2) + polevl(x, c, 2);
}

/* An array per example (BD_NODIFF): whole where the lanes' arrays are
 * equally spaced, else a call per lane. */
BATCHDIFF double each(double x, BD_NODIFF const double v[3]) {
  return polevl(x, v, 2) * x;
}
