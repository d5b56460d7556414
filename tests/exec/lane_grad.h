/* Functions of another file (lane_grad_other.c) marked batch, diff in
 * their header that return their results through pointers to structs of
 * numbers, as GSL's special functions do: `int gsl_sf_exp_e(double x,
 * gsl_sf_result *r)` writes {val, err} and returns a status. Callers call
 * them once per example on the scalar function and take the derivatives
 * from their NAME_grad (docs/calls.md, "Structs to batch functions of other
 * files"). */
#ifndef BATCHDIFF_TESTS_LANE_GRAD_H
#define BATCHDIFF_TESTS_LANE_GRAD_H

#include <batchdiff.h>

typedef struct {
  double val, err;
} lg_result;

struct lg_e10 {
  double val, err;
  int e10;
};

/* exp(x) and an error estimate; status 1 (and +inf) above 709. */
BATCHDIFF int lg_exp_e(double x, lg_result *r);
/* A Chebyshev series on [-1, 1] (a static struct with a pointer member). */
BATCHDIFF int lg_cheb_e(double x, lg_result *r);
/* Reads and writes r: r->val = k * r->val + r->err * r->err, r->err =
 * |k| * r->err; returns k * r->val (the new one). */
BATCHDIFF double lg_scale(double k, lg_result *r);
/* x * exp(y) as val * 10^e10. */
BATCHDIFF int lg_mul_e10_e(double x, double y, struct lg_e10 *r);
/* Reads only. */
BATCHDIFF double lg_norm(double k, const lg_result *r);

#endif
