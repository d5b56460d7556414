/* The callees of test_extern_struct_out.c, compiled without annotations
 * (extern_struct_out.h). */
#include "extern_struct_out.h"

#include <math.h>

static long scale_calls;

int xs_exp_e(double x, xs_result *r) {
  if (x > 709.0) {
    r->val = INFINITY;
    r->err = INFINITY;
    return 1;
  }
  r->val = exp(x);
  r->err = 2.0 * 2.2204460492503131e-16 * fabs(r->val);
  return 0;
}

int xs_exp_mult_e10_e(double x, double y, struct xs_result_e10 *r) {
  double l = log10(fabs(x)) + y / log(10.0);
  double e = floor(l);
  r->e10 = (int)e;
  r->val = copysign(pow(10.0, l - e), x);
  r->err = 1e-15 * fabs(r->val);
  return x == 0.0 ? 2 : 0;
}

void xs_scale(double k, xs_result *r) {
  scale_calls++;
  r->val *= k;
  r->err *= fabs(k);
}

double xs_sum(const xs_result *r) { return r->val + r->err; }

void xs_step(double x, struct xs_pair *p) {
  p->r.val = p->r.val * x + p->w;
  p->r.err += fabs(x) * 1e-16;
  p->w = (float)(p->w * 0.5f + (float)x);
  p->k = (short)(p->k + 1);
  p->n = p->n * 3 + (long)x;
}

long xs_scale_calls(void) { return scale_calls; }
