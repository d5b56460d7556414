/* Calls of functions another file defines (extern_out_other.c) with
 * out-pointers and tables, as R's nmath calls them (docs/calls.md, "Calls
 * of outside functions"): `ebd0(x, l, &yh, &yl)`, `bratio(a, b, x, y, &w,
 * &wc, &ierr, log_p)`, `chebyshev_eval(t, gamcs, n)` with a static local
 * table, cephes' `polevl(x, P, N)` with a file-scope one. Each callee
 * records its call, its arguments, what its pointees held before the call
 * and the table elements it read (a multiset hash and a count). For every n
 * of ns (40000: the runtime's threads), NAME_batched (NAME_grad, _jvp,
 * _hvp) must make exactly the scalar loop's calls (a lane that is off
 * makes none), and give its results bit for bit; the gradients of a diff
 * function whose call results are only flags and comparisons against
 * closed forms. Ragged rows end at guard pages. */
#include "call_tally.h"
#include "exec_util.h"

#include "../common/test_filter.h"
#include "extern_out.h"

/* ---- the callees' record ------------------------------------------------ */

void xo_record(uint64_t tag, uint64_t v) { record(tag, v); }

const double xo_P[5] = {0x1.8p-3, -0x1.5555555555555p-2, 0x1p-1, 3.0, -7.25};
static const double Q[4] = {-0x1.2p-4, 0.75, 0x1.999999999999ap-4, 1.5};

/* ---- annotated functions ------------------------------------------------ */

/* R's dpois_raw: early returns around the call, whose two out-pointers
 * (uninitialized before it) are read after it. */
__attribute__((batch)) double dpois_like(double x, double lam) {
  double yh, yl;
  if (lam == 0.0)
    return x == 0.0 ? 1.0 : 0.0;
  if (x < 0.0)
    return 0.0;
  if (x <= lam * 0.1)
    return lam - x;
  xo_ebd0(x, lam, &yh, &yl);
  yl += 0.5 * x;
  return -(yh + yl) / sqrt(x);
}

/* A callee that reads and writes its pointees, in a loop each example
 * leaves when the callee says so; the address of a uniform parameter and
 * of varying parameters (double and int). */
__attribute__((batch)) double accum(double x, int n, BD_UNIFORM double s) {
  double acc = x;
  int cnt = 0;
  for (int i = 0; i < n; i++)
    if (x > 0.5 * i && xo_accum(&acc, x * i, &cnt))
      break;
  if (n > 2)
    xo_accum(&s, acc, &cnt);
  if (x < 0.0)
    xo_accum(&x, 1.0, &n);
  return acc + s + cnt + x + n;
}

/* In a diff function: bratio's values are only compared and its error flag
 * only tested; ebd0's from BD_NODIFF inputs carry no derivative. */
BATCHDIFF BD_JVP BD_HVP double guarded(double x, BD_NODIFF double a, int k) {
  double w = 0.0, wc = 0.0, yh = 0.0, yl = 0.0;
  int ierr = 0;
  xo_bratio(a, 2.0, x, 1.0 - x, &w, &wc, &ierr, k & 1);
  if (ierr)
    return 0.0;
  xo_ebd0(a + 1.0, 3.0, &yh, &yl);
  double f = w > 0.25 ? 2.0 : 1.0;
  return f * x * x + yh * x + yl;
}

/* The same in a loop: the reverse sweep reads each iteration's flag and
 * comparison back from the tape. */
BATCHDIFF double guarded_loop(double x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    int ierr = 0;
    double w = 0.0, wc = 0.0;
    xo_bratio(1.0 + i, 2.0, x, 1.0 - x, &w, &wc, &ierr, 0);
    if (ierr)
      break;
    s += x * (i + 1) * (w < 0.5 ? 1.0 : -1.0);
  }
  return s;
}

/* R's gammafn: chebyshev_eval(t, gamcs, n) with a static local table. */
__attribute__((batch)) double gamma_like(double x) {
  const static double gamcs[10] = {+.8571195590989331421920062399942e-2,
                                   +.4415381324841006757191315771652e-2,
                                   +.5685043681599363378632664588789e-1,
                                   -.4219835396418560501012500186624e-2,
                                   +.1326808181212460220584006796352e-2,
                                   -.1893024529798880432523947023886e-3,
                                   +.3606925327441245256578082217225e-4,
                                   -.6056761904460864218485548290365e-5,
                                   +.1055829546302283344731823509093e-5,
                                   -0x1p-1074};
  if (x < -10.0 || x > 10.0)
    return 0.0;
  int n = (int)x;
  if (x < 0)
    --n;
  double y = x - n;
  --n;
  double value = xo_cheb(y * 2 - 1, gamcs, 10) + .9375;
  if (n == 0)
    return value;
  if (n < 0) {
    for (int i = 0; i < -n; i++)
      value /= (x + i);
    return value;
  }
  for (int i = 1; i <= n; i++)
    value *= (y + i);
  return value;
}

/* A static local table of floats, with 32-bit lanes. */
__attribute__((batch)) float chebf(float x) {
  static const float c[4] = {1.5f, -0.25f, 0x1p-20f, 3.0f};
  return x > 0.5f ? xo_chebf(x, c, 4) : x;
}

/* cephes' polevl with file-scope tables (one the callee knows by address),
 * on ragged rows. */
__attribute__((batch)) double poly(int n, const double x[n]) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x[i] > 0.0 ? xo_polevl(x[i], xo_P, 4) : xo_polevl(-x[i], Q, 3);
  return s;
}

/* 32-bit lanes: float, short and unsigned pointees. */
__attribute__((batch)) float splitf(float x, int k) {
  float hi = 0.5f;
  short e = (short)k;
  unsigned u = 7u;
  if (x > 0.25f)
    xo_splitf(x, &hi, &e, &u);
  return hi + (float)e + (float)(u & 15u);
}

/* 64-bit lanes: long, unsigned long and a float among doubles. */
__attribute__((batch)) long widel(double x, long k) {
  long kk = k;
  unsigned long m = 3;
  float f = 1.5f;
  if (k != 2)
    xo_wide(x, &kk, &m, &f);
  return kk + (long)(m >> 3) + (long)f;
}

/* A C library function without a batched version that takes an
 * out-pointer: called once per example too (lgamma_r was one until
 * 3a6e41b; it is batched now: exec_lgamma_r). */
__attribute__((batch)) double libout(double x, double y) {
  int q = 0;
  double r = remquo(x, y, &q);
  return r + q;
}

/* ---- tests -------------------------------------------------------------- */

static void t_dpois(void **state) {
  (void)state;
  rng_t rng = {name_seed("dpois_like")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *l = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      unsigned c = rng_below(&rng, 8);
      x[e] = c == 0 ? -1.0 : c == 1 ? 0.0 : rng_range(&rng, 0.0, 30.0);
      l[e] = c == 2 ? 0.0 : rng_range(&rng, 0.1, 40.0);
    }
    gp_seal(x), gp_seal(l);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = dpois_like(x[e], l[e]);
    tally want = take();
    dpois_like_batched(n, x, l, r);
    tally got = take();
    SAME_CALLS("dpois_like_batched", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    gp_reset();
  }
}

static void t_accum(void **state) {
  (void)state;
  rng_t rng = {name_seed("accum")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    int *k = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -2.0, 6.0);
      k[e] = (int)rng_below(&rng, 12);
    }
    gp_seal(x), gp_seal(k);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = accum(x[e], k[e], 0.75);
    tally want = take();
    accum_batched(n, x, k, 0.75, r);
    tally got = take();
    SAME_CALLS("accum_batched", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    gp_reset();
  }
}

static void t_guarded(void **state) {
  (void)state;
  rng_t rng = {name_seed("guarded")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *a = gp_alloc(n * 8);
    int *k = gp_alloc(n * 4);
    modes m = modes_alloc(n);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -0.2, 1.2);
      a[e] = rng_below(&rng, 6) == 0 ? -1.0 : rng_range(&rng, 0.1, 3.0);
      k[e] = (int)rng_below(&rng, 4);
      modes_fill(&m, &rng, e);
    }
    gp_seal(x), gp_seal(a), gp_seal(k), modes_seal(&m);
    take();
    for (size_t e = 0; e < n; e++)
      m.r2[e] = guarded(x[e], a[e], k[e]);
    tally want = take();
    SAME_CALLS_4(guarded, n, want, m, x, a, k);
    for (size_t e = 0; e < n; e++) {
      double w, wc, yh, yl;
      int ierr;
      xo_bratio(a[e], 2.0, x[e], 1.0 - x[e], &w, &wc, &ierr, k[e] & 1);
      xo_ebd0(a[e] + 1.0, 3.0, &yh, &yl);
      double f = w > 0.25 ? 2.0 : 1.0;
      double g = ierr ? 0.0 : 2.0 * f * x[e] + yh;
      double hv = ierr ? 0.0 : 2.0 * f * m.t[e];
      if (!modes_close(&m, e, g, hv, 1e-15)) {
        print_error("guarded e=%zu x=%g a=%g: grad %g/%g jvp %g hvp %g want "
                    "%g %g %g\n",
                    e, x[e], a[e], m.d[e], m.d2[e], m.dt[e], m.h[e], g,
                    m.t[e] * g, hv);
        fail();
      }
    }
    take();
    gp_reset();
  }
}

static void t_guarded_loop(void **state) {
  (void)state;
  rng_t rng = {name_seed("guarded_loop")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *d = gp_alloc(n * 8), *dr = gp_alloc(n * 8);
    int *k = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -0.2, 1.2);
      k[e] = (int)rng_below(&rng, 9);
      dr[e] = rng_range(&rng, -2.0, 2.0);
      d[e] = 0.0;
    }
    gp_seal(x), gp_seal(k), gp_seal(dr);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = guarded_loop(x[e], k[e]);
    tally want = take();
    guarded_loop_batched(n, x, k, r);
    tally got = take();
    SAME_CALLS("guarded_loop_batched", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    guarded_loop_grad(n, x, k, r, dr, d);
    got = take();
    SAME_CALLS("guarded_loop_grad", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    for (size_t e = 0; e < n; e++) {
      double g = 0.0;
      for (int i = 0; i < k[e]; i++) {
        double w, wc;
        int ierr;
        xo_bratio(1.0 + i, 2.0, x[e], 1.0 - x[e], &w, &wc, &ierr, 0);
        if (ierr)
          break;
        g += (i + 1) * (w < 0.5 ? 1.0 : -1.0);
      }
      if (!close_to(d[e], dr[e] * g, 1e-15)) {
        print_error("guarded_loop e=%zu x=%g n=%d: grad %g want %g\n", e, x[e],
                    k[e], d[e], dr[e] * g);
        fail();
      }
    }
    take();
    gp_reset();
  }
}

static void t_tables(void **state) {
  (void)state;
  rng_t rng = {name_seed("tables")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    float *xf = gp_alloc(n * 4), *rf = gp_alloc(n * 4), *rf2 = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -12.0, 12.0);
      xf[e] = (float)rng_range(&rng, 0.0, 2.0);
    }
    gp_seal(x), gp_seal(xf);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = gamma_like(x[e]);
    tally want = take();
    gamma_like_batched(n, x, r);
    tally got = take();
    SAME_CALLS("gamma_like_batched", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    for (size_t e = 0; e < n; e++)
      rf2[e] = chebf(xf[e]);
    want = take();
    chebf_batched(n, xf, rf);
    got = take();
    SAME_CALLS("chebf_batched", n, want, got);
    assert_memory_equal(rf, rf2, n * 4);
    gp_reset();
  }
}

/* Ragged rows of up to 6 elements; the batch's last row ends at a guard
 * page, and a row's elements past its own n are NaN (read, they would show
 * in the calls). */
static void t_poly(void **state) {
  (void)state;
  rng_t rng = {name_seed("poly")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni], S = 6;
    int *len = gp_alloc(n * 4);
    double *x = gp_alloc(n * S * 8), *r = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      len[e] = e + 1 == n ? (int)S : (int)rng_below(&rng, S + 1);
      for (size_t i = 0; i < S; i++)
        x[e * S + i] = (int)i < len[e] ? rng_range(&rng, -2.0, 2.0) : NAN;
    }
    gp_seal(len), gp_seal(x);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = poly(len[e], x + e * S);
    tally want = take();
    poly_batched(n, len, x, (ptrdiff_t)S, r);
    tally got = take();
    SAME_CALLS("poly_batched", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    gp_reset();
  }
}

static void t_lanes(void **state) {
  (void)state;
  rng_t rng = {name_seed("lanes")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    float *x = gp_alloc(n * 4), *r = gp_alloc(n * 4), *r2 = gp_alloc(n * 4);
    int *k = gp_alloc(n * 4);
    double *xd = gp_alloc(n * 8);
    long *kl = gp_alloc(n * 8), *rl = gp_alloc(n * 8), *rl2 = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      x[e] = (float)rng_range(&rng, 0.0, 8.0);
      k[e] = (int)rng_below(&rng, 200) - 100;
      xd[e] = rng_range(&rng, -4.0, 4.0);
      kl[e] = (long)rng_below(&rng, 5);
    }
    gp_seal(x), gp_seal(k), gp_seal(xd), gp_seal(kl);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = splitf(x[e], k[e]);
    tally want = take();
    splitf_batched(n, x, k, r);
    tally got = take();
    SAME_CALLS("splitf_batched", n, want, got);
    assert_memory_equal(r, r2, n * 4);
    for (size_t e = 0; e < n; e++)
      rl2[e] = widel(xd[e], kl[e]);
    want = take();
    widel_batched(n, xd, kl, rl);
    got = take();
    SAME_CALLS("widel_batched", n, want, got);
    assert_memory_equal(rl, rl2, n * 8);
    gp_reset();
  }
}

static void t_libout(void **state) {
  (void)state;
  rng_t rng = {name_seed("libout")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -5.0, 9.0);
      y[e] = rng_range(&rng, 0.5, 3.0);
    }
    gp_seal(x), gp_seal(y);
    for (size_t e = 0; e < n; e++)
      r2[e] = libout(x[e], y[e]);
    libout_batched(n, x, y, r);
    assert_memory_equal(r, r2, n * 8);
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_dpois),   cmocka_unit_test(t_accum),
      cmocka_unit_test(t_guarded), cmocka_unit_test(t_guarded_loop),
      cmocka_unit_test(t_tables),  cmocka_unit_test(t_poly),
      cmocka_unit_test(t_lanes),   cmocka_unit_test(t_libout),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_extern_out", tests, NULL, NULL);
}
