/* Calls of functions of another file marked batch, diff in their header
 * (lane_grad.h, defined in lane_grad_other.c) that are passed structs, as
 * GSL's special functions call each other (`stat = gsl_sf_exp_e(x, &r)`
 * with a local result struct, `return gsl_sf_exp_e(x, result);` passing
 * the function's own result pointer on): made once per example on the
 * scalar function, with the derivatives from the callee's NAME_grad
 * (docs/calls.md, "Structs to batch functions of other files"). Before,
 * every function here was an error (diff-extern-out: the value the call
 * leaves in the struct carries no derivative). For n = 0 .. 37: the
 * values, statuses and result structs of NAME_batched and NAME_grad are
 * the scalar function's bits (the calls are the scalar function's; the
 * functions here add, multiply and take fabs); gradients, of each member of
 * a result struct and of a result, agree with Richardson central
 * differences of the scalar function (points where two step sizes
 * disagree, kinks, skipped; at least half checked). */
#include "exec_util.h"

#include "../common/test_filter.h"
#include "lane_grad.h"

#include <math.h>
#include <string.h>

/* Two struct locals filled by calls, the result written from them. */
BATCHDIFF int prod_e(double x, lg_result *result) {
  lg_result a, c;
  int s = lg_exp_e(-x * x, &a);
  s += lg_cheb_e(0.5 * x, &c);
  result->val = a.val * c.val;
  result->err = a.err * fabs(c.val) + fabs(a.val) * c.err;
  return s;
}

/* The result pointer passed on, under a branch. */
BATCHDIFF int pass_e(double x, lg_result *result) {
  if (x < 0.0)
    return lg_exp_e(x, result);
  return lg_cheb_e(x - 1.0, result);
}

/* A floating result and a struct that the callee reads and writes (the
 * members' values before the call have derivatives), a struct with an int
 * member, a pointer to const. */
BATCHDIFF double mixed(double x, double y) {
  lg_result r = {x, 0.25 * y};
  double t = lg_scale(y, &r);
  struct lg_e10 e;
  lg_mul_e10_e(x, y, &e);
  return t * r.val + r.err + e.val * e.e10 + lg_norm(x, &r);
}

/* A call per iteration, n per example: the partials on the gradient's
 * tape; the result of the call unused. */
BATCHDIFF double looped(double x, int n) {
  lg_result r = {x, 0.5};
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    lg_scale(0.5 + 0.125 * i, &r);
    s += r.val * r.val;
  }
  return s + r.err;
}

static double prod_v(double x, int m) {
  lg_result r;
  prod_e(x, &r);
  return m ? r.err : r.val;
}
static double pass_v(double x, int m) {
  lg_result r;
  pass_e(x, &r);
  return m ? r.err : r.val;
}

/* Richardson-extrapolated central differences of f in x (0 in m: the
 * member); *ok false where two step sizes disagree (a kink, a jump). */
static double rich(double (*f)(double, double, int), double x, double y,
                   int wrt, int m, int *ok) {
  double d[3];
  for (int k = 0; k < 3; k++) {
    double h = 1e-3 / (1 << k);
    d[k] = wrt ? (f(x, y + h, m) - f(x, y - h, m)) / (2 * h)
               : (f(x + h, y, m) - f(x - h, y, m)) / (2 * h);
  }
  double r1 = (4 * d[1] - d[0]) / 3, r2 = (4 * d[2] - d[1]) / 3;
  *ok = isfinite(r2) && fabs(r1 - r2) <= 1e-8 * (1 + fabs(r2));
  return r2;
}

static double prod_f(double x, double y, int m) {
  (void)y;
  return prod_v(x, m);
}
static double pass_f(double x, double y, int m) {
  (void)y;
  return pass_v(x, m);
}
static double mixed_f(double x, double y, int m) {
  (void)m;
  return mixed(x, y);
}
static int loop_n;
static double looped_f(double x, double y, int m) {
  (void)y;
  (void)m;
  return looped(x, loop_n);
}

static void grad_near(const char *what, size_t n, size_t b, double x, double y,
                      double g, double fd, long *checked) {
  ++*checked;
  if (!(fabs(g - fd) <= 1e-6 * (1 + fabs(fd))))
    fail_msg("%s n=%zu lane %zu x=%a y=%a: gradient %.17g, differences %.17g",
             what, n, b, x, y, g, fd);
}

static void same_bits(const char *what, size_t n, size_t b, double got,
                      double want) {
  if (memcmp(&got, &want, sizeof got) != 0 && !(isnan(got) && isnan(want)))
    fail_msg("%s n=%zu lane %zu: %a, scalar %a", what, n, b, got, want);
}

/* A status function: values and statuses of NAME_batched and NAME_grad,
 * the gradient of val and of err. */
typedef int (*stat_fn)(double, lg_result *);
typedef void (*stat_batched)(size_t, const double *, lg_result *, ptrdiff_t,
                             int *);
typedef void (*stat_grad)(size_t, const double *, lg_result *, ptrdiff_t, int *,
                          double *, lg_result *, ptrdiff_t);

static void check_status(const char *name, stat_fn f, stat_batched fb,
                         stat_grad fg, double (*fv)(double, double, int),
                         double lo, double hi) {
  rng_t r = {name_seed(name)};
  long checked = 0, points = 0;
  for (size_t n = 0; n <= 37; n++) {
    double *x = gp_alloc((n + 1) * sizeof *x), *d = gp_alloc((n + 1) * 8);
    lg_result *res = gp_alloc((n + 1) * sizeof *res);
    lg_result *res2 = gp_alloc((n + 1) * sizeof *res2);
    lg_result *dres = gp_alloc((n + 1) * sizeof *dres);
    int *st = gp_alloc((n + 1) * sizeof *st), *st2 = gp_alloc((n + 1) * 4);
    for (size_t b = 0; b < n; b++)
      x[b] = lo + (hi - lo) * rng_unit(&r);
    fb(n, x, res, 1, st);
    for (int m = 0; m < 2; m++) {
      for (size_t b = 0; b < n; b++) {
        d[b] = 0.0;
        dres[b].val = m == 0;
        dres[b].err = m == 1;
      }
      fg(n, x, res2, 1, st2, d, dres, 1);
      for (size_t b = 0; b < n; b++) {
        lg_result want;
        int ws = f(x[b], &want);
        if (st[b] != ws || st2[b] != ws)
          fail_msg("%s n=%zu lane %zu x=%a: status %d %d, scalar %d", name, n,
                   b, x[b], st[b], st2[b], ws);
        same_bits(name, n, b, res[b].val, want.val);
        same_bits(name, n, b, res[b].err, want.err);
        same_bits(name, n, b, res2[b].val, want.val);
        same_bits(name, n, b, res2[b].err, want.err);
        if (ws != 0)
          continue;
        int ok;
        double fd = rich(fv, x[b], 0.0, 0, m, &ok);
        points++;
        if (ok)
          grad_near(name, n, b, x[b], 0.0, d[b], fd, &checked);
      }
    }
    gp_reset();
  }
  if (checked * 2 < points)
    fail_msg("%s: %ld of %ld gradients checked", name, checked, points);
}

static void test_prod(void **state) {
  (void)state;
  check_status("prod_e", prod_e, prod_e_batched, prod_e_grad, prod_f, -1.9,
               1.9);
}

static void test_pass(void **state) {
  (void)state;
  check_status("pass_e", pass_e, pass_e_batched, pass_e_grad, pass_f, -3.0,
               1.9);
}

static void test_mixed(void **state) {
  (void)state;
  rng_t r = {name_seed("mixed")};
  long checked = 0, points = 0;
  for (size_t n = 0; n <= 37; n++) {
    double *x = gp_alloc((n + 1) * 8), *y = gp_alloc((n + 1) * 8);
    double *ret = gp_alloc((n + 1) * 8), *ret2 = gp_alloc((n + 1) * 8);
    double *dx = gp_alloc((n + 1) * 8), *dy = gp_alloc((n + 1) * 8);
    for (size_t b = 0; b < n; b++) {
      x[b] = 0.5 + 2.5 * rng_unit(&r);
      y[b] = -1.0 + 2.0 * rng_unit(&r);
      dx[b] = dy[b] = 0.0;
    }
    mixed_batched(n, x, y, ret);
    mixed_grad(n, x, y, ret2, NULL, dx, dy);
    for (size_t b = 0; b < n; b++) {
      double want = mixed(x[b], y[b]);
      same_bits("mixed", n, b, ret[b], want);
      same_bits("mixed grad", n, b, ret2[b], want);
      for (int w = 0; w < 2; w++) {
        int ok;
        double fd = rich(mixed_f, x[b], y[b], w, 0, &ok);
        points++;
        if (ok)
          grad_near(w ? "mixed d/dy" : "mixed d/dx", n, b, x[b], y[b],
                    w ? dy[b] : dx[b], fd, &checked);
      }
    }
    gp_reset();
  }
  if (checked * 2 < points)
    fail_msg("mixed: %ld of %ld gradients checked", checked, points);
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
      double fd = rich(looped_f, x[b], 0.0, 0, 0, &ok);
      if (!ok) // (a polynomial in x: always smooth)
        fail_msg("looped n=%zu lane %zu: differences disagree", n, b);
      grad_near("looped", n, b, x[b], 0.0, dx[b], fd, &checked);
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_prod),
      cmocka_unit_test(test_pass),
      cmocka_unit_test(test_mixed),
      cmocka_unit_test(test_looped),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_lane_grad", tests, NULL, NULL);
}
