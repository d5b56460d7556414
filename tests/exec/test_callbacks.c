/* Helpers that take a function pointer (docs/calls.md): each call
 * of the helper is inlined with the function it passes, as numeric code
 * passes integrands, residuals and derivatives:
 *   - cb_area: a Simpson integrator of an integrand (a helper of this file,
 *     and sin from the C library);
 *   - cb_root: a safeguarded Newton iteration whose callback returns the
 *     value and the derivative through out-pointers (Numerical Recipes'
 *     rtsafe shape);
 *   - cb_osc: a Runge-Kutta step with a derivative callback that reads and
 *     writes arrays, ten steps;
 *   - cb_twice: `(*f)(x)`, a typedef, a callback passed down two levels,
 *     one helper called with two functions, local function pointers
 *     initialized with a function and never assigned.
 * NAME_batched against the scalar function (bit for bit where only
 * arithmetic is involved, within the math functions' bounds otherwise),
 * NAME_grad against Richardson-extrapolated central differences with a
 * minimum of points checked. */
#include "exec_fd.h"
#include "exec_util.h"

#include "../common/test_filter.h"

typedef double (*fn)(double);

static double simpson(double (*f)(double), double a, double b, int n) {
  double h = (b - a) / n, s = f(a) + f(b);
  for (int i = 1; i < n; i++)
    s += (i % 2 ? 4.0 : 2.0) * f(a + i * h);
  return s * h / 3.0;
}
static double bump(double t) { return exp(-t * t); }
BATCHDIFF double cb_area(double x) {
  return simpson(bump, 0.0, x, 16) + 0.5 * simpson(sin, 0.0, x, 8);
}

static void cubic(double x, double p, double *f, double *df) {
  *f = x * x * x - p;
  *df = 3.0 * x * x;
}
static double rtsafe(void (*funcd)(double, double, double *, double *),
                     double p, double lo, double hi) {
  double x = 0.5 * (lo + hi), f, df;
  for (int j = 0; j < 60; j++) {
    funcd(x, p, &f, &df);
    double dx = f / df;
    double nx = x - dx;
    if (nx < lo || nx > hi) /* out of the bracket: bisect */
      nx = 0.5 * (lo + hi);
    if (f < 0.0)
      lo = x;
    else
      hi = x;
    if (fabs(nx - x) < 1e-15 * fabs(x))
      return nx;
    x = nx;
  }
  return x;
}
BATCHDIFF double cb_root(double p) { return rtsafe(cubic, p, 0.0, 4.0); }

static void spring(double t, const double y[2], double dy[2], double k) {
  dy[0] = y[1];
  dy[1] = -k * y[0] - 0.1 * y[1] + 0.01 * t;
}
static void rk4(void (*deriv)(double, const double *, double *, double),
                double y[2], double t, double h, double k) {
  double k1[2], k2[2], k3[2], k4[2], yt[2];
  deriv(t, y, k1, k);
  for (int i = 0; i < 2; i++)
    yt[i] = y[i] + 0.5 * h * k1[i];
  deriv(t + 0.5 * h, yt, k2, k);
  for (int i = 0; i < 2; i++)
    yt[i] = y[i] + 0.5 * h * k2[i];
  (*deriv)(t + 0.5 * h, yt, k3, k);
  for (int i = 0; i < 2; i++)
    yt[i] = y[i] + h * k3[i];
  deriv(t + h, yt, k4, k);
  for (int i = 0; i < 2; i++)
    y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
}
BATCHDIFF double cb_osc(double y0, double v0, double k) {
  double y[2] = {y0, v0};
  for (int s = 0; s < 10; s++)
    rk4(spring, y, 0.1 * s, 0.1, k);
  return y[0] + 0.25 * y[1];
}

static double sq(double x) { return x * x; }
static double affine(double x) { return 0.5 * x - 1.0; }
static double twice(fn f, double x) { return (*f)((*f)(x)); }
static double apply2(fn f, fn g, double x) {
  if (x > 1.0)
    return twice(f, x) + g(x);
  return twice(g, x) * f(x);
}
BATCHDIFF double cb_twice(double x) {
  fn g = affine; /* a local bound to one function */
  double (*h)(double) = &sq;
  return apply2(sq, affine, x) + apply2(g, h, -x) + g(x) * (*h)(x);
}

/* ---- tests ------------------------------------------------------------- */

static const size_t ns[] = {0,  1,      WF - 1,     WF,         WF + 1, WD - 1,
                            WD, WD + 1, 2 * WF + 3, 2 * WD + 3, 1000,   4099};
#define NNS (sizeof ns / sizeof ns[0])

typedef double (*f1)(double);
static double at1(double x, const void *f) { return ((f1)f)(x); }

static void
run1(const char *what, f1 f, void (*fb)(size_t, const double *, double *),
     void (*fg)(size_t, const double *, double *, const double *, double *),
     double lo, double hi, double tol, size_t min_fd) {
  rng_t rng = {0x9E3779B97F4A7C15ULL ^ (uint64_t)min_fd};
  fd_count fc = {0, 64};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *d = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      x[e] = rng_range(&rng, lo, hi), d[e] = 0.0;
    if (n > 2)
      x[0] = lo, x[1] = hi;
    gp_seal(x);
    fb(n, x, r);
    fg(n, x, r2, NULL, d);
    for (size_t e = 0; e < n; e++) {
      double want = f(x[e]);
      same_result(what, e, r[e], want, tol);
      same_result(what, e, r2[e], r[e], 0.0);
      if (e < 1500)
        fd_check(&fc, what, at1, (const void *)f, x[e], d[e]);
    }
    gp_reset();
  }
  fd_expect(&fc, what, min_fd);
}

static void t_area(void **state) {
  (void)state;
  /* 1e-13 of |want| + 1: cb_area's two integrals cancel near x = -2.45 */
  run1("cb_area", cb_area, cb_area_batched, cb_area_grad, -3.0, 3.0, 1e-13,
       2000);
}

static void t_root(void **state) {
  (void)state;
  run1("cb_root", cb_root, cb_root_batched, cb_root_grad, 0.01, 60.0, 0.0,
       2000);
}

static void t_twice(void **state) {
  (void)state;
  run1("cb_twice", cb_twice, cb_twice_batched, cb_twice_grad, -4.0, 4.0, 0.0,
       2000);
}

/* cb_osc(y0, v0, k) in each argument in turn. */
static double osc_at(double x, const void *p) {
  const double *c = p;
  double a[3] = {c[0], c[1], c[2]};
  a[(int)c[3]] = x;
  return cb_osc(a[0], a[1], a[2]);
}

static void t_osc(void **state) {
  (void)state;
  rng_t rng = {0x243F6A8885A308D3ULL};
  fd_count fc = {0, 64};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *a[3], *d[3];
    for (int j = 0; j < 3; j++)
      a[j] = gp_alloc(n * 8), d[j] = gp_alloc(n * 8);
    double *r = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      a[0][e] = rng_range(&rng, -2.0, 2.0);
      a[1][e] = rng_range(&rng, -2.0, 2.0);
      a[2][e] = rng_range(&rng, 0.1, 20.0);
      d[0][e] = d[1][e] = d[2][e] = 0.0;
    }
    for (int j = 0; j < 3; j++)
      gp_seal(a[j]);
    cb_osc_batched(n, a[0], a[1], a[2], r);
    for (size_t e = 0; e < n; e++)
      same_result("cb_osc", e, r[e], cb_osc(a[0][e], a[1][e], a[2][e]), 0.0);
    cb_osc_grad(n, a[0], a[1], a[2], NULL, NULL, d[0], d[1], d[2]);
    for (size_t e = 0; e < n && e < 1500; e++)
      for (int j = 0; j < 3; j++) {
        double c[4] = {a[0][e], a[1][e], a[2][e], (double)j};
        fd_check(&fc, "cb_osc", osc_at, c, a[j][e], d[j][e]);
      }
    gp_reset();
  }
  fd_expect(&fc, "cb_osc", 6000);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_area),
      cmocka_unit_test(t_root),
      cmocka_unit_test(t_osc),
      cmocka_unit_test(t_twice),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_callbacks", tests, NULL, NULL);
}
