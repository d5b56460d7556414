/* Globals the function writes or reads, and calls that may write them
 * (docs/globals.md, "File-scope data"; docs/calls.md): after each
 * example's call the example's value is what the call left in the global,
 * and before it, where the example has written it on every path, the
 * global holds the example's value:
 *   - out_sign (batch): `osign = 0; y = olg(x); return osign * y;` with
 *     olg, a function of another file, setting osign (the batched function
 *     gave 0 for every example before);
 *   - lbeta_like: cephes' lbeta's shape (beta.c): the sign read after each
 *     call of bsq, a batch function of another file that sets it on every
 *     path (its file defines batchdiff.sets:bsq:osign), before the
 *     function writes it (`osign = s;`): global-carried before;
 *   - beta_like: the same, reading the sign only (cephes' beta): the sign
 *     of another example before;
 *   - poly_read: a batch function of another file that uses no global
 *     (bpoly: its calls stay calls of the lanes together), and ofactor,
 *     read after it.
 * Values against the scalar loop, bit for bit; gradients against closed
 * forms; the global after the call as the scalar loop leaves it; 1 and 2
 * threads the same bits. */
#include "exec_util.h"
#include "global_sync.h"

#include "../common/test_filter.h"

#include <batchdiff/parallel.h>

#include <string.h>

__attribute__((batch)) double out_sign(double x) {
  osign = 0;
  double y = olg(x);
  return osign * y;
}

BATCHDIFF double lbeta_like(double a, double b) {
  double y = bsq(a);
  int s = osign;
  y += bsq(b);
  s *= osign;
  osign = s;
  return y;
}

BATCHDIFF double beta_like(double a, double b) {
  double y = bsq(a);
  int s = osign;
  y *= bsq(b);
  s *= osign;
  return s * y;
}

BATCHDIFF double poly_read(double a, double b) {
  double y = bpoly(a) * ofactor;
  if (b > 0 && olg(b) > 100) /* (never: an outside call, so that ofactor */
    y += 1.0;                /* is read per example) */
  return y + bpoly(b) * ofactor;
}

static const size_t ns[] = {0, 1, WD - 1, WD, WD + 1, 2 * WF + 3, 100, 1003};
#define NNS (sizeof ns / sizeof ns[0])

static double d_bsq(double x) { return 2 * fabs(x); }

static void t_out_sign(void **state) {
  (void)state;
  rng_t rng = {name_seed("out_sign")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      x[e] = rng_range(&rng, -3, 3);
    gp_seal(x);
    int want = 77;
    if (n)
      (void)out_sign(x[n - 1]), want = osign;
    osign = 77;
    out_sign_batched(n, x, r);
    same_result("out_sign: osign", n, osign, want, 0);
    for (size_t e = 0; e < n; e++)
      same_result("out_sign", e, r[e], out_sign(x[e]), 0);
    gp_reset();
  }
}

typedef double (*fn2)(double, double);
typedef void (*bat2)(size_t, const double *, const double *, double *);
typedef void (*grad2)(size_t, const double *, const double *, double *,
                      const double *, double *, double *);

/* Values, gradients (d_a, d_b: closed forms) and osign after the calls. */
static void check2(const char *name, fn2 f, bat2 b, grad2 g, fn2 da, fn2 db) {
  rng_t rng = {name_seed(name)};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8), *dr = gp_alloc(n * 8);
    double *dx = gp_alloc(n * 8), *dy = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -3, 3), y[e] = rng_range(&rng, -3, 3);
      dr[e] = rng_range(&rng, 0.5, 2.0);
    }
    gp_seal(x), gp_seal(y), gp_seal(dr);
    osign = 5; /* what the scalar loop leaves in it */
    for (size_t e = 0; e < n; e++)
      (void)f(x[e], y[e]);
    int want = osign;
    osign = 5;
    b(n, x, y, r);
    same_result(name, n, osign, want, 0);
    memset(dx, 0, n * 8), memset(dy, 0, n * 8);
    osign = 5;
    g(n, x, y, r2, dr, dx, dy);
    same_result(name, n, osign, want, 0);
    for (size_t e = 0; e < n; e++) {
      double s = f(x[e], y[e]);
      same_result(name, e, r[e], s, 0);
      same_result(name, e, r2[e], s, 0);
      same_result(name, e, dx[e], dr[e] * da(x[e], y[e]), 1e-15);
      same_result(name, e, dy[e], dr[e] * db(x[e], y[e]), 1e-15);
    }
    gp_reset();
  }
}

static double sgn(double x) { return x < 0 ? -1.0 : 1.0; }
static double da_lbeta(double a, double b) { return (void)b, d_bsq(a); }
static double db_lbeta(double a, double b) { return (void)a, d_bsq(b); }
static double da_beta(double a, double b) {
  return sgn(a) * sgn(b) * d_bsq(a) * b * fabs(b);
}
static double db_beta(double a, double b) {
  return sgn(a) * sgn(b) * a * fabs(a) * d_bsq(b);
}
static double da_poly(double a, double b) {
  return (void)b, (1.0 + 2 * a) * ofactor;
}
static double db_poly(double a, double b) {
  return (void)a, (1.0 + 2 * b) * ofactor;
}

static void t_lbeta_like(void **state) {
  (void)state;
  check2("lbeta_like", lbeta_like, lbeta_like_batched, lbeta_like_grad,
         da_lbeta, db_lbeta);
}
static void t_beta_like(void **state) {
  (void)state;
  check2("beta_like", beta_like, beta_like_batched, beta_like_grad, da_beta,
         db_beta);
}
static void t_poly_read(void **state) {
  (void)state;
  check2("poly_read", poly_read, poly_read_batched, poly_read_grad, da_poly,
         db_poly);
}

/* 1 and 2 threads: the same bits (bsq's file cannot say that it leaves
 * globals alone: the calls stay on the calling thread, one lane at a
 * time). */
static void t_threads(void **state) {
  (void)state;
  enum { N = 70000 };
  rng_t rng = {name_seed("threads")};
  double *a = malloc(N * 8), *b = malloc(N * 8);
  double *r1 = malloc(N * 8), *r2 = malloc(N * 8);
  for (size_t e = 0; e < N; e++)
    a[e] = rng_range(&rng, -3, 3), b[e] = rng_range(&rng, -3, 3);
  bd_set_num_threads(1);
  beta_like_batched(N, a, b, r1);
  bd_set_num_threads(2);
  beta_like_batched(N, a, b, r2);
  bd_set_num_threads(0);
  for (size_t e = 0; e < N; e++)
    same_result("beta_like", e, r2[e], beta_like(a[e], b[e]), 0);
  if (memcmp(r1, r2, N * 8)) {
    print_error("beta_like_batched: 1 and 2 threads differ\n");
    fail();
  }
  free(a), free(b), free(r1), free(r2);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_out_sign), cmocka_unit_test(t_lbeta_like),
      cmocka_unit_test(t_beta_like), cmocka_unit_test(t_poly_read),
      cmocka_unit_test(t_threads)};
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_global_sync", tests, NULL, NULL);
}
