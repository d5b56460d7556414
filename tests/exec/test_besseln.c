/* jn, yn (POSIX: Bessel functions of integer order n) and jnf, ynf: batched
 * as libm's per lane, so the scalar function's bits, with the order n per
 * example or uniform (before: a call per example, an error in a diff
 * function). Differentiated in x: J_n' = (J_{n-1} - J_{n+1}) / 2, the same
 * for Y; n is not differentiated.
 *
 * Values bit for bit against the scalar functions at orders -7 .. 12 (0, 1
 * and -1 included) and x over zeros, negatives, tiny and huge arguments,
 * NaN and infinities; gradients bit for bit against twins written with the
 * recurrence, against the recurrence in long double (jnl, ynl) and against
 * central differences; a uniform order (and order and argument uniform: a
 * scalar jnf); more calls than a kernel inlines; calls on one side of a
 * per-lane branch (whose lanes that are off get order 0: jn costs O(n) per
 * call). exec_besseln_outline: the same with math=outline (bd_ool_jn_*). */
#define _DEFAULT_SOURCE
#include "exec_util.h"

#include "../common/test_filter.h"

BATCHDIFF double bj(int n, double x) { return jn(n, x); }
BATCHDIFF double by(int n, double x) { return yn(n, x); }
BATCHDIFF float bjf(int n, float x) { return jnf(n, x); }
BATCHDIFF float byf(int n, float x) { return ynf(n, x); }
/* The rule as C writes it: NAME_grad's bits. */
BATCHDIFF double bj_twin(int n, double x) {
  return 0.5 * (jn(n - 1, x) - jn(n + 1, x));
}
BATCHDIFF double by_twin(int n, double x) {
  return 0.5 * (yn(n - 1, x) - yn(n + 1, x));
}
BATCHDIFF float bjf_twin(int n, float x) {
  return 0.5f * (jnf(n - 1, x) - jnf(n + 1, x));
}
BATCHDIFF float byf_twin(int n, float x) {
  return 0.5f * (ynf(n - 1, x) - ynf(n + 1, x));
}
/* One order for the whole batch. */
BATCHDIFF double bj_unif(BD_UNIFORM int n, double x) { return jn(n, x) * x; }
/* Order and argument uniform: the call runs once, in C (jnf, not jn). */
BATCHDIFF float bjf_uu(BD_UNIFORM int n, BD_UNIFORM BD_NODIFF float w,
                       float x) {
  return jnf(n, w) * x;
}
/* More costly calls than a kernel inlines (plugin/emit/Kernel.cpp
 * MathInlineMax): out-of-line copies whose first parameter is the order. */
#define J4(k)                                                                  \
  jn(n + k, x) + jn(n + k + 1, x) + jn(n + k + 2, x) + jn(n + k + 3, x)
BATCHDIFF double b_many(int n, double x) {
  return J4(0) + J4(4) + J4(8) + J4(12) + J4(16) + J4(20) + J4(24) + J4(28) +
         J4(32) - yn(n, x);
}
/* Calls on one side of a per-lane branch, an order computed per example. */
BATCHDIFF double b_branch(int n, double x, double y) {
  if (x > 2.0)
    return jn(n + 1, x * y) + yn(n, x);
  return jn(n, x) * y;
}

static long double dj(int n, long double x) {
  return 0.5L * (jnl(n - 1, x) - jnl(n + 1, x));
}
static long double dy(int n, long double x) {
  return 0.5L * (ynl(n - 1, x) - ynl(n + 1, x));
}

static int order(rng_t *r, size_t e) {
  static const int sp[] = {0, 1, -1, 2, -2};
  return e < 5 ? sp[e] : (int)rng_below(r, 20) - 7;
}
static double arg(rng_t *r, size_t e) {
  static const double sp[] = {0.0,   -0.0, 0x1p-1000, -0x1p-1000, 1.0,     -1.0,
                              2.5,   -2.5, 10.0,      50.0,       1e3,     1e10,
                              1e300, NAN,  INFINITY,  -INFINITY,  0x1p-30, 7.0};
  if (e % 3 == 0 && e / 3 < sizeof sp / sizeof sp[0])
    return sp[e / 3];
  return rng_range(r, -30.0, 30.0);
}
static int same(double a, double b) {
  return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}
static int samef(float a, float b) {
  return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}

#define CHECK_D(what, got, want, e, n, x)                                      \
  if (!same(got, want)) {                                                      \
    print_error("%s e=%zu n=%d x=%a: %a, scalar %a\n", what, e, n, x, got,     \
                want);                                                         \
    fail();                                                                    \
  }
#define CHECK_F(what, got, want, e, n, x)                                      \
  if (!samef(got, want)) {                                                     \
    print_error("%s e=%zu n=%d x=%a: %a, scalar %a\n", what, e, n,             \
                (double)(x), (double)(got), (double)(want));                   \
    fail();                                                                    \
  }

static const size_t sizes[] = {0, 1, 7, 8, 9, 16, 17, 67, 1001};
#define NSIZES (sizeof sizes / sizeof sizes[0])

/* Values and gradients bit for bit, double and float. */
static void t_bits(void **state) {
  (void)state;
  rng_t rng = {name_seed("besseln_bits")};
  for (size_t si = 0; si < NSIZES; si++) {
    size_t n = sizes[si];
    int *k = gp_alloc(n * sizeof(int));
    double *x = gp_alloc(n * 8), *dr = gp_alloc(n * 8), *r = gp_alloc(n * 8),
           *d = gp_alloc(n * 8), *tw = gp_alloc(n * 8);
    float *xf = gp_alloc(n * 4), *drf = gp_alloc(n * 4), *rf = gp_alloc(n * 4),
          *df = gp_alloc(n * 4), *twf = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++) {
      k[e] = order(&rng, e);
      x[e] = arg(&rng, e);
      xf[e] = (float)x[e];
      dr[e] = rng_range(&rng, 0.5, 2.0);
      drf[e] = (float)dr[e];
    }
    gp_seal(k), gp_seal(x), gp_seal(dr), gp_seal(xf), gp_seal(drf);
    /* value; gradient (added to a shadow of +0) against dr * twin */
#define ROUND_D(fn, twin, scalar)                                              \
  fn##_batched(n, k, x, r);                                                    \
  for (size_t e = 0; e < n; e++)                                               \
    CHECK_D(#fn, r[e], scalar(k[e], x[e]), e, k[e], x[e])                      \
  memset(d, 0, n * 8);                                                         \
  fn##_grad(n, k, x, r, dr, d);                                                \
  twin##_batched(n, k, x, tw);                                                 \
  for (size_t e = 0; e < n; e++) {                                             \
    CHECK_D(#twin, tw[e], twin(k[e], x[e]), e, k[e], x[e])                     \
    CHECK_D(#fn "_grad value", r[e], scalar(k[e], x[e]), e, k[e], x[e])        \
    CHECK_D(#fn "_grad", d[e], 0.0 + dr[e] * tw[e], e, k[e], x[e])             \
  }
#define ROUND_F(fn, twin, scalar)                                              \
  fn##_batched(n, k, xf, rf);                                                  \
  for (size_t e = 0; e < n; e++)                                               \
    CHECK_F(#fn, rf[e], scalar(k[e], xf[e]), e, k[e], xf[e])                   \
  memset(df, 0, n * 4);                                                        \
  fn##_grad(n, k, xf, rf, drf, df);                                            \
  twin##_batched(n, k, xf, twf);                                               \
  for (size_t e = 0; e < n; e++) {                                             \
    CHECK_F(#twin, twf[e], twin(k[e], xf[e]), e, k[e], xf[e])                  \
    CHECK_F(#fn "_grad", df[e], 0.0f + drf[e] * twf[e], e, k[e], xf[e])        \
  }
    ROUND_D(bj, bj_twin, jn)
    ROUND_D(by, by_twin, yn)
    ROUND_F(bjf, bjf_twin, jnf)
    ROUND_F(byf, byf_twin, ynf)
    gp_reset();
  }
}

/* Gradients against the recurrence in long double and central
 * differences, where x is moderate (y: positive). */
static void t_grad(void **state) {
  (void)state;
  rng_t rng = {name_seed("besseln_grad")};
  size_t n = 203;
  int *k = gp_alloc(n * sizeof(int));
  double *x = gp_alloc(n * 8), *xp = gp_alloc(n * 8), *dr = gp_alloc(n * 8),
         *r = gp_alloc(n * 8), *dj_ = gp_alloc(n * 8), *dy_ = gp_alloc(n * 8);
  for (size_t e = 0; e < n; e++) {
    k[e] = order(&rng, e);
    x[e] = rng_range(&rng, -25.0, 25.0);
    xp[e] = rng_range(&rng, 0.5, 25.0);
    dr[e] = 1.0;
  }
  memset(dj_, 0, n * 8), memset(dy_, 0, n * 8);
  bj_grad(n, k, x, r, dr, dj_);
  by_grad(n, k, xp, r, dr, dy_);
  for (size_t e = 0; e < n; e++) {
    long double h = 1e-5L;
    long double fdj = (jnl(k[e], x[e] + h) - jnl(k[e], x[e] - h)) / (2 * h);
    long double fdy = (ynl(k[e], xp[e] + h) - ynl(k[e], xp[e] - h)) / (2 * h);
    long double wj = dj(k[e], x[e]), wy = dy(k[e], xp[e]);
    long double sj = 1 + fabsl(wj), sy = 1 + fabsl(wy);
    if (fabsl(dj_[e] - wj) > 1e-13L * sj || fabsl(dj_[e] - fdj) > 1e-8L * sj) {
      print_error("bj_grad n=%d x=%a: %.17g, recurrence %.17Lg, fd %.17Lg\n",
                  k[e], x[e], dj_[e], wj, fdj);
      fail();
    }
    if (fabsl(dy_[e] - wy) > 1e-13L * sy || fabsl(dy_[e] - fdy) > 1e-8L * sy) {
      print_error("by_grad n=%d x=%a: %.17g, recurrence %.17Lg, fd %.17Lg\n",
                  k[e], xp[e], dy_[e], wy, fdy);
      fail();
    }
  }
  gp_reset();
}

/* A uniform order, and calls on one side of a per-lane branch. */
static void t_unif_branch(void **state) {
  (void)state;
  rng_t rng = {name_seed("besseln_unif")};
  for (size_t si = 0; si < NSIZES; si++) {
    size_t n = sizes[si];
    int *k = gp_alloc(n * sizeof(int));
    double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *dr = gp_alloc(n * 8),
           *r = gp_alloc(n * 8), *dx = gp_alloc(n * 8), *dy_ = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      k[e] = order(&rng, e);
      x[e] = rng_range(&rng, 0.5, 4.0);
      y[e] = rng_range(&rng, 0.5, 2.0);
      dr[e] = rng_range(&rng, 0.5, 2.0);
    }
    for (int u = -4; u <= 9; u += 1) {
      bj_unif_batched(n, u, x, r);
      for (size_t e = 0; e < n; e++)
        CHECK_D("bj_unif", r[e], bj_unif(u, x[e]), e, u, x[e])
      memset(dx, 0, n * 8);
      bj_unif_grad(n, u, x, r, dr, dx);
      for (size_t e = 0; e < n; e++) {
        long double w = dr[e] * (dj(u, x[e]) * x[e] + jnl(u, x[e]));
        if (fabsl(dx[e] - w) > 1e-13L * (1 + fabsl(w))) {
          print_error("bj_unif_grad n=%d x=%a: %.17g, want %.17Lg\n", u, x[e],
                      dx[e], w);
          fail();
        }
      }
    }
    for (int u = -3; u <= 5; u += 4) {
      float *xf = gp_alloc(n * 4), *rf = gp_alloc(n * 4);
      for (size_t e = 0; e < n; e++)
        xf[e] = (float)y[e];
      bjf_uu_batched(n, u, 2.5f, xf, rf);
      for (size_t e = 0; e < n; e++)
        CHECK_F("bjf_uu", rf[e], bjf_uu(u, 2.5f, xf[e]), e, u, xf[e])
    }
    b_many_batched(n, k, x, r);
    for (size_t e = 0; e < n; e++)
      CHECK_D("b_many", r[e], b_many(k[e], x[e]), e, k[e], x[e])
    memset(dx, 0, n * 8);
    b_many_grad(n, k, x, r, dr, dx);
    for (size_t e = 0; e < n; e++) {
      long double w = -dy(k[e], x[e]);
      for (int j = 0; j < 36; j++)
        w += dj(k[e] + j, x[e]);
      w *= dr[e];
      if (fabsl(dx[e] - w) > 1e-12L * (1 + fabsl(w))) {
        print_error("b_many_grad n=%d x=%a: %.17g, want %.17Lg\n", k[e], x[e],
                    dx[e], w);
        fail();
      }
    }
    b_branch_batched(n, k, x, y, r);
    for (size_t e = 0; e < n; e++)
      CHECK_D("b_branch", r[e], b_branch(k[e], x[e], y[e]), e, k[e], x[e])
    memset(dx, 0, n * 8), memset(dy_, 0, n * 8);
    b_branch_grad(n, k, x, y, r, dr, dx, dy_);
    for (size_t e = 0; e < n; e++) {
      long double X = x[e], Y = y[e], wx, wy;
      int m = k[e];
      if (X > 2.0L) {
        wx = dj(m + 1, X * Y) * Y + dy(m, X);
        wy = dj(m + 1, X * Y) * X;
      } else {
        wx = dj(m, X) * Y;
        wy = jnl(m, X);
      }
      wx *= dr[e], wy *= dr[e];
      if (fabsl(dx[e] - wx) > 1e-12L * (1 + fabsl(wx)) ||
          fabsl(dy_[e] - wy) > 1e-12L * (1 + fabsl(wy))) {
        print_error("b_branch_grad n=%d x=%a y=%a: %.17g %.17g, want %.17Lg "
                    "%.17Lg\n",
                    m, x[e], y[e], dx[e], dy_[e], wx, wy);
        fail();
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_bits),
      cmocka_unit_test(t_grad),
      cmocka_unit_test(t_unif_branch),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_besseln", tests, NULL, NULL);
}
