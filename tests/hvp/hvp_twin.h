/* What the tests of NAME_hvp share: the hyper-dual twin numbers, a test
 * case's description and the checks' helpers (test_hvp.c,
 * test_hvp_arrays.c). */
#ifndef BD_TEST_HVP_TWIN_H
#define BD_TEST_HVP_TWIN_H

#include "../exec/exec_util.h"

/* ---- hyper-dual numbers (the twin) -------------------------------------- */

typedef struct {
  long double a, b, c, d; /* a + b e1 + c e2 + d e1 e2 */
} hd;

static hd hd_k(long double v) { return (hd){v, 0, 0, 0}; }
static hd hd_add(hd x, hd y) {
  return (hd){x.a + y.a, x.b + y.b, x.c + y.c, x.d + y.d};
}
static hd hd_sub(hd x, hd y) {
  return (hd){x.a - y.a, x.b - y.b, x.c - y.c, x.d - y.d};
}
static hd hd_mul(hd x, hd y) {
  return (hd){x.a * y.a, x.a * y.b + x.b * y.a, x.a * y.c + x.c * y.a,
              x.a * y.d + x.b * y.c + x.c * y.b + x.d * y.a};
}
/* f(x) from f, f' and f'' at x.a. */
static hd hd_fn(hd x, long double f, long double f1, long double f2) {
  return (hd){f, f1 * x.b, f1 * x.c, f1 * x.d + f2 * x.b * x.c};
}
static hd hd_div(hd x, hd y) {
  long double i = 1.0L / y.a;
  return hd_mul(x, hd_fn(y, i, -i * i, 2 * i * i * i));
}
static hd hd_sin(hd x) { return hd_fn(x, sinl(x.a), cosl(x.a), -sinl(x.a)); }
static hd hd_cos(hd x) { return hd_fn(x, cosl(x.a), -sinl(x.a), -cosl(x.a)); }
static hd hd_exp(hd x) {
  long double e = expl(x.a);
  return hd_fn(x, e, e, e);
}
static hd hd_log(hd x) {
  return hd_fn(x, logl(x.a), 1 / x.a, -1 / (x.a * x.a));
}
static hd hd_sqrt(hd x) {
  long double s = sqrtl(x.a);
  return hd_fn(x, s, 0.5L / s, -0.25L / (s * s * s));
}
static hd hd_tanh(hd x) {
  long double t = tanhl(x.a), d = 1 - t * t;
  return hd_fn(x, t, d, -2 * t * d);
}
static hd hd_atan2(hd y, hd x) {
  /* atan2(y, x) = atan(y / x) + const on each side of the cut: the same
   * derivatives (x > 0 in the tests). */
  hd q = hd_div(y, x);
  long double u = 1 + q.a * q.a;
  hd r = hd_fn(q, atan2l(y.a, x.a), 1 / u, -2 * q.a / (u * u));
  return r;
}

/* ---- cases and checks ---------------------------------------------------- */

#define HMAXP 3

typedef struct {
  const char *name;
  int np;
  int unif[HMAXP];
  double (*scalar)(const double *a);
  hd (*twin)(const hd *a);
  void (*hvp)(size_t n, double *const *A, double *const *T, double *ret,
              const double *dret, double *const *D, double *const *H);
  void (*grad)(size_t n, double *const *A, double *ret, const double *dret,
               double *const *D);
  void (*sample)(rng_t *r, double *a);
} hcase;

static double *buf(size_t n) {
  double *p = gp_alloc((n ? n : 1) * sizeof(double));
  memset(p, 0, (n ? n : 1) * sizeof(double));
  return p;
}
static int same(double a, double b) {
  return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}
/* exec_util.h's close_to against the long twin's long double */
static int close_to_ld(double got, long double want, double rel) {
  return fabsl((long double)got - want) <= rel * (1 + fabsl(want));
}

#define HFAIL(...)                                                             \
  do {                                                                         \
    print_error("%s: ", c->name);                                              \
    print_error(__VA_ARGS__);                                                  \
    print_error("\n");                                                         \
    gp_reset();                                                                \
    fail();                                                                    \
  } while (0)

/* A helper the annotated functions call. */
static double hsq(double v) { return v * v; }

#endif
