/* NAME_jvp in a direction with a zero component where that component's
 * partial is not finite (docs/abi.md, NAME_jvp: "a zero tangent adds
 * nothing"): sqrt(y) and cbrt(y) at y = 0, pow(x, y) in y at x < 0 and in x
 * at x = 0, asin/acos(y) at y = +-1, acosh(y) at y = 1. The directional
 * derivative along x exists there and is what every lane must get, for a
 * tangent array holding 0 and for a NULL tangent; lanes with a nonzero
 * tangent in y keep the full derivative. Special lanes sit among ordinary
 * ones at every position of a chunk (n = 1 .. 37), and each example alone
 * gives the bits it gets in the batch. */
#include "exec_util.h"

#include "../common/test_filter.h"

BATCHDIFF BD_JVP double z_pow(double x, double y) { return pow(x, y); }
BATCHDIFF BD_JVP double z_sqrt(double x, double y) { return sqrt(y) * x + x; }
BATCHDIFF BD_JVP double z_cbrt(double x, double y) { return cbrt(y) + x * x; }
BATCHDIFF BD_JVP double z_asin(double x, double y) { return asin(y) * x; }
BATCHDIFF BD_JVP double z_acos(double x, double y) { return acos(y) + x; }
BATCHDIFF BD_JVP double z_acosh(double x, double y) { return acosh(y) * x; }
BATCHDIFF BD_JVP float z_sqrtf(float x, float y) { return sqrtf(y) * x + x; }

/* Each function's partials at ordinary points (x, y). */
static void p_pow(double x, double y, double *p) {
  p[0] = y * pow(x, y - 1.0);
  p[1] = x == 0.0 ? 0.0 : pow(x, y) * log(x);
}
static void p_sqrt(double x, double y, double *p) {
  p[0] = sqrt(y) + 1.0;
  p[1] = x / (2.0 * sqrt(y));
}
static void p_cbrt(double x, double y, double *p) {
  p[0] = 2.0 * x;
  p[1] = 1.0 / (3.0 * cbrt(y) * cbrt(y));
}
static void p_asin(double x, double y, double *p) {
  p[0] = asin(y);
  p[1] = x / sqrt(1.0 - y * y);
}
static void p_acos(double x, double y, double *p) {
  (void)x;
  p[0] = 1.0;
  p[1] = -1.0 / sqrt(1.0 - y * y);
}
static void p_acosh(double x, double y, double *p) {
  p[0] = acosh(y);
  p[1] = x / sqrt(y * y - 1.0);
}

typedef void (*jvp_fn)(size_t, const double *, const double *, const double *,
                       const double *, double *, double *);
typedef struct {
  const char *name;
  jvp_fn jvp;
  void (*partials)(double, double, double *);
  double ylo, yhi;     /* ordinary y */
  double xs[3], ys[3]; /* special points: y's tangent is 0 there */
  int zero_x;          /* the special points' x tangent is 0 instead */
} zcase;

static int close_to_want(double got, double want) {
  return isfinite(got) && fabs(got - want) <= 1e-12 * fmax(1.0, fabs(want));
}

static void run_case(const zcase *c) {
  rng_t r = {name_seed(c->name)};
  enum { N = 37 };
  for (size_t n = 1; n <= N; n++) {
    for (size_t s = 0; s < n; s++) {
      double *x = gp_alloc(n * sizeof *x), *y = gp_alloc(n * sizeof *y);
      double *tx = gp_alloc(n * sizeof *tx), *ty = gp_alloc(n * sizeof *ty);
      double *dr = gp_alloc(n * sizeof *dr), *dn = gp_alloc(n * sizeof *dn);
      double *want = gp_alloc(n * sizeof *want);
      double *wantn = gp_alloc(n * sizeof *wantn);
      for (size_t b = 0; b < n; b++) {
        int sp = b >= s && (b - s) % 3 == 0;
        double p[2];
        x[b] = 0.25 + 3.0 * rng_unit(&r);
        y[b] = c->ylo + (c->yhi - c->ylo) * rng_unit(&r);
        tx[b] = -1.0 + 2.0 * rng_unit(&r);
        ty[b] = -1.0 + 2.0 * rng_unit(&r);
        if (sp) {
          int k = (int)(b % 3);
          x[b] = c->xs[k];
          y[b] = c->ys[k];
          if (c->zero_x)
            tx[b] = 0.0;
          else
            ty[b] = 0.0;
        }
        c->partials(x[b], y[b], p);
        /* the steep partial times its zero tangent: left out */
        want[b] = (tx[b] != 0.0 ? p[0] * tx[b] : 0.0) +
                  (ty[b] != 0.0 ? p[1] * ty[b] : 0.0);
        wantn[b] = tx[b] != 0.0 ? p[0] * tx[b] : 0.0;
        dr[b] = dn[b] = NAN;
      }
      c->jvp(n, x, y, tx, ty, NULL, dr);
      c->jvp(n, x, y, tx, NULL, NULL, dn);
      for (size_t b = 0; b < n; b++) {
        double one = NAN;
        if (!close_to_want(dr[b], want[b]) || !close_to_want(dn[b], wantn[b]))
          fail_msg("%s n=%zu lane %zu x=%a y=%a t=(%a, %a): jvp %a, NULL ty "
                   "%a, expected %a, %a",
                   c->name, n, b, x[b], y[b], tx[b], ty[b], dr[b], dn[b],
                   want[b], wantn[b]);
        c->jvp(1, x + b, y + b, tx + b, ty + b, NULL, &one);
        if (memcmp(&one, &dr[b], sizeof one))
          fail_msg("%s n=%zu lane %zu: alone differs from the batch", c->name,
                   n, b);
      }
      gp_reset();
    }
  }
}

static void test_double(void **state) {
  (void)state;
  static const zcase c[] = {
      {"pow",
       z_pow_jvp,
       p_pow,
       0.5,
       3.0,
       {-2.0, -0.5, -3.0},
       {2.0, 3.0, -1.0},
       0},
      {"pow0",
       z_pow_jvp,
       p_pow,
       0.5,
       3.0,
       {0.0, 0.0, 0.0},
       {0.5, 2.0, 0.25},
       1},
      {"sqrt",
       z_sqrt_jvp,
       p_sqrt,
       0.1,
       4.0,
       {1.0, 2.5, 0.5},
       {0.0, 0.0, 0.0},
       0},
      {"cbrt",
       z_cbrt_jvp,
       p_cbrt,
       0.1,
       4.0,
       {1.0, 2.5, 0.5},
       {0.0, -0.0, 0.0},
       0},
      {"asin",
       z_asin_jvp,
       p_asin,
       -0.9,
       0.9,
       {1.0, 2.5, 0.5},
       {1.0, -1.0, 1.0},
       0},
      {"acos",
       z_acos_jvp,
       p_acos,
       -0.9,
       0.9,
       {1.0, 2.5, 0.5},
       {-1.0, 1.0, 1.0},
       0},
      {"acosh",
       z_acosh_jvp,
       p_acosh,
       1.1,
       4.0,
       {1.0, 2.5, 0.5},
       {1.0, 1.0, 1.0},
       0},
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
    run_case(&c[i]);
}

/* pow0's x partial: y pow(0, y - 1) is inf for y < 1; its tangent is 0. */
static void test_pow0_partial(void **state) {
  (void)state;
  double x = 0.0, y = 0.5, tx = 0.0, ty = 1.0, d = NAN;
  z_pow_jvp(1, &x, &y, &tx, &ty, NULL, &d);
  assert_true(d == 0.0);
}

static void test_float(void **state) {
  (void)state;
  rng_t r = {0x2545f4914f6cdd1dull};
  enum { N = 37 };
  for (size_t n = 1; n <= N; n++) {
    float *x = gp_alloc(n * sizeof *x), *y = gp_alloc(n * sizeof *y);
    float *tx = gp_alloc(n * sizeof *tx), *ty = gp_alloc(n * sizeof *ty);
    float *dr = gp_alloc(n * sizeof *dr);
    for (size_t b = 0; b < n; b++) {
      x[b] = (float)(0.25 + 3.0 * rng_unit(&r));
      y[b] = b % 2 ? 0.0f : (float)(0.1 + 4.0 * rng_unit(&r));
      tx[b] = (float)(-1.0 + 2.0 * rng_unit(&r));
      ty[b] = b % 2 ? 0.0f : (float)(-1.0 + 2.0 * rng_unit(&r));
    }
    z_sqrtf_jvp(n, x, y, tx, ty, NULL, dr);
    for (size_t b = 0; b < n; b++) {
      double want = ((double)sqrtf(y[b]) + 1.0) * tx[b] +
                    (ty[b] != 0.0f ? x[b] / (2.0 * sqrtf(y[b])) * ty[b] : 0.0);
      if (!(isfinite(dr[b]) &&
            fabs(dr[b] - want) <= 1e-5 * fmax(1.0, fabs(want))))
        fail_msg("sqrtf n=%zu lane %zu y=%a: jvp %a, expected %a", n, b,
                 (double)y[b], (double)dr[b], want);
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_double),
      cmocka_unit_test(test_pow0_partial),
      cmocka_unit_test(test_float),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_zero_tangent", tests, NULL, NULL);
}
