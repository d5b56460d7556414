/* Recursion under diff (docs/calls.md, "Recursion"): a recursive call
 * whose value may carry a derivative (a float result and a float
 * argument), of a function the file marks diff, is made through that
 * function's own NAME_grad (NAME_batched in NAME_batched), the lanes that
 * reach it together, as calls of other files' batch functions are:
 *   - cephes' erf/erfc shape (r_erf calls r_erfc for |x| > 1, r_erfc calls
 *     r_erf for |x| < 1; the call that closes the cycle is on a path no
 *     example takes; a diff-recursion error before);
 *   - direct recursion of varying depth per example (rpow, halve: the
 *     argument changes at each level, through sin);
 *   - mutual recursion taken at every level (ping, pong: external);
 *   - a static function recursing, inlined into another (sfac in use_s);
 *   - unmarked static helpers recursing (u_erf/u_erfc, ufac): generated as
 *     if marked batch, diff (lower/RecursiveHelpers.h); their own symbols
 *     are internal (use_uerf, use_u).
 * For every n of ns: values against the scalar loop (bit for bit without
 * the runtime's math, within 1e-13 with it), gradients (seeds and NULL,
 * ret NULL) against closed forms written as recursions here; 1 and 2
 * threads give the same bits at n = 70,000; inputs at guard pages. */
#include "exec_util.h"

#include "../common/test_filter.h"

#include <batchdiff/parallel.h>

#include <math.h>
#include <string.h>

#define EA 1.1283791670955126
#define EB 0.37612638903183754
#define EC 0.1128379167
#define SQ 1.7724538509055159

BATCHDIFF double r_erfc(double x);
BATCHDIFF double r_erf(double x) {
  if (fabs(x) > 1.0)
    return 1.0 - r_erfc(x);
  double z = x * x;
  return x * (EA - z * (EB - z * EC));
}
BATCHDIFF double r_erfc(double x) {
  if (fabs(x) < 1.0)
    return 1.0 - r_erf(x);
  return exp(-x * x) / (fabs(x) * SQ + 0.5);
}

BATCHDIFF double rpow(double x, int n) {
  return n <= 0 ? 1.0 : x * rpow(x, n - 1);
}

BATCHDIFF double halve(double x, int k) {
  if (k <= 0)
    return x;
  return sin(halve(x * 0.5, k - 1)) + 0.1 * x;
}

BATCHDIFF double ping(double x, int k);
BATCHDIFF double pong(double x, int k) {
  return k <= 0 ? x : ping(x * x * 0.5 + 0.25, k - 1) * 1.5;
}
BATCHDIFF double ping(double x, int k) {
  return k <= 0 ? x : pong(x + 0.5, k - 1) * x;
}

static BATCHDIFF double sfac(double x, int k) {
  return k <= 0 ? x : x * sfac(x - 0.25, k - 1);
}
BATCHDIFF double use_s(double x, int k) { return sfac(x, k) * 2.0; }

/* The same shapes with no mark on the recursive helpers: static ones are
 * generated as if marked batch, diff (u_erf, u_erfc: the cycle closes in
 * a helper defined after the one it recurses into; ufac direct). */
static double u_erfc(double x);
static double u_erf(double x) {
  if (fabs(x) > 1.0)
    return 1.0 - u_erfc(x);
  double z = x * x;
  return x * (EA - z * (EB - z * EC));
}
static double u_erfc(double x) {
  if (fabs(x) < 1.0)
    return 1.0 - u_erf(x);
  return exp(-x * x) / (fabs(x) * SQ + 0.5);
}
BATCHDIFF double use_uerf(double x, int k) { return (void)k, 3.0 * u_erf(x); }
static double ufac(double x, int k) {
  return k <= 0 ? x : x * ufac(x - 0.25, k - 1);
}
BATCHDIFF double use_u(double x, int k) { return ufac(x, k) * 2.0 + x; }

/* ---- closed forms ---------------------------------------------------- */

static double d_erfc(double x);
static double d_erf(double x) {
  if (fabs(x) > 1.0)
    return -d_erfc(x);
  return EA - 3 * EB * x * x + 5 * EC * x * x * x * x;
}
static double d_erfc(double x) {
  if (fabs(x) < 1.0)
    return -d_erf(x);
  double e = exp(-x * x), d = fabs(x) * SQ + 0.5;
  return (-2 * x * e * d - e * SQ * (x < 0 ? -1 : 1)) / (d * d);
}
static double d_rpow(double x, int n) {
  return n <= 0 ? 0.0 : rpow(x, n - 1) + x * d_rpow(x, n - 1);
}
static double d_halve(double x, int k) {
  if (k <= 0)
    return 1.0;
  return cos(halve(x * 0.5, k - 1)) * 0.5 * d_halve(x * 0.5, k - 1) + 0.1;
}
static double d_ping(double x, int k);
static double d_pong(double x, int k) {
  return k <= 0 ? 1.0 : 1.5 * d_ping(x * x * 0.5 + 0.25, k - 1) * x;
}
static double d_ping(double x, int k) {
  return k <= 0 ? 1.0 : d_pong(x + 0.5, k - 1) * x + pong(x + 0.5, k - 1);
}
static double d_sfac(double x, int k) {
  return k <= 0 ? 1.0 : sfac(x - 0.25, k - 1) + x * d_sfac(x - 0.25, k - 1);
}
static double d_use_s(double x, int k) { return 2.0 * d_sfac(x, k); }
static double d_use_uerf(double x, int k) { return (void)k, 3.0 * d_erf(x); }
static double d_use_u(double x, int k) { return 2.0 * d_sfac(x, k) + 1.0; }

/* r_erf and r_erfc as functions of (x, k), k unused. */
static double s_erf(double x, int k) { return (void)k, r_erf(x); }
static double s_erfc(double x, int k) { return (void)k, r_erfc(x); }
static double ds_erf(double x, int k) { return (void)k, d_erf(x); }
static double ds_erfc(double x, int k) { return (void)k, d_erfc(x); }
static void b_erf(size_t n, const double *x, const int *k, double *r) {
  (void)k, r_erf_batched(n, x, r);
}
static void b_erfc(size_t n, const double *x, const int *k, double *r) {
  (void)k, r_erfc_batched(n, x, r);
}
static void g_erf(size_t n, const double *x, const int *k, double *r,
                  const double *dr, double *dx) {
  (void)k, r_erf_grad(n, x, r, dr, dx);
}
static void g_erfc(size_t n, const double *x, const int *k, double *r,
                   const double *dr, double *dx) {
  (void)k, r_erfc_grad(n, x, r, dr, dx);
}

/* ---- checks ---------------------------------------------------------- */

typedef double (*fn)(double, int);
typedef void (*bat)(size_t, const double *, const int *, double *);
typedef void (*grad)(size_t, const double *, const int *, double *,
                     const double *, double *);

struct fcase {
  const char *name;
  fn f, d;
  bat b;
  grad g;
  double lo, hi;
  int kmax;
  double vtol; /* 0: bit for bit */
};

static const size_t ns[] = {0, 1, WD - 1, WD, WD + 1, 2 * WF + 3, 100, 1003};
#define NNS (sizeof ns / sizeof ns[0])

static void check(const struct fcase *c) {
  rng_t rng = {name_seed(c->name)};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *dr = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8), *dx = gp_alloc(n * 8), *dx1 = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, c->lo, c->hi);
      k[e] = rng_below(&rng, c->kmax + 1);
      dr[e] = rng_range(&rng, 0.5, 2.0);
    }
    gp_seal(x), gp_seal(k), gp_seal(dr);
    c->b(n, x, k, r);
    memset(dx, 0, n * 8);
    memset(dx1, 0, n * 8);
    c->g(n, x, k, r2, dr, dx);
    c->g(n, x, k, NULL, NULL, dx1);
    for (size_t e = 0; e < n; e++) {
      double s = c->f(x[e], k[e]), d = c->d(x[e], k[e]);
      same_result(c->name, e, r[e], s, c->vtol);
      same_result(c->name, e, r2[e], s, c->vtol);
      same_result(c->name, e, dx1[e], d, 1e-12);
      same_result(c->name, e, dx[e], dr[e] * d, 1e-12);
    }
    gp_reset();
  }
}

static const struct fcase cases[] = {
    {"r_erf", s_erf, ds_erf, b_erf, g_erf, -3, 3, 0, 1e-13},
    {"r_erfc", s_erfc, ds_erfc, b_erfc, g_erfc, -3, 3, 0, 1e-13},
    {"rpow", rpow, d_rpow, rpow_batched, rpow_grad, -1.5, 1.5, 12, 0},
    {"halve", halve, d_halve, halve_batched, halve_grad, -4, 4, 9, 1e-13},
    {"pong", pong, d_pong, pong_batched, pong_grad, -1, 1, 7, 0},
    {"ping", ping, d_ping, ping_batched, ping_grad, -1, 1, 7, 0},
    {"use_s", use_s, d_use_s, use_s_batched, use_s_grad, -2, 2, 10, 0},
    {"use_uerf", use_uerf, d_use_uerf, use_uerf_batched, use_uerf_grad, -3, 3,
     0, 1e-13},
    {"use_u", use_u, d_use_u, use_u_batched, use_u_grad, -2, 2, 10, 0},
};

static void t_erf(void **state) { (void)state, check(&cases[0]); }
static void t_erfc(void **state) { (void)state, check(&cases[1]); }
static void t_rpow(void **state) { (void)state, check(&cases[2]); }
static void t_halve(void **state) { (void)state, check(&cases[3]); }
static void t_pong(void **state) { (void)state, check(&cases[4]); }
static void t_ping(void **state) { (void)state, check(&cases[5]); }
static void t_use_s(void **state) { (void)state, check(&cases[6]); }
static void t_use_uerf(void **state) { (void)state, check(&cases[7]); }
static void t_use_u(void **state) { (void)state, check(&cases[8]); }

/* 1 and 2 threads: the same bits (each recursive call for at most one
 * vector's lanes, on the thread that makes it). */
static void t_threads(void **state) {
  (void)state;
  enum { N = 70000 };
  rng_t rng = {name_seed("threads")};
  double *x = malloc(N * 8), *r1 = malloc(N * 8), *r2 = malloc(N * 8);
  double *d1 = calloc(N, 8), *d2 = calloc(N, 8);
  int *k = malloc(N * sizeof(int));
  for (size_t e = 0; e < N; e++)
    x[e] = rng_range(&rng, -4, 4), k[e] = rng_below(&rng, 10);
  bd_set_num_threads(1);
  halve_grad(N, x, k, r1, NULL, d1);
  bd_set_num_threads(2);
  halve_grad(N, x, k, r2, NULL, d2);
  bd_set_num_threads(0);
  if (memcmp(r1, r2, N * 8) || memcmp(d1, d2, N * 8)) {
    print_error("halve_grad: 1 and 2 threads differ\n");
    fail();
  }
  free(x), free(r1), free(r2), free(d1), free(d2), free(k);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_erf),   cmocka_unit_test(t_erfc),
      cmocka_unit_test(t_rpow),  cmocka_unit_test(t_halve),
      cmocka_unit_test(t_pong),  cmocka_unit_test(t_ping),
      cmocka_unit_test(t_use_s), cmocka_unit_test(t_use_uerf),
      cmocka_unit_test(t_use_u), cmocka_unit_test(t_threads)};
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_recursion_grad", tests, NULL, NULL);
}
