/* Functions of another file (lane_grad_ptr_other.c) marked batch, diff in
 * their header that return results through pointers to scalars, as GSL's
 * helpers do: `int gsl_sf_bessel_J_CF1(double nu, double x, double *ratio,
 * double *sgn)`. Callers pass `&v` of a local (or a pointer bound to one)
 * and get the derivatives from their NAME_grad (docs/calls.md, "Structs to
 * batch functions of other files"). */
#ifndef BATCHDIFF_TESTS_LANE_GRAD_PTR_H
#define BATCHDIFF_TESTS_LANE_GRAD_PTR_H

#include <batchdiff.h>

typedef struct {
  double val, err;
} lgp_result;

/* A continued fraction of eight terms, x / (2 (nu + 1) - x / (2 (nu + 2) -
 * ...)), in *ratio, its sign in *sgn; status 1 (nothing written) for x <= 0. */
BATCHDIFF int lgp_cf1(double nu, double x, double *ratio, double *sgn);
/* Reads and writes *r: *r = k * *r + sin(*r); returns k * *r (the new). */
BATCHDIFF double lgp_scale(double k, double *r);
/* *e = floor(x), *m = (x - *e)^2 exp(x). */
BATCHDIFF int lgp_split(double x, int *e, double *m);
/* *h = x * x / 2 in float. */
BATCHDIFF int lgp_halve(float x, float *h);
/* A pointer to a scalar and a struct in one call: *aux = x * *aux (read and
 * written), r = {exp(*aux), 1e-16 exp(*aux)}. */
BATCHDIFF int lgp_both_e(double x, double *aux, lgp_result *r);
/* Reads only: k * *r * *r. */
BATCHDIFF double lgp_norm(double k, const double *r);

#endif
