/* Numeric C as it is found (the rest is in test_found.c): loops whose
 * index range needs the loop's start or bound: NR's chebev (Clenshaw
 * counting down from m - 1), Horner and its derivative from the top
 * (`c[nc]`, then c[nc - 1] .. c[0]), first differences (`x[i] - x[i - 1]`
 * from i = 1, `x[i + 1]` under `i < n - 1`), `for (i = n; i-- > 0;)` and
 * `while (k < n - 1) { ...; k++; }`, bounds through casts (`i < (size_t)n`)
 * and as a condition's first conjunct (`i < n && x[i] < t`).
 * NAME_batched bit for bit against the
 * scalar functions, gradients against closed forms; chebev's nrerror
 * calls exactly the scalar loop's. */
#include "grad_util.h"

#include <stdint.h>

#include "../common/test_filter.h"

void nrerror(char error_text[]); /* nrutil.h */

/* ---- loops whose index range needs the loop's start or its bound ------- */

/* NR chebev: Clenshaw's recurrence counting down from m - 1 (c[] as NR
 * declares it, not const). */
BATCHDIFF float chebev(float a, float b, float c[], int m, float x) {
  float d = 0.0, dd = 0.0, sv, y, y2;
  int j;

  if ((x - a) * (x - b) > 0.0)
    nrerror("x not in range in routine chebev");
  y2 = 2.0 * (y = (2.0 * x - a - b) / (b - a));
  for (j = m - 1; j >= 1; j--) {
    sv = d;
    d = y2 * d - dd + c[j];
    dd = sv;
  }
  return y * d - dd + 0.5 * c[0];
}

/* A polynomial and its derivative by Horner from the top, c[nc] .. c[0]
 * (NR's ddpoly for one derivative). */
BATCHDIFF double polyd(const double c[], int nc, double x, double *dp) {
  double p = c[nc], d = 0.0;
  for (int j = nc - 1; j >= 0; j--) {
    d = d * x + p;
    p = p * x + c[j];
  }
  *dp = d;
  return p;
}

/* Total variation: x[i] - x[i - 1] from i = 1; a forward difference to
 * n - 1. */
BATCHDIFF double tv(const double *x, int n) {
  double s = 0.0;
  for (int i = 1; i < n; i++)
    s += fabs(x[i] - x[i - 1]);
  for (int i = 0; i < n - 1; i++)
    s += 0.5 * (x[i + 1] - x[i]);
  return s;
}

/* Counting down by `i-- > 0`, and a while loop's counter. */
BATCHDIFF double decay(const double *x, int n, double r) {
  double s = 0.0;
  int i, k = 0;
  for (i = n; i-- > 0;)
    s = s * r + x[i];
  while (k < n - 1) {
    s += r * x[k + 1];
    k++;
  }
  return s;
}

/* Bounds through casts to integer types of at least 32 bits: `i <
 * (size_t)n`, `i = (size_t)n` counted down by `i-- > 0`, `i < (unsigned)n`
 * from 1, and `i < (int)n` of a size_t n. */
BATCHDIFF double casts(const double *x, int n, double r) {
  double s = 0.0;
  for (size_t i = 0; i < (size_t)n; i++)
    s += x[i] * x[i];
  for (size_t i = (size_t)n; i-- > 0;)
    s = s * r + x[i];
  for (unsigned i = 1; i < (unsigned)n; i++)
    s += r * x[i - 1];
  return s;
}
BATCHDIFF double casts_z(const double *x, size_t n) {
  double s = 0.0;
  for (int i = 0; i < (int)n; i++)
    s += (double)(i + 1) * x[i];
  return s;
}

/* A loop's bound as the first conjunct of its condition: the rest reads
 * x[i] only while i < n (a search loop; its counter read after it). */
BATCHDIFF double conds(const double *x, int n, double t) {
  double s = 0.0;
  int i;
  for (i = 0; i < n && x[i] < t; i++)
    s += x[i] * t;
  int j = 0;
  while (j < n && x[j] > -t) {
    s += x[j] * x[j];
    j++;
  }
  return s + 0.5 * i - j;
}

#include "found_util.h"

/* chebev, polyd and tv bit for bit over ragged lengths 0 .. ST; polyd's
 * and tv's gradients against their closed forms: d polyd / dx is polyd's
 * own *dp, d tv / dx[i] the signs of the differences. */
enum { ST = 12 };
static void t_ranges(void **state) {
  (void)state;
  rng_t rng = {name_seed("found_ranges")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    float *fa = gp_alloc(n * 4), *fb = gp_alloc(n * 4), *fx = gp_alloc(n * 4);
    float *fc = gp_alloc(n * ST * 4), *q = gp_alloc(n * 4);
    double *c = gp_alloc(n * ST * 8), *x = gp_alloc(n * 8);
    double *v = gp_alloc(n * ST * 8), *r1 = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8), *dp = gp_alloc(n * 8), *g1 = gp_alloc(n * 8);
    double *dv_ = gp_alloc(n * ST * 8), *dx = gp_alloc(n * 8);
    double *rr = gp_alloc(n * 8), *r3 = gp_alloc(n * 8), *dr = gp_alloc(n * 8);
    int *m = gp_alloc(n * sizeof(int)), *nc = gp_alloc(n * sizeof(int));
    int *len = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      fa[e] = (float)rng_range(&rng, -2, 0);
      fb[e] = (float)rng_range(&rng, 0.5, 2);
      fx[e] = (float)rng_range(&rng, -2.5, 2.5);
      m[e] = 1 + (int)rng_below(&rng, ST);
      nc[e] = (int)rng_below(&rng, ST);
      len[e] = (int)rng_below(&rng, ST + 1);
      x[e] = rng_range(&rng, -2, 2);
      rr[e] = rng_range(&rng, -1.5, 1.5);
      dx[e] = dr[e] = 0.0;
      for (int i = 0; i < ST; i++) {
        fc[e * ST + i] = (float)rng_range(&rng, -1, 1);
        c[e * ST + i] = rng_range(&rng, -1, 1);
        v[e * ST + i] = gen_d_mod(&rng);
        dv_[e * ST + i] = 0.0;
      }
    }
    gp_seal(fa), gp_seal(fb), gp_seal(fx), gp_seal(c), gp_seal(x);
    gp_seal(v), gp_seal(m), gp_seal(nc), gp_seal(len);
    reports = report_hash = 0;
    chebev_batched(n, fa, fb, fc, ST, m, fx, q);
    uint64_t got = reports, got_hash = report_hash;
    reports = report_hash = 0;
    polyd_batched(n, c, ST, nc, x, dp, 1, r1);
    tv_batched(n, v, ST, len, r2);
    decay_batched(n, v, ST, len, rr, r3);
    decay_grad(n, v, ST, len, rr, NULL, NULL, NULL, 0, dr);
    polyd_grad(n, c, ST, nc, x, g1, 1, NULL, NULL, NULL, 0, dx, NULL, 0);
    tv_grad(n, v, ST, len, NULL, NULL, dv_, ST);
    for (size_t e = 0; e < n; e++) {
      float w1 = chebev(fa[e], fb[e], fc + e * ST, m[e], fx[e]);
      double d, w2 = polyd(c + e * ST, nc[e], x[e], &d);
      const double *ve = v + e * ST;
      double w3 = tv(ve, len[e]), w4 = decay(ve, len[e], rr[e]);
      /* d decay / dr: the same loops, differentiated by hand. */
      double sv = 0.0, ds = 0.0;
      for (int i = len[e]; i-- > 0;) {
        ds = ds * rr[e] + sv;
        sv = sv * rr[e] + ve[i];
      }
      for (int k = 0; k < len[e] - 1; k++)
        ds += ve[k + 1];
      int bad = !same_bits_or_nan(&q[e], &w1, 4, 1) ||
                !same_bits_or_nan(&r1[e], &w2, 8, 1) ||
                !same_bits_or_nan(&dp[e], &d, 8, 1) ||
                !same_bits_or_nan(&g1[e], &d, 8, 1) ||
                !same_bits_or_nan(&r2[e], &w3, 8, 1) ||
                !same_bits_or_nan(&r3[e], &w4, 8, 1) ||
                !close_to(dr[e], ds, 1e-12) || !close_to(dx[e], d, 1e-12);
      for (int i = 0; i < ST; i++) {
        double g = 0.0;
        if (i < len[e]) {
          /* (fabs' derivative at 0 is 1, as the dual numbers' and the
           * derivative table's: equal neighbours occur.) */
          if (i > 0)
            g += ve[i] - ve[i - 1] < 0 ? -1.0 : 1.0;
          if (i + 1 < len[e])
            g -= ve[i + 1] - ve[i] < 0 ? -1.0 : 1.0;
          g += (i > 0 ? 0.5 : 0.0) - (i + 1 < len[e] ? 0.5 : 0.0);
        }
        bad |= dv_[e * ST + i] != g;
      }
      if (bad) {
        print_error("n=%zu e=%zu: chebev %a/%a polyd %a/%a dp %a %a/%a "
                    "tv %a/%a\n",
                    n, e, q[e], w1, r1[e], w2, dp[e], dx[e], d, r2[e], w3);
        fail();
      }
    }
    SAME_REPORTS(n, got, got_hash);
    gp_reset();
  }
}

/* casts and casts_z bit for bit over ragged lengths 0 .. ST, guard pages
 * after the last example; their gradients against central differences
 * (casts: quadratic in x and r, so the differences are exact to rounding). */
static void t_casts(void **state) {
  (void)state;
  rng_t rng = {name_seed("found_casts")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *v = gp_alloc(n * ST * 8), *rr = gp_alloc(n * 8);
    double *r1 = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *dv1 = gp_alloc(n * ST * 8), *dv2 = gp_alloc(n * ST * 8);
    double *dr = gp_alloc(n * 8);
    int *len = gp_alloc(n * sizeof(int));
    size_t *zlen = gp_alloc(n * sizeof(size_t));
    for (size_t e = 0; e < n; e++) {
      len[e] = (int)rng_below(&rng, ST + 1);
      zlen[e] = (size_t)len[e];
      rr[e] = rng_range(&rng, -1.5, 1.5);
      for (int i = 0; i < ST; i++)
        v[e * ST + i] = rng_range(&rng, -2, 2);
    }
    gp_seal(v), gp_seal(rr), gp_seal(len), gp_seal(zlen);
    casts_batched(n, v, ST, len, rr, r1);
    casts_z_batched(n, v, ST, zlen, r2);
    casts_grad(n, v, ST, len, rr, NULL, NULL, dv1, ST, dr);
    casts_z_grad(n, v, ST, zlen, NULL, NULL, dv2, ST);
    for (size_t e = 0; e < n; e++) {
      double ve[ST];
      memcpy(ve, v + e * ST, sizeof ve);
      double w1 = casts(ve, len[e], rr[e]), w2 = casts_z(ve, zlen[e]);
      const double h = 1e-5;
      int bad = !same_bits_or_nan(&r1[e], &w1, 8, 1) ||
                !same_bits_or_nan(&r2[e], &w2, 8, 1) ||
                !close_to(dr[e],
                          (casts(ve, len[e], rr[e] + h) -
                           casts(ve, len[e], rr[e] - h)) /
                              (2 * h),
                          1e-6);
      for (int i = 0; i < ST; i++) {
        double x0 = ve[i];
        ve[i] = x0 + h;
        double p1 = casts(ve, len[e], rr[e]), p2 = casts_z(ve, zlen[e]);
        ve[i] = x0 - h;
        double m1 = casts(ve, len[e], rr[e]), m2 = casts_z(ve, zlen[e]);
        ve[i] = x0;
        bad |= !close_to(dv1[e * ST + i], (p1 - m1) / (2 * h), 1e-6) ||
               !close_to(dv2[e * ST + i], (p2 - m2) / (2 * h), 1e-6);
      }
      if (bad) {
        print_error("n=%zu e=%zu len %d: casts %a/%a casts_z %a/%a d_r %a\n", n,
                    e, len[e], r1[e], w1, r2[e], w2, dr[e]);
        fail();
      }
    }
    gp_reset();
  }
}

/* conds bit for bit over ragged lengths 0 .. ST at the end of each
 * example's row, guard pages after the last; its gradient against central
 * differences. */
static void t_conds(void **state) {
  (void)state;
  rng_t rng = {name_seed("found_conds")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *v = gp_alloc(n * ST * 8), *tt = gp_alloc(n * 8);
    double *r = gp_alloc(n * 8), *dv = gp_alloc(n * ST * 8);
    double *dt = gp_alloc(n * 8);
    int *len = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      len[e] = (int)rng_below(&rng, ST + 1);
      tt[e] = rng_range(&rng, 0.5, 1.5);
      for (int i = 0; i < ST; i++)
        v[e * ST + i] = rng_range(&rng, -2, 2);
    }
    gp_seal(v), gp_seal(tt), gp_seal(len);
    conds_batched(n, v, ST, len, tt, r);
    conds_grad(n, v, ST, len, tt, NULL, NULL, dv, ST, dt);
    for (size_t e = 0; e < n; e++) {
      double ve[ST];
      memcpy(ve, v + e * ST, sizeof ve);
      double w = conds(ve, len[e], tt[e]);
      const double h = 1e-6;
      int bad = !same_bits_or_nan(&r[e], &w, 8, 1) ||
                !close_to(dt[e],
                          (conds(ve, len[e], tt[e] + h) -
                           conds(ve, len[e], tt[e] - h)) /
                              (2 * h),
                          1e-6);
      for (int i = 0; i < ST; i++) {
        double x0 = ve[i];
        ve[i] = x0 + h;
        double p = conds(ve, len[e], tt[e]);
        ve[i] = x0 - h;
        double m = conds(ve, len[e], tt[e]);
        ve[i] = x0;
        bad |= !close_to(dv[e * ST + i], (p - m) / (2 * h), 1e-6);
      }
      if (bad) {
        print_error("n=%zu e=%zu len %d: conds %a/%a d_t %a\n", n, e, len[e],
                    r[e], w, dt[e]);
        fail();
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_ranges),
      cmocka_unit_test(t_casts),
      cmocka_unit_test(t_conds),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_found_ranges", tests, NULL, NULL);
}
