/* pow in generated code (the inline double pow of FMA builds, vmath_pow.h;
 * SLEEF's in SSE2 builds), against the scalar functions:
 *   - pw: pow(x, y) alone, within the documented bound of powl (0.7 ULP
 *     with FMA, 1.04 without: docs/runtime.md) over wide ranges, negative x
 *     with integer y, special values (NaN-ness, infinities and the sign of
 *     zero as glibc's); its gradient (d/dx = y pow(x, y - 1), d/dy =
 *     pow(x, y) log(x): Math.def's rule, whose rare lanes call pow again)
 *     against central differences; pwf: powf likewise (0.501 ULP with FMA:
 *     in double, rounded once);
 *   - put: an American put on a binomial tree over a local array, S u^j
 *     d^(n-j) by pow at every node (the finance kernel of
 *     docs/performance-kernels.md, "The double pow"): NAME_batched within
 *     1e-13 relative of the scalar function, 1 and 2 threads; its gradient
 *     (delta, vega) against central differences;
 *   - ces: a CES aggregate (pow(a x^r + (1 - a) y^r, 1/r)) and an odd power
 *     of a negative base, batched and gradients likewise. */
#include "exec_fd.h"

#include "../common/close.h"
#include "../common/test_filter.h"

#include <batchdiff/batchdiff_rt.h>

#if defined(__FMA__)
#define POW_BOUND 0.7
#define POWF_BOUND 0.501
#else
#define POW_BOUND 1.04
#define POWF_BOUND 1.0
#endif
#define ST 48

BATCHDIFF double pw(double x, double y) { return pow(x, y); }
BATCHDIFF float pwf(float x, float y) { return powf(x, y); }

BATCHDIFF double put(double s, double k, double r, double sigma, double t,
                     int steps) {
  double v[ST + 1];
  if (steps < 1)
    steps = 1;
  if (steps > ST)
    steps = ST;
  double dt = t / steps;
  double u = exp(sigma * sqrt(dt)), d = 1.0 / u;
  double disc = exp(-r * dt);
  double p = (exp(r * dt) - d) / (u - d);
  for (int i = 0; i <= steps; i++)
    v[i] = fmax(k - s * pow(u, i) * pow(d, steps - i), 0.0);
  for (int n = steps - 1; n >= 0; n--)
    for (int i = 0; i <= n; i++) {
      double hold = disc * (p * v[i + 1] + (1 - p) * v[i]);
      v[i] = fmax(hold, k - s * pow(u, i) * pow(d, n - i));
    }
  return v[0];
}

BATCHDIFF double ces(double x, double y, double a, double rho) {
  return pow(a * pow(x, rho) + (1 - a) * pow(y, rho), 1.0 / rho) +
         pow(-x, 3.0) * 1e-3 + pow(-y, 4.0) * 1e-3;
}

static void check_ulp(size_t n, size_t e, double x, double y, double got) {
  double libm = pow(x, y);
  long double ref = powl(x, y);
  int ok;
  if (isnan(libm) || isnan(got))
    ok = isnan(libm) && isnan(got);
  else if (got == 0 && libm == 0)
    ok = signbit(got) == signbit(libm);
  else if (isinf(libm) || isinf(got))
    ok = got == libm;
  else
    ok = ulp_err_d(got, ref) <= POW_BOUND;
  if (!ok) {
    print_error("pw_batched n=%zu example %zu: pow(%a, %a) = %a, glibc %a, "
                "powl %La\n",
                n, e, x, y, got, libm, ref);
    fail();
  }
}

static void gen_xy(rng_t *rng, size_t e, double *x, double *y) {
  static const double sp[] = {0.0,   -0.0,     1.0,       -1.0, 2.0,
                              -2.0,  INFINITY, -INFINITY, NAN,  0x1p-1074,
                              1e300, -3.0,     0.5,       -0.5, 1e-300};
  switch (e % 6) {
  case 0:
    *x = rng_range(rng, 0, 10);
    *y = rng_range(rng, -300, 300);
    break;
  case 1:
    *x = 1.0 + rng_range(rng, -1, 1) * ldexp(1.0, -rng_below(rng, 50));
    *y = rng_range(rng, -1, 1) * ldexp(1.0, rng_below(rng, 60));
    break;
  case 2:
    *x = -rng_range(rng, 0.01, 20);
    *y = (double)(rng_below(rng, 201) - 100);
    break;
  case 3:
    *x = ldexp(rng_range(rng, 1, 2), rng_below(rng, 2000) - 1000);
    *y = rng_range(rng, -2, 2);
    break;
  case 4:
    *x = sp[rng_below(rng, 15)];
    *y = sp[rng_below(rng, 15)];
    break;
  default:
    *x = rng_range(rng, 0.2, 5);
    *y = rng_range(rng, -750, 710) / log(*x);
    break;
  }
}

static double pw_x(double x, const void *c) {
  return pw(x, *(const double *)c);
}
static double pw_y(double y, const void *c) {
  return pw(*(const double *)c, y);
}

static void t_pw(void **state) {
  (void)state;
  rng_t rng = {name_seed("pow_pw")};
  fd_count fc = {0, 64};
  for (size_t ni = 0; ni < N_TEST_NS; ni++)
    for (int rep = 0; rep < 200; rep++) {
      size_t n = test_ns[ni];
      double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *r = gp_alloc(n * 8);
      double *dx = gp_alloc(n * 8), *dy = gp_alloc(n * 8);
      for (size_t e = 0; e < n; e++)
        gen_xy(&rng, e + (size_t)rep, &x[e], &y[e]);
      gp_seal(x), gp_seal(y);
      pw_batched(n, x, y, r);
      for (size_t e = 0; e < n; e++)
        check_ulp(n, e, x[e], y[e], r[e]);
      if (rep % 20 == 0) {
        memset(dx, 0, n * 8), memset(dy, 0, n * 8);
        pw_grad(n, x, y, r, NULL, dx, dy);
        for (size_t e = 0; e < n; e++) {
          check_ulp(n, e, x[e], y[e], r[e]);
          /* smooth points with moderate values only */
          if (!(x[e] > 0.05 && x[e] < 20 && fabs(y[e]) < 50))
            continue;
          fd_check(&fc, "pw d/dx", pw_x, &y[e], x[e], dx[e]);
          fd_check(&fc, "pw d/dy", pw_y, &x[e], y[e], dy[e]);
        }
      }
      gp_reset();
    }
  fd_expect(&fc, "pw", 1000);
}

/* powf: batched within its bound of powl (0.501 ULP with FMA: computed in
 * double, rounded once), the same inputs as pw's rounded to float. */
static void t_pwf(void **state) {
  (void)state;
  rng_t rng = {name_seed("pow_pwf")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++)
    for (int rep = 0; rep < 200; rep++) {
      size_t n = test_ns[ni];
      float *x = gp_alloc(n * 4), *y = gp_alloc(n * 4), *r = gp_alloc(n * 4);
      for (size_t e = 0; e < n; e++) {
        double a, b;
        gen_xy(&rng, e + (size_t)rep, &a, &b);
        x[e] = (float)a;
        y[e] = (float)(e % 6 == 1 ? b * 0x1p-24 : b);
      }
      gp_seal(x), gp_seal(y);
      pwf_batched(n, x, y, r);
      for (size_t e = 0; e < n; e++) {
        float libm = powf(x[e], y[e]);
        long double ref = powl(x[e], y[e]);
        int ok;
        if (isnan(libm) || isnan(r[e]))
          ok = isnan(libm) && isnan(r[e]);
        else if (r[e] == 0 && libm == 0)
          ok = signbit(r[e]) == signbit(libm);
        else if (isinf(libm) || isinf(r[e]))
          ok = r[e] == libm;
        else
          ok = ulp_err_f(r[e], ref) <= POWF_BOUND;
        if (!ok) {
          print_error("pwf_batched n=%zu example %zu: powf(%a, %a) = %a, "
                      "glibc %a, powl %La\n",
                      n, e, (double)x[e], (double)y[e], (double)r[e],
                      (double)libm, ref);
          fail();
        }
      }
      gp_reset();
    }
}

typedef struct {
  double s, k, r, sigma, t;
  int steps;
} put_args;
static double put_s(double v, const void *c) {
  const put_args *a = c;
  return put(v, a->k, a->r, a->sigma, a->t, a->steps);
}
static double put_sigma(double v, const void *c) {
  const put_args *a = c;
  return put(a->s, a->k, a->r, v, a->t, a->steps);
}

static void t_put(void **state) {
  (void)state;
  rng_t rng = {name_seed("pow_put")};
  fd_count fc = {0, 4096};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *s = gp_alloc(n * 8), *k = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *sg = gp_alloc(n * 8), *t = gp_alloc(n * 8), *v = gp_alloc(n * 8);
    double *ds = gp_alloc(n * 8), *dk = gp_alloc(n * 8), *dr = gp_alloc(n * 8);
    double *dsg = gp_alloc(n * 8), *dt = gp_alloc(n * 8);
    int *st = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      s[e] = rng_range(&rng, 60, 140);
      k[e] = rng_range(&rng, 80, 120);
      r[e] = rng_range(&rng, 0.0, 0.08);
      sg[e] = rng_range(&rng, 0.1, 0.6);
      t[e] = rng_range(&rng, 0.1, 2);
      st[e] = 1 + rng_below(&rng, ST + 2);
    }
    gp_seal(s), gp_seal(k), gp_seal(r), gp_seal(sg), gp_seal(t), gp_seal(st);
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      put_batched(n, s, k, r, sg, t, st, v);
      for (size_t e = 0; e < n; e++) {
        double want = put(s[e], k[e], r[e], sg[e], t[e], st[e]);
        if (!close_to(v[e], want, 1e-13)) {
          print_error("put_batched n=%zu example %zu: %a, want %a\n", n, e,
                      v[e], want);
          fail();
        }
      }
    }
    bd_set_num_threads(0);
    memset(ds, 0, n * 8), memset(dk, 0, n * 8), memset(dr, 0, n * 8);
    memset(dsg, 0, n * 8), memset(dt, 0, n * 8);
    put_grad(n, s, k, r, sg, t, st, v, NULL, ds, dk, dr, dsg, dt);
    for (size_t e = 0; e < n; e++) {
      put_args a = {s[e], k[e], r[e], sg[e], t[e], st[e]};
      if (!close_to(v[e], put_s(s[e], &a), 1e-13)) {
        print_error("put_grad's value n=%zu example %zu\n", n, e);
        fail();
      }
      fd_check(&fc, "put d/ds", put_s, &a, s[e], ds[e]);
      fd_check(&fc, "put d/dsigma", put_sigma, &a, sg[e], dsg[e]);
    }
    gp_reset();
  }
  fd_expect(&fc, "put", 1000);
}

typedef struct {
  double x, y, a, rho;
} ces_args;
static double ces_x(double v, const void *c) {
  const ces_args *a = c;
  return ces(v, a->y, a->a, a->rho);
}
static double ces_rho(double v, const void *c) {
  const ces_args *a = c;
  return ces(a->x, a->y, a->a, v);
}

static void t_ces(void **state) {
  (void)state;
  rng_t rng = {name_seed("pow_ces")};
  fd_count fc = {0, 64};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *a = gp_alloc(n * 8);
    double *rho = gp_alloc(n * 8), *v = gp_alloc(n * 8);
    double *dx = gp_alloc(n * 8), *dy = gp_alloc(n * 8), *da = gp_alloc(n * 8);
    double *drho = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, 0.1, 10);
      y[e] = rng_range(&rng, 0.1, 10);
      a[e] = rng_range(&rng, 0.1, 0.9);
      rho[e] = rng_range(&rng, -3, 3);
      if (fabs(rho[e]) < 0.05)
        rho[e] = 0.5;
    }
    gp_seal(x), gp_seal(y), gp_seal(a), gp_seal(rho);
    ces_batched(n, x, y, a, rho, v);
    for (size_t e = 0; e < n; e++) {
      double want = ces(x[e], y[e], a[e], rho[e]);
      if (!close_to(v[e], want, 1e-14)) {
        print_error("ces_batched n=%zu example %zu: %a, want %a\n", n, e, v[e],
                    want);
        fail();
      }
    }
    memset(dx, 0, n * 8), memset(dy, 0, n * 8), memset(da, 0, n * 8);
    memset(drho, 0, n * 8);
    ces_grad(n, x, y, a, rho, v, NULL, dx, dy, da, drho);
    for (size_t e = 0; e < n; e++) {
      ces_args c = {x[e], y[e], a[e], rho[e]};
      fd_check(&fc, "ces d/dx", ces_x, &c, x[e], dx[e]);
      fd_check(&fc, "ces d/drho", ces_rho, &c, rho[e], drho[e]);
    }
    gp_reset();
  }
  fd_expect(&fc, "ces", 1000);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_pw),
      cmocka_unit_test(t_pwf),
      cmocka_unit_test(t_put),
      cmocka_unit_test(t_ces),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
