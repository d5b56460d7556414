/* Calls of functions of another file marked batch, diff in their header
 * (lane_grad_ptr.h, defined in lane_grad_ptr_other.c) that are passed
 * pointers to scalars, as GSL's functions call their helpers
 * (`gsl_sf_bessel_J_CF1(nu, x, &ratio, &sgn)`): made once per example on
 * the scalar function, with the derivatives from the callee's NAME_grad
 * (docs/calls.md, "Structs to batch functions of other files"). Before,
 * every function here was an error (diff-extern-out: the value the call
 * leaves in the scalar carries no derivative). For n = 0 .. 37: the values
 * of NAME_batched and NAME_grad are the scalar function's bits (the calls
 * are the scalar function's; the functions here add and multiply);
 * gradients agree with Richardson central differences of the scalar
 * function (points where two step sizes disagree, kinks, skipped; at least
 * half checked), the float one with its formula. */
#include "exec_util.h"

#include "../common/test_filter.h"
#include "lane_grad_ptr.h"

#include <math.h>
#include <string.h>

/* Two pointers to scalar locals that the callee writes, its status
 * tested. */
BATCHDIFF double cf_ratio(double nu, double x) {
  double ratio = 0.0, sgn = 0.0;
  int s = lgp_cf1(nu, x, &ratio, &sgn);
  return s ? -1.0 : ratio * sgn + ratio * ratio;
}

/* A scalar the callee reads and writes (its value before the call has a
 * derivative), and a floating result. */
BATCHDIFF double scaled(double k, double y) {
  double r = y * y;
  double t = lgp_scale(k, &r);
  return t + r * y;
}

/* Passed on by an inlined helper's pointer parameter, twice. */
static void scale_twice(double k, double *p) {
  lgp_scale(k, p);
  lgp_scale(0.5 * k, p);
}

BATCHDIFF double passed(double k, double y) {
  double v = y;
  scale_twice(k, &v);
  return v * k;
}

/* An int and a double written; a float written. */
BATCHDIFF double split_sum(double x, double y) {
  int e;
  double m;
  float h;
  lgp_split(x, &e, &m);
  lgp_halve((float)y, &h);
  return m * e + h;
}

/* A pointer to a scalar and a struct in one call. */
BATCHDIFF double both(double x, double y) {
  double a = y;
  lgp_result r;
  lgp_both_e(x, &a, &r);
  return r.val + a;
}

/* A pointer to const: the scalar only read. */
BATCHDIFF double normed(double x, double y) {
  double a = y * y;
  return lgp_norm(x, &a) + a;
}

/* A call per iteration, n per example: the partials on the gradient's
 * tape. */
BATCHDIFF double looped(double x, int n) {
  double v = x, s = 0.0;
  for (int i = 0; i < n; i++)
    s += lgp_scale(0.25 + 0.125 * i, &v);
  return s + v;
}

typedef double (*fn2)(double, double);
typedef void (*fn2_batched)(size_t, const double *, const double *, double *);
typedef void (*fn2_grad)(size_t, const double *, const double *, double *,
                         const double *, double *, double *);

/* Richardson-extrapolated central differences of f in x (wrt 0) or y; *ok
 * false where two step sizes disagree (a kink, a jump). */
static double rich(fn2 f, double x, double y, int wrt, int *ok) {
  double d[3];
  for (int k = 0; k < 3; k++) {
    double h = 1e-3 / (1 << k);
    d[k] = wrt ? (f(x, y + h) - f(x, y - h)) / (2 * h)
               : (f(x + h, y) - f(x - h, y)) / (2 * h);
  }
  double r1 = (4 * d[1] - d[0]) / 3, r2 = (4 * d[2] - d[1]) / 3;
  *ok = isfinite(r2) && fabs(r1 - r2) <= 1e-8 * (1 + fabs(r2));
  return r2;
}

static void grad_near(const char *what, size_t n, size_t b, double x, double y,
                      double g, double fd, long *checked) {
  ++*checked;
  if (!(fabs(g - fd) <= 1e-6 * (1 + fabs(fd))))
    fail_msg("%s n=%zu lane %zu x=%a y=%a: gradient %.17g, expected %.17g",
             what, n, b, x, y, g, fd);
}

static void same_bits(const char *what, size_t n, size_t b, double got,
                      double want) {
  if (memcmp(&got, &want, sizeof got) != 0 && !(isnan(got) && isnan(want)))
    fail_msg("%s n=%zu lane %zu: %a, scalar %a", what, n, b, got, want);
}

/* Values of NAME_batched and NAME_grad bit for bit, the gradient in x and
 * (unless \p dy_formula, which gives it) in y against differences. */
static void check2(const char *name, fn2 f, fn2_batched fb, fn2_grad fg,
                   double xlo, double xhi, double ylo, double yhi,
                   double (*dy_formula)(double)) {
  rng_t r = {name_seed(name)};
  long checked = 0, points = 0;
  for (size_t n = 0; n <= 37; n++) {
    double *x = gp_alloc((n + 1) * 8), *y = gp_alloc((n + 1) * 8);
    double *ret = gp_alloc((n + 1) * 8), *ret2 = gp_alloc((n + 1) * 8);
    double *dx = gp_alloc((n + 1) * 8), *dy = gp_alloc((n + 1) * 8);
    for (size_t b = 0; b < n; b++) {
      x[b] = xlo + (xhi - xlo) * rng_unit(&r);
      y[b] = ylo + (yhi - ylo) * rng_unit(&r);
      dx[b] = dy[b] = 0.0;
    }
    fb(n, x, y, ret);
    fg(n, x, y, ret2, NULL, dx, dy);
    for (size_t b = 0; b < n; b++) {
      double want = f(x[b], y[b]);
      same_bits(name, n, b, ret[b], want);
      same_bits(name, n, b, ret2[b], want);
      for (int w = 0; w < 2; w++) {
        int ok = 1;
        double fd =
            w && dy_formula ? dy_formula(y[b]) : rich(f, x[b], y[b], w, &ok);
        points++;
        if (ok)
          grad_near(name, n, b, x[b], y[b], w ? dy[b] : dx[b], fd, &checked);
      }
    }
    gp_reset();
  }
  if (checked * 2 < points)
    fail_msg("%s: %ld of %ld gradients checked", name, checked, points);
}

static void test_cf_ratio(void **state) {
  (void)state;
  check2("cf_ratio", cf_ratio, cf_ratio_batched, cf_ratio_grad, 0.5, 3.0, 0.1,
         3.0, NULL);
}

static void test_scaled(void **state) {
  (void)state;
  check2("scaled", scaled, scaled_batched, scaled_grad, -2.0, 2.0, -1.5, 1.5,
         NULL);
}

static void test_passed(void **state) {
  (void)state;
  check2("passed", passed, passed_batched, passed_grad, -2.0, 2.0, -1.5, 1.5,
         NULL);
}

/* d/dy of (float)y * (float)y / 2 in float: (float)y, to float's
 * rounding. */
static double halve_dy(double y) { return (float)y; }

static void test_split_sum(void **state) {
  (void)state;
  check2("split_sum", split_sum, split_sum_batched, split_sum_grad, -3.0, 3.0,
         -2.0, 2.0, halve_dy);
}

static void test_both(void **state) {
  (void)state;
  check2("both", both, both_batched, both_grad, -1.5, 1.5, -1.5, 1.5, NULL);
}

static void test_normed(void **state) {
  (void)state;
  check2("normed", normed, normed_batched, normed_grad, -2.0, 2.0, -1.5, 1.5,
         NULL);
}

static int loop_n;
static double looped_f(double x, double y) {
  (void)y;
  return looped(x, loop_n);
}

static void test_looped(void **state) {
  (void)state;
  rng_t r = {name_seed("looped")};
  for (size_t n = 0; n <= 37; n++) {
    double *x = gp_alloc((n + 1) * 8), *ret = gp_alloc((n + 1) * 8);
    double *ret2 = gp_alloc((n + 1) * 8), *dx = gp_alloc((n + 1) * 8);
    int *k = gp_alloc((n + 1) * sizeof *k);
    for (size_t b = 0; b < n; b++) {
      x[b] = -2.0 + 4.0 * rng_unit(&r);
      k[b] = (int)rng_below(&r, 7);
      dx[b] = 0.0;
    }
    looped_batched(n, x, k, ret);
    looped_grad(n, x, k, ret2, NULL, dx);
    long checked = 0;
    for (size_t b = 0; b < n; b++) {
      double want = looped(x[b], k[b]);
      same_bits("looped", n, b, ret[b], want);
      same_bits("looped grad", n, b, ret2[b], want);
      int ok;
      loop_n = k[b];
      double fd = rich(looped_f, x[b], 0.0, 0, &ok);
      if (!ok) // (smooth: a composition of sin and products)
        fail_msg("looped n=%zu lane %zu: differences disagree", n, b);
      grad_near("looped", n, b, x[b], 0.0, dx[b], fd, &checked);
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cf_ratio), cmocka_unit_test(test_scaled),
      cmocka_unit_test(test_passed),   cmocka_unit_test(test_split_sum),
      cmocka_unit_test(test_both),     cmocka_unit_test(test_normed),
      cmocka_unit_test(test_looped),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_lane_grad_ptr", tests, NULL, NULL);
}
