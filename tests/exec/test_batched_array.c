/* Calls of functions of another file marked batch, diff that take
 * read-only arrays (batched_array.h, defined in batched_array_other.c), as
 * every Cephes function calls polevl, p1evl and chbevl with its file's
 * coefficient tables (docs/calls.md, "Batch functions of other files"):
 * a table or a BD_UNIFORM array goes to the callee's NAME_batched and
 * NAME_grad as one pointer with a stride of 0 (to a BD_UNIFORM parameter,
 * the pointer), no shadow (NULL) for it. For every n of ns: NAME_batched's
 * and NAME_grad's values are the scalar function's bits (NaN, infinities
 * and signed zeros among the inputs; the callees are arithmetic only);
 * gradients against closed forms (the rational functions' derivatives) or
 * Richardson differences; 1 and 2 threads the same bits at n = 70,000.
 * Inputs end at guard pages, and so does a BD_UNIFORM array passed on:
 * with a stride other than 0 the lanes after the first would read other
 * memory (past the page, or other coefficients of the tables). */
#include "exec_util.h"

#include "../common/test_filter.h"
#include "batched_array.h"

#include <batchdiff/parallel.h>

#include <math.h>
#include <string.h>

/* Cephes' ndtr.c erf coefficients: erf(x) = x T(x^2) / U(x^2) for |x| <=
 * 1. T is not const, as Cephes writes it: the file only passes it. */
#define T_INIT                                                                 \
  {                                                                            \
    9.60497373987051638749E0, 9.00260197203842689217E1,                        \
        2.23200534594684319226E3, 7.00332514112805075473E3,                    \
        5.55923013010394962768E4                                               \
  }
#define U_INIT                                                                 \
  {                                                                            \
    3.35617141647503099647E1, 5.21357949780152679795E2,                        \
        4.59432382970980127987E3, 2.26290000613890934246E4,                    \
        4.92673942608635921086E4                                               \
  }
#define R_INIT                                                                 \
  { 0.75, -1.5, 2.25 }
static double T[] = T_INIT;
static const double U[] = U_INIT;
const double pv_R[] = R_INIT;
/* (The checks' copies: T may only be passed.) */
static const double Tc[] = T_INIT, Uc[] = U_INIT;

/* Cephes' erf for |x| <= 1. */
BATCHDIFF double erf_like(double x) {
  double z = x * x;
  return x * pv_polevl(z, T, 4) / pv_p1evl(z, U, 5);
}

/* Only the lanes with x > 0.3 call: packed lanes. */
BATCHDIFF double branchy(double x, double y) {
  double r = y;
  if (x > 0.3)
    r = pv_p1evl(x, U, 5) * y;
  return r;
}

/* A static local table (a copy in the generated code), n per example. */
BATCHDIFF double cheb(double x, int n) {
  static const double A[] = {-4.4,  3.3,   -2.2, 1.1,  0.5,
                             -0.25, 0.125, 2.0,  -1.0, 0.75};
  return pv_chbevl(x, A, n) * x;
}

/* A call per iteration, n iterations per example (partials on the tape);
 * a table of external linkage. */
BATCHDIFF double loop(double x, int n) {
  double s = 0.5;
  for (int i = 0; i < n; i++)
    s = s * 0.5 + pv_polevl(x + i * 0.25, pv_R, 2);
  return s;
}

/* An integer table, a count per example. */
BATCHDIFF double halves(double x, int m) {
  static const int K[] = {3, -1, 4, 1, -5, 9};
  return pv_halfs(x, K, m) * x;
}

/* A BD_UNIFORM array passed on: to a varying parameter (stride 0) and, at
 * an offset, to a BD_UNIFORM one; a uniform count. */
__attribute__((batch)) double unif(double x, BD_UNIFORM const double c[6],
                                   BD_UNIFORM int m) {
  return pv_polevl(x, c, m) + pv_upoly(x, c + 1, m);
}

/* At an offset per example: a call per lane. */
__attribute__((batch)) double uoff(double x, int k,
                                   BD_UNIFORM const double c[8]) {
  return pv_polevl(x, c + k, 2);
}

/* A BD_NODIFF uniform array in a diff function: no derivative to it. */
BATCHDIFF double unif_nd(double x, BD_UNIFORM BD_NODIFF const double c[4]) {
  return pv_polevl(x, c, 3) * x;
}

/* The caller's own arrays, one per example: whole vectors where the lanes'
 * arrays are equally spaced (the caller's stride passed on), else a call
 * per lane; to a BD_UNIFORM parameter (pv_upoly's c), a call per lane. */
__attribute__((batch)) double vpoly(double x, const double c[5], int m) {
  return pv_polevl(x, c, m) + pv_upoly(x, c + 1, 3);
}

/* In a diff function: BD_NODIFF (no derivative to the array), at an
 * offset, in a branch (packed lanes). */
BATCHDIFF double vpoly_nd(double x, BD_NODIFF const double c[5], int m) {
  double r = x;
  if (x > 0.25)
    r = pv_polevl(x, c + 1, m) * x;
  return r;
}

/* An integer array per example. */
BATCHDIFF double vhalves(double x, const int k[6], int m) {
  return pv_halfs(x, k, m) * x;
}

/* An array of pointers: equally spaced or not. */
__attribute__((batch)) double vptrs(double x, BD_POINTERS const double c[4]) {
  return pv_polevl(x, c, 3);
}

static const size_t ns[] = {0,      1,      WF - 1,     WF,  WF + 1,
                            WD - 1, WD + 1, 2 * WF + 3, 100, 1003};
#define NNS (sizeof ns / sizeof ns[0])

/* Inputs: mostly in [lo, hi], now and then an edge value. */
static double gen_x(rng_t *r, double lo, double hi) {
  static const double edge[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1e300};
  if (rng_below(r, 16) == 0)
    return edge[rng_below(r, 6)];
  return rng_range(r, lo, hi);
}

/* The scalar function's bits (any NaN where it gives a NaN). */
static void same_val(const char *what, size_t e, double got, double want) {
  if (isnan(want) ? !isnan(got) : memcmp(&got, &want, sizeof got) != 0) {
    print_error("%s e=%zu: %.17g, want %.17g\n", what, e, got, want);
    fail();
  }
}

/* Within tol of want, relative to |want| + 1 (finite want only). */
static void near(const char *what, size_t e, double got, double want,
                 double tol, size_t *checked) {
  if (!isfinite(want))
    return;
  ++*checked;
  if (fabs(got - want) > tol * (1 + fabs(want))) {
    print_error("%s e=%zu: %.17g, want %.17g\n", what, e, got, want);
    fail();
  }
}

/* Horner: the value and derivative of c[0] x^N + ... + c[N], or with
 * lead, of x^N + c[0] x^(N-1) + ... + c[N-1] (p1evl). */
static void horner(double x, const double *c, int N, int lead, double *v,
                   double *d) {
  double p = lead ? 1.0 : c[0], dp = 0;
  for (int i = lead ? 0 : 1; i < (lead ? N : N + 1); i++) {
    dp = dp * x + p;
    p = p * x + c[i];
  }
  *v = p, *d = dp;
}

/* Richardson-extrapolated central difference of f(., k) at x. */
static double rdiff(double (*f)(double, int), double x, int k) {
  double d[2];
  for (int j = 0; j < 2; j++) {
    double h = (j ? 0.5e-4 : 1e-4) * (1 + fabs(x));
    d[j] = (f(x + h, k) - f(x - h, k)) / (2 * h);
  }
  return (4 * d[1] - d[0]) / 3;
}

static double d_erf(double x) {
  double z = x * x, p, dp, q, dq;
  horner(z, Tc, 4, 0, &p, &dp);
  horner(z, Uc, 5, 1, &q, &dq);
  return p / q + x * 2 * x * (dp * q - p * dq) / (q * q);
}

static void t_erf(void **state) {
  (void)state;
  rng_t rng = {name_seed("erf_like")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni], checked = 0;
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *dr = gp_alloc(n * 8), *dx = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      x[e] = gen_x(&rng, -1, 1), dr[e] = rng_range(&rng, 0.5, 2);
    gp_seal(x), gp_seal(dr);
    erf_like_batched(n, x, r);
    memset(dx, 0, n * 8);
    erf_like_grad(n, x, r2, dr, dx);
    for (size_t e = 0; e < n; e++) {
      same_val("erf_like", e, r[e], erf_like(x[e]));
      same_val("erf_like_grad ret", e, r2[e], r[e]);
      if (fabs(x[e]) <= 1)
        near("erf_like d_x", e, dx[e], dr[e] * d_erf(x[e]), 1e-12, &checked);
      /* (Against erf itself: the tables are the ones Cephes uses.) */
      if (fabs(x[e]) <= 1 && fabs(r[e] - erf(x[e])) > 1e-15) {
        print_error("erf_like e=%zu: %.17g, erf %.17g\n", e, r[e], erf(x[e]));
        fail();
      }
    }
    gp_reset();
  }
}

static void t_branch(void **state) {
  (void)state;
  rng_t rng = {name_seed("branchy")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni], checked = 0;
    double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8), *dx = gp_alloc(n * 8), *dy = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      x[e] = gen_x(&rng, -1, 2), y[e] = rng_range(&rng, -2, 2);
    gp_seal(x), gp_seal(y);
    branchy_batched(n, x, y, r);
    memset(dx, 0, n * 8), memset(dy, 0, n * 8);
    branchy_grad(n, x, y, r2, NULL, dx, dy);
    for (size_t e = 0; e < n; e++) {
      same_val("branchy", e, r[e], branchy(x[e], y[e]));
      same_val("branchy_grad ret", e, r2[e], r[e]);
      double q = 1, dq = 0;
      if (x[e] > 0.3)
        horner(x[e], Uc, 5, 1, &q, &dq);
      if (isfinite(x[e])) {
        near("branchy d_x", e, dx[e], dq * y[e], 1e-12, &checked);
        near("branchy d_y", e, dy[e], q, 1e-12, &checked);
      }
    }
    gp_reset();
  }
}

/* A function of (double, int): values and the double's gradient against
 * Richardson differences, k in [kmin, kmax]. */
typedef void (*batdi)(size_t, const double *, const int *, double *);
typedef void (*graddi)(size_t, const double *, const int *, double *,
                       const double *, double *);
static void checkdi(const char *name, double (*f)(double, int), batdi bf,
                    graddi gf, int kmin, int kmax, double tol) {
  rng_t rng = {name_seed(name)};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni], checked = 0, finite = 0;
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *dr = gp_alloc(n * 8), *dx = gp_alloc(n * 8);
    int *k = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++) {
      x[e] = gen_x(&rng, -1.5, 1.5);
      k[e] = kmin + rng_below(&rng, kmax - kmin + 1);
      dr[e] = rng_range(&rng, 0.5, 2);
    }
    gp_seal(x), gp_seal(k), gp_seal(dr);
    bf(n, x, k, r);
    memset(dx, 0, n * 8);
    gf(n, x, k, r2, dr, dx);
    for (size_t e = 0; e < n; e++) {
      same_val(name, e, r[e], f(x[e], k[e]));
      same_val(name, e, r2[e], r[e]);
      if (fabs(x[e]) <= 1.5) {
        finite++;
        near(name, e, dx[e], dr[e] * rdiff(f, x[e], k[e]), tol, &checked);
      }
    }
    assert_int_equal(checked, finite);
    gp_reset();
  }
}

static void t_cheb(void **state) {
  (void)state;
  checkdi("cheb", cheb, cheb_batched, cheb_grad, 2, 10, 1e-7);
}
static void t_loop(void **state) {
  (void)state;
  checkdi("loop", loop, loop_batched, loop_grad, 0, 6, 1e-7);
}
static void t_halves(void **state) {
  (void)state;
  checkdi("halves", halves, halves_batched, halves_grad, 0, 6, 1e-7);
}

/* The BD_UNIFORM arrays end at guard pages: six elements for unif, m up
 * to 5; eight for uoff, k up to 5 (pv_polevl reads c[k .. k + 2]). */
static void t_unif(void **state) {
  (void)state;
  rng_t rng = {name_seed("unif")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *c = gp_alloc(6 * 8);
    double *c8 = gp_alloc(8 * 8);
    int *k = gp_alloc(n * 4);
    for (int i = 0; i < 8; i++)
      c8[i] = rng_range(&rng, -2, 2), c[i % 6] = rng_range(&rng, -2, 2);
    for (size_t e = 0; e < n; e++)
      x[e] = gen_x(&rng, -2, 2), k[e] = rng_below(&rng, 6);
    gp_seal(x), gp_seal(c), gp_seal(c8), gp_seal(k);
    for (int m = 1; m <= 5; m++) {
      unif_batched(n, x, c, m, r);
      for (size_t e = 0; e < n; e++)
        same_val("unif", e, r[e], unif(x[e], c, m));
    }
    uoff_batched(n, x, k, c8, r);
    for (size_t e = 0; e < n; e++)
      same_val("uoff", e, r[e], uoff(x[e], k[e], c8));
    gp_reset();
  }
}

static void t_unif_nd(void **state) {
  (void)state;
  rng_t rng = {name_seed("unif_nd")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni], checked = 0;
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *dx = gp_alloc(n * 8), *c = gp_alloc(4 * 8);
    for (int i = 0; i < 4; i++)
      c[i] = rng_range(&rng, -2, 2);
    for (size_t e = 0; e < n; e++)
      x[e] = gen_x(&rng, -2, 2);
    gp_seal(x), gp_seal(c);
    unif_nd_batched(n, x, c, r);
    memset(dx, 0, n * 8);
    unif_nd_grad(n, x, c, r2, NULL, dx);
    for (size_t e = 0; e < n; e++) {
      double p, dp;
      same_val("unif_nd", e, r[e], unif_nd(x[e], c));
      same_val("unif_nd_grad ret", e, r2[e], r[e]);
      horner(x[e], c, 3, 0, &p, &dp);
      if (isfinite(x[e]))
        near("unif_nd d_x", e, dx[e], p + x[e] * dp, 1e-12, &checked);
    }
    gp_reset();
  }
}

/* n arrays of len elements at stride s (0: one array; negative: the last
 * example's first), the last one read ending at a guard page; the base
 * the function gets. */
static double *strided(rng_t *r, size_t n, int len, ptrdiff_t s) {
  size_t span = n ? (size_t)((ptrdiff_t)(n - 1) * (s < 0 ? -s : s)) + len : 0;
  double *a = gp_alloc(span * 8);
  for (size_t i = 0; i < span; i++)
    a[i] = rng_range(r, -2, 2);
  gp_seal(a);
  return s < 0 && n ? a + (ptrdiff_t)(n - 1) * -s : a;
}

static void t_vary(void **state) {
  (void)state;
  rng_t rng = {name_seed("vary")};
  static const ptrdiff_t strides[] = {5, 7, 0, -5, 6};
  for (size_t ni = 0; ni < NNS; ni++)
    for (size_t si = 0; si < 5; si++) {
      size_t n = ns[ni], checked = 0;
      ptrdiff_t st = strides[si];
      double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
      double *dx = gp_alloc(n * 8);
      int *m = gp_alloc(n * 4), *m3 = gp_alloc(n * 4);
      for (size_t e = 0; e < n; e++) {
        x[e] = gen_x(&rng, -1.5, 1.5);
        m[e] = 1 + rng_below(&rng, 4), m3[e] = 1 + rng_below(&rng, 3);
      }
      gp_seal(x), gp_seal(m), gp_seal(m3);
      double *c = strided(&rng, n, 5, st);
      vpoly_batched(n, x, c, st, m, r);
      for (size_t e = 0; e < n; e++)
        same_val("vpoly", e, r[e], vpoly(x[e], c + (ptrdiff_t)e * st, m[e]));
      vpoly_nd_batched(n, x, c, st, m3, r);
      memset(dx, 0, n * 8);
      vpoly_nd_grad(n, x, c, st, m3, r2, NULL, dx);
      for (size_t e = 0; e < n; e++) {
        const double *ce = c + (ptrdiff_t)e * st;
        double p = 0, dp = 1;
        same_val("vpoly_nd", e, r[e], vpoly_nd(x[e], ce, m3[e]));
        same_val("vpoly_nd_grad ret", e, r2[e], r[e]);
        if (x[e] > 0.25) {
          horner(x[e], ce + 1, m3[e], 0, &p, &dp);
          dp = p + x[e] * dp;
        }
        if (isfinite(x[e]))
          near("vpoly_nd d_x", e, dx[e], dp, 1e-12, &checked);
      }
      /* Integer arrays: six per example, m up to 6. */
      size_t span = n ? (size_t)((ptrdiff_t)(n - 1) * (st < 0 ? -st : st)) + 6
                      : 0;
      int *k = gp_alloc(span * 4), *m6 = gp_alloc(n * 4);
      for (size_t i = 0; i < span; i++)
        k[i] = rng_below(&rng, 19) - 9;
      for (size_t e = 0; e < n; e++)
        m6[e] = rng_below(&rng, 7);
      gp_seal(k), gp_seal(m6);
      int *kb = st < 0 && n ? k + (ptrdiff_t)(n - 1) * -st : k;
      vhalves_batched(n, x, kb, st, m6, r);
      memset(dx, 0, n * 8);
      vhalves_grad(n, x, kb, st, m6, r2, NULL, dx);
      for (size_t e = 0; e < n; e++) {
        const int *ke = kb + (ptrdiff_t)e * st;
        double h[6], p = 0, dp = 0;
        same_val("vhalves", e, r[e], vhalves(x[e], ke, m6[e]));
        same_val("vhalves_grad ret", e, r2[e], r[e]);
        for (int i = 0; i < m6[e]; i++)
          h[i] = ke[i] * 0.5;
        if (m6[e] > 0)
          horner(x[e], h, m6[e] - 1, 0, &p, &dp);
        if (isfinite(x[e]))
          near("vhalves d_x", e, dx[e], p + x[e] * dp, 1e-12, &checked);
      }
      gp_reset();
    }
}

/* BD_POINTERS: pointers into one array at a stride of 4 (whole calls), and
 * the same arrays in a shuffled order (a call per lane). */
static void t_pointers(void **state) {
  (void)state;
  rng_t rng = {name_seed("pointers")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *c = strided(&rng, n, 4, 4);
    const double **p = gp_alloc(n * sizeof *p);
    for (size_t e = 0; e < n; e++)
      x[e] = gen_x(&rng, -1.5, 1.5), p[e] = c + 4 * e;
    for (int shuffled = 0; shuffled < 2; shuffled++) {
      for (size_t e = 0; shuffled && e + 1 < n; e++) {
        size_t j = e + rng_below(&rng, (int)(n - e));
        const double *t = p[e];
        p[e] = p[j], p[j] = t;
      }
      vptrs_batched(n, x, p, r);
      for (size_t e = 0; e < n; e++)
        same_val("vptrs", e, r[e], vptrs(x[e], p[e]));
    }
    gp_reset();
  }
}

/* The callees run on the runtime's threads: the same bits for 1 and 2. */
static void t_threads(void **state) {
  (void)state;
  rng_t rng = {name_seed("threads")};
  size_t n = 70000;
  double *x = gp_alloc(n * 8), *r[2], *dx[2];
  for (size_t e = 0; e < n; e++)
    x[e] = rng_range(&rng, -1, 1);
  for (int th = 1; th <= 2; th++) {
    r[th - 1] = gp_alloc(n * 8), dx[th - 1] = gp_alloc(n * 8);
    memset(dx[th - 1], 0, n * 8);
    bd_set_num_threads(th);
    erf_like_grad(n, x, r[th - 1], NULL, dx[th - 1]);
  }
  bd_set_num_threads(0);
  assert_memory_equal(r[0], r[1], n * 8);
  assert_memory_equal(dx[0], dx[1], n * 8);
  gp_reset();
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_erf),     cmocka_unit_test(t_branch),
      cmocka_unit_test(t_cheb),    cmocka_unit_test(t_loop),
      cmocka_unit_test(t_halves),  cmocka_unit_test(t_unif),
      cmocka_unit_test(t_unif_nd), cmocka_unit_test(t_threads),
      cmocka_unit_test(t_vary),    cmocka_unit_test(t_pointers)};
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_batched_array", tests, NULL, NULL);
}
