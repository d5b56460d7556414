/* The callees of test_lane_grad.c (lane_grad.h), marked batch, diff. */
#include "lane_grad.h"

#include <math.h>

int lg_exp_e(double x, lg_result *r) {
  if (x > 709.0) {
    r->val = INFINITY;
    r->err = INFINITY;
    return 1;
  }
  r->val = exp(x);
  r->err = 2.0 * 2.2204460492503131e-16 * fabs(r->val);
  return 0;
}

typedef struct {
  double *c;
  int order;
  double a, b;
} lg_cheb;

static double lg_data[6] = {0.75, -0.5, 0.25, 0.125, -0.0625, 0.03125};
static lg_cheb lg_cs = {lg_data, 5, -1.0, 1.0};

static int lg_cheb_eval(const lg_cheb *cs, double x, lg_result *r) {
  double d = 0.0, dd = 0.0, e = 0.0;
  double y = (2.0 * x - cs->a - cs->b) / (cs->b - cs->a), y2 = 2.0 * y;
  for (int j = cs->order; j >= 1; j--) {
    double t = d;
    d = y2 * d - dd + cs->c[j];
    e += fabs(y2 * t) + fabs(dd) + fabs(cs->c[j]);
    dd = t;
  }
  double t = d;
  d = y * d - dd + 0.5 * cs->c[0];
  e += fabs(y * t) + fabs(dd) + 0.5 * fabs(cs->c[0]);
  r->val = d;
  r->err = 2.2204460492503131e-16 * e + fabs(cs->c[cs->order]);
  return 0;
}

int lg_cheb_e(double x, lg_result *r) {
  if (x < -1.0 || x > 1.0) {
    r->val = NAN;
    r->err = NAN;
    return 1;
  }
  return lg_cheb_eval(&lg_cs, x, r);
}

double lg_scale(double k, lg_result *r) {
  r->val = k * r->val + r->err * r->err;
  r->err = fabs(k) * r->err;
  return k * r->val;
}

int lg_mul_e10_e(double x, double y, struct lg_e10 *r) {
  double l = log10(fabs(x)) + y / log(10.0);
  double e = floor(l);
  r->e10 = (int)e;
  r->val = copysign(pow(10.0, l - e), x);
  r->err = 1e-15 * fabs(r->val);
  return x == 0.0 ? 2 : 0;
}

double lg_norm(double k, const lg_result *r) {
  return k * sqrt(r->val * r->val + r->err * r->err);
}
