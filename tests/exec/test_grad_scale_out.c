/* Tiny and huge values written through pointers (an out-parameter of one
 * element, a struct's members: GSL's `int f(double x, gsl_sf_result *r)`)
 * from huge or tiny intermediates: the adjoints of the intermediates are
 * about out / v and underflow (or overflow) though the gradient does not.
 * NAME_grad scales such lanes' cotangents, in the shadows, by 2^k before
 * the sweep and the gradient (and the shadows, the gradient in the values
 * before the call) by 2^-k after it (transforms/ad/ReverseScale.cpp), as
 * for a return value (tests/plugin/grad_scale). Before, `*r = l / sinh(e)`
 * had d/de = 0 from e = 355 and GSL's legendre_H3d_1_e half its derivative
 * at eta = 389 (docs/found-code.md). Checked against the closed forms in
 * long double for n = 0 .. 37 (values within 4 ULP of the scalar
 * function's, the vector math's), with a NULL shadow, and with seeds from
 * 1e-200 to 1e300 (e to 690: above it l / sinh(e) is subnormal). */
#include "exec_util.h"

#include "../common/test_filter.h"

#include <math.h>

typedef struct {
  double val, err;
} gso_result;

BATCHDIFF int ratio_out(double l, double e, double *r) {
  *r = l / sinh(e);
  return 0;
}

/* GSL's legendre_H3d_1_e, its branch for eta > 0.0006. */
BATCHDIFF int h3d1_e(double lambda, double eta, gso_result *result) {
  double xi = fabs(eta * lambda), lsqp1 = lambda * lambda + 1.0;
  double sin_term = sin(xi) / xi, cos_term = cos(xi);
  double coth_term = eta / tanh(eta), sinh_term = eta / sinh(eta);
  double pre_val = sinh_term / (sqrt(lsqp1) * eta);
  double d = sin_term * coth_term - cos_term;
  result->val = pre_val * d;
  result->err = 2.0 * 2.2204460492503131e-16 * fabs(result->val);
  return 0;
}

/* Read and written: the shadow on exit is the gradient in *r's value
 * before the call. */
BATCHDIFF int scale_inout(double e, double *r) {
  *r = *r / sinh(e);
  return 0;
}

/* Huge: 1 / exp(-x) near 707 (d out / d exp(-x) = -out^2 overflows). */
BATCHDIFF int rexp_out(double x, double *r) {
  *r = 1.0 / exp(-x);
  return 0;
}

static void near(const char *what, size_t n, size_t b, double got,
                 long double want) {
  double w = (double)want;
  if (!(fabs(got - w) <= 1e-12 * fabs(w)))
    fail_msg("%s n=%zu lane %zu: %.17g, expected %.17g", what, n, b, got, w);
}

/* Values: the vector math's sinh, exp, sin against the C library's. */
static void same_value(const char *what, size_t n, size_t b, double got,
                       double want) {
  if (!(ulp_dist_d(got, want) <= 4))
    fail_msg("%s n=%zu lane %zu: %a, scalar %a", what, n, b, got, want);
}

/* A seed from 1e-200 to 1e300 (1 mostly). */
static double seed_of(size_t b) {
  return b % 7 == 3 ? 1e-200 : b % 7 == 5 ? 1e300 : 1.0 + 0.01 * (double)b;
}

static void test_ratio(void **state) {
  (void)state;
  rng_t rg = {name_seed("ratio_out")};
  for (size_t n = 0; n <= 37; n++) {
    double *l = gp_alloc((n + 1) * 8), *e = gp_alloc((n + 1) * 8);
    double *r = gp_alloc((n + 1) * 8), *dr = gp_alloc((n + 1) * 8);
    double *dl = gp_alloc((n + 1) * 8), *de = gp_alloc((n + 1) * 8);
    int *st = gp_alloc((n + 1) * sizeof *st);
    for (size_t b = 0; b < n; b++) {
      l[b] = 0.5 + 2.0 * rng_unit(&rg);
      e[b] = b % 4 ? 300.0 + 390.0 * rng_unit(&rg) : 1.0 + 5.0 * rng_unit(&rg);
      dr[b] = seed_of(b);
      dl[b] = de[b] = 0.0;
    }
    ratio_out_grad(n, l, e, r, 1, st, dl, de, dr, 1);
    for (size_t b = 0; b < n; b++) {
      double want;
      ratio_out(l[b], e[b], &want);
      same_value("ratio_out value", n, b, r[b], want);
      long double L = l[b], E = e[b], S = seed_of(b);
      near("ratio_out d/dl", n, b, dl[b], S / sinhl(E));
      near("ratio_out d/de", n, b, de[b], -S * L * coshl(E) / (sinhl(E) * sinhl(E)));
      if (dr[b] != 0.0)
        fail_msg("ratio_out n=%zu lane %zu: shadow %g after", n, b, dr[b]);
    }
    /* A NULL shadow: no cotangent, no gradient. */
    for (size_t b = 0; b < n; b++)
      dl[b] = de[b] = 0.0;
    ratio_out_grad(n, l, e, r, 1, st, dl, de, NULL, 1);
    for (size_t b = 0; b < n; b++)
      if (dl[b] != 0.0 || de[b] != 0.0)
        fail_msg("ratio_out NULL shadow n=%zu lane %zu", n, b);
    gp_reset();
  }
}

static long double h3d1(long double l, long double e) {
  return (sinl(l * e) * coshl(e) / sinhl(e) / l - cosl(l * e)) /
         (sqrtl(l * l + 1) * sinhl(e));
}

static void test_h3d1(void **state) {
  (void)state;
  rng_t rg = {name_seed("h3d1_e")};
  for (size_t n = 0; n <= 37; n++) {
    double *l = gp_alloc((n + 1) * 8), *e = gp_alloc((n + 1) * 8);
    double *dl = gp_alloc((n + 1) * 8), *de = gp_alloc((n + 1) * 8);
    gso_result *r = gp_alloc((n + 1) * sizeof *r);
    gso_result *dr = gp_alloc((n + 1) * sizeof *dr);
    int *st = gp_alloc((n + 1) * sizeof *st);
    for (size_t b = 0; b < n; b++) {
      l[b] = 0.5 + 4.0 * rng_unit(&rg);
      e[b] = b % 3 ? 300.0 + 400.0 * rng_unit(&rg) : 0.5 + 5.0 * rng_unit(&rg);
      dr[b].val = 1.0;
      dr[b].err = 0.0;
      dl[b] = de[b] = 0.0;
    }
    h3d1_e_grad(n, l, e, r, 1, st, dl, de, dr, 1);
    for (size_t b = 0; b < n; b++) {
      gso_result want;
      h3d1_e(l[b], e[b], &want);
      same_value("h3d1_e val", n, b, r[b].val, want.val);
      same_value("h3d1_e err", n, b, r[b].err, want.err);
      /* Central differences of the closed form in long double, h = 1e-7:
       * truncation about 1e-14 relative. */
      long double L = l[b], E = e[b], h = 1e-7L;
      long double wl = (h3d1(L + h, E) - h3d1(L - h, E)) / (2 * h);
      long double we = (h3d1(L, E + h) - h3d1(L, E - h)) / (2 * h);
      if (!(fabsl(dl[b] - wl) <= 1e-9L * fabsl(wl) + 1e-9L * fabsl(h3d1(L, E))))
        fail_msg("h3d1_e d/dl n=%zu lane %zu l=%a e=%a: %.17g, expected %.17Lg",
                 n, b, l[b], e[b], dl[b], wl);
      if (!(fabsl(de[b] - we) <= 1e-9L * fabsl(we) + 1e-9L * fabsl(h3d1(L, E))))
        fail_msg("h3d1_e d/de n=%zu lane %zu l=%a e=%a: %.17g, expected %.17Lg",
                 n, b, l[b], e[b], de[b], we);
    }
    gp_reset();
  }
}

static void test_inout(void **state) {
  (void)state;
  rng_t rg = {name_seed("scale_inout")};
  for (size_t n = 0; n <= 37; n++) {
    double *e = gp_alloc((n + 1) * 8), *r = gp_alloc((n + 1) * 8);
    double *r0 = gp_alloc((n + 1) * 8), *dr = gp_alloc((n + 1) * 8);
    double *de = gp_alloc((n + 1) * 8);
    int *st = gp_alloc((n + 1) * sizeof *st);
    for (size_t b = 0; b < n; b++) {
      e[b] = b % 2 ? 300.0 + 390.0 * rng_unit(&rg) : 1.0 + 5.0 * rng_unit(&rg);
      r[b] = r0[b] = 0.25 + rng_unit(&rg);
      dr[b] = seed_of(b);
      de[b] = 0.0;
    }
    scale_inout_grad(n, e, r, 1, st, de, dr, 1);
    for (size_t b = 0; b < n; b++) {
      double want = r0[b];
      scale_inout(e[b], &want);
      same_value("scale_inout value", n, b, r[b], want);
      long double E = e[b], S = seed_of(b), R = r0[b];
      near("scale_inout d/dr", n, b, dr[b], S / sinhl(E));
      near("scale_inout d/de", n, b, de[b],
           -S * R * coshl(E) / (sinhl(E) * sinhl(E)));
    }
    gp_reset();
  }
}

static void test_rexp(void **state) {
  (void)state;
  rng_t rg = {name_seed("rexp_out")};
  for (size_t n = 0; n <= 37; n++) {
    double *x = gp_alloc((n + 1) * 8), *r = gp_alloc((n + 1) * 8);
    double *dr = gp_alloc((n + 1) * 8), *dx = gp_alloc((n + 1) * 8);
    int *st = gp_alloc((n + 1) * sizeof *st);
    for (size_t b = 0; b < n; b++) {
      x[b] = b % 2 ? 350.0 + 357.0 * rng_unit(&rg) : -5.0 + 10.0 * rng_unit(&rg);
      dr[b] = 1.0;
      dx[b] = 0.0;
    }
    rexp_out_grad(n, x, r, 1, st, dx, dr, 1);
    for (size_t b = 0; b < n; b++) {
      double want;
      rexp_out(x[b], &want);
      same_value("rexp_out value", n, b, r[b], want);
      near("rexp_out d/dx", n, b, dx[b], expl(x[b]));
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_ratio),
      cmocka_unit_test(test_h3d1),
      cmocka_unit_test(test_inout),
      cmocka_unit_test(test_rexp),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_grad_scale_out", tests, NULL, NULL);
}
