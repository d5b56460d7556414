/* lgamma_r(x, &sign) and lgammaf_r (POSIX): lowered as lgamma(x) and the
 * sign of Gamma(x) (before: a call per example whose result carried no
 * derivative, an error in a diff function). The sign is compared with
 * glibc's bit for bit at its special points (zeros of both signs, poles,
 * tiny and huge negatives, NaN, infinities, the ranges of glibc's three
 * paths) and random arguments; the value and its gradient with a twin
 * written with lgamma, bit for bit; n = 0 .. 67 and 4099 examples. */
#define _DEFAULT_SOURCE
#include "exec_util.h"

#include "../common/test_filter.h"

BATCHDIFF double lg_sign(double x) {
  int s;
  (void)lgamma_r(x, &s);
  return s;
}
BATCHDIFF double lg_val(double x, double y) {
  int s = 7;
  double l = lgamma_r(x * y, &s);
  return l * y + s;
}
BATCHDIFF double lg_twin(double x, double y) {
  double l = lgamma(x * y);
  return l * y + (x * y < 0 && fmod(floor(x * y), 2.0) != 0 ? -1 : 1);
}
BATCHDIFF float lgf_sign(float x) {
  int s;
  (void)lgammaf_r(x, &s);
  return (float)s;
}

static double special(rng_t *r, size_t e) {
  static const double sp[] = {0.0,     -0.0,   -1.0,     -2.0,      -3.0,
                              -27.0,   -28.0,  -29.0,    -0x1p52,   -0x1p53,
                              -0x1p60, -1e300, -0x1p-80, 0x1p-80,   -0.5,
                              -1.5,    -2.5,   -27.5,    -28.5,     -1e15 - 0.5,
                              NAN,     -NAN,   INFINITY, -INFINITY, 3.5};
  if (e < sizeof sp / sizeof sp[0])
    return sp[e];
  return e % 3 ? rng_range(r, -40.0, 10.0) : rng_range(r, -3.0, 3.0);
}

static void t_lgamma_r(void **state) {
  (void)state;
  rng_t rng = {name_seed("lgamma_r")};
  size_t sizes[] = {0, 1, 7, 8, 9, 16, 17, 67, 4099};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
    size_t n = sizes[si];
    double *x = gp_alloc(n * 8), *x2 = gp_alloc(n * 8), *y = gp_alloc(n * 8),
           *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8), *dr = gp_alloc(n * 8);
    double *d[2], *d2[2];
    float *xf = gp_alloc(n * 4), *rf = gp_alloc(n * 4);
    for (int k = 0; k < 2; k++)
      d[k] = gp_alloc(n * 8), d2[k] = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      /* the special points in a random order of lanes */
      x[e] = special(&rng, (e * 7 + si) % (n > 30 ? n : 30));
      y[e] = rng_range(&rng, 0.5, 1.5);
      dr[e] = rng_range(&rng, 0.5, 2.0);
      xf[e] = (float)x[e];
    }
    if (n)
      xf[0] = -0x1p23f; /* float: every value beyond is an integer */
    gp_seal(x), gp_seal(y), gp_seal(dr), gp_seal(xf);
    lg_sign_batched(n, x, r);
    for (size_t e = 0; e < n; e++)
      if (r[e] != lg_sign(x[e])) {
        print_error("lg_sign e=%zu x=%a: %g, glibc %g\n", e, x[e], r[e],
                    lg_sign(x[e]));
        fail();
      }
    lgf_sign_batched(n, xf, rf);
    for (size_t e = 0; e < n; e++)
      if (rf[e] != lgf_sign(xf[e])) {
        print_error("lgf_sign e=%zu x=%a: %g, glibc %g\n", e, (double)xf[e],
                    (double)rf[e], (double)lgf_sign(xf[e]));
        fail();
      }
    for (size_t e = 0; e < n; e++) /* away from poles and huge values */
      x2[e] = isfinite(x[e]) && fabs(x[e]) < 40 && x[e] != floor(x[e]) ? x[e]
                                                                       : 0.75;
    gp_seal(x2);
    lg_val_batched(n, x2, y, r);
    lg_twin_batched(n, x2, y, r2);
    assert_memory_equal(r, r2, n * 8);
    for (int k = 0; k < 2; k++)
      memset(d[k], 0, n * 8), memset(d2[k], 0, n * 8);
    lg_val_grad(n, x2, y, r, dr, d[0], d[1]);
    lg_twin_grad(n, x2, y, r2, dr, d2[0], d2[1]);
    assert_memory_equal(r, r2, n * 8);
    for (int k = 0; k < 2; k++)
      assert_memory_equal(d[k], d2[k], n * 8);
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(t_lgamma_r)};
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_lgamma_r", tests, NULL, NULL);
}
