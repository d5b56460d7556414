/* The callees of test_lane_grad_ptr.c (lane_grad_ptr.h), marked batch,
 * diff. */
#include "lane_grad_ptr.h"

#include <math.h>

int lgp_cf1(double nu, double x, double *ratio, double *sgn) {
  if (x <= 0.0)
    return 1;
  double f = 0.0;
  for (int k = 8; k >= 1; k--)
    f = x / (2.0 * (nu + k) - x * f);
  *ratio = f;
  *sgn = f < 0.0 ? -1.0 : 1.0;
  return 0;
}

double lgp_scale(double k, double *r) {
  *r = k * *r + sin(*r);
  return k * *r;
}

int lgp_split(double x, int *e, double *m) {
  double f = floor(x);
  *e = (int)f;
  *m = (x - f) * (x - f) * exp(x);
  return 0;
}

int lgp_halve(float x, float *h) {
  *h = 0.5f * x * x;
  return 0;
}

int lgp_both_e(double x, double *aux, lgp_result *r) {
  *aux = x * *aux;
  r->val = exp(*aux);
  r->err = 1e-16 * r->val;
  return 0;
}

double lgp_norm(double k, const double *r) { return k * *r * *r; }
