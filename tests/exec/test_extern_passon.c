/* Pointers passed on to functions another file defines
 * (extern_passon_other.c), called once per example (docs/calls.md,
 * "Pointers passed on"): R's choose.c calls `lgammafn_sign(x, s_choose)`
 * with s_choose a pointer parameter of the annotated function, or a
 * helper's parameter bound to `&s_choose`, and lgammafn passes NULL (also
 * through helpers called with NULL and with a local's address, testing
 * their pointer with `if (d)` and `d ? *d : 0.5`). An array
 * parameter with an array per example is passed as the example's own array (the
 * callee gets the scalar loop's address: recorded and compared), a pointer to a
 * scalar local as `&v` is. For every n of ns, NAME_batched (NAME_grad,
 * _jvp, _hvp) must make exactly the scalar loop's calls (a lane that is off
 * makes none, and touches nothing: the arrays end at guard pages, and
 * elements no call reaches keep their sentinels), give its results and
 * leave the arrays bit for bit as the scalar loop, with 1 and 2 threads. */
#include "call_tally.h"
#include "exec_util.h"

#include "../common/test_filter.h"
#include "extern_passon.h"

#include <batchdiff/parallel.h>

/* ---- the callees' record ------------------------------------------------ */

/* Whether calls record the address they got: not for a pointer to a
 * scalar local (the batch passes a copy of the example's value). */
static int record_at = 1;

void xp_record(uint64_t tag, uint64_t v, const void *at) {
  record(tag, v ^ (record_at ? (uint64_t)(uintptr_t)at * 0x9e37ULL : 0));
}

/* ---- annotated functions ------------------------------------------------ */

/* R's lfastchoose2 annotated itself: the sign's pointer is its parameter,
 * passed on, on some examples only, 0 to 3 times. */
__attribute__((batch)) double lchoose_like(double n, int k, int *sign) {
  if (k < 0 || n >= k - 1)
    return (double)k - n;
  double s = 0.0;
  for (int i = 0; i < k % 4; i++)
    s += xp_lgamma_sign(n - k + 1.0 + i, sign);
  return s;
}

/* R's choose: the helper's pointer parameter is bound to a scalar local. */
static double lfast2(double n, double k, int *s_choose) {
  double r = xp_lgamma_sign(n - k + 1., s_choose);
  return r;
}
__attribute__((batch)) double choose_like(double n, double k) {
  if (n < k - 1) {
    int s_choose = 7;
    double r = lfast2(n, k, &s_choose);
    return s_choose * r;
  }
  return n - k;
}

/* Through a helper, at an offset: each example's sg[0] or sg[1]. */
static double pass_on(double x, int *s) { return xp_lgamma_sign(x, s); }
__attribute__((batch)) double two_signs(double a, double b, int sg[2]) {
  double r = 0.0;
  if (a > 0.0)
    r += pass_on(a, sg);
  if (b > 0.0)
    r += pass_on(b, sg + 1);
  return r;
}

/* R's lgammafn: lgammafn_sign(x, NULL), no sign wanted; also through a
 * helper's parameter its call passes NULL. */
__attribute__((batch)) double lg_null(double x) {
  return x > 1.0 ? xp_lgamma_sign(x, NULL) : pass_on(x, NULL);
}

/* The same helpers called with NULL and with a local's address in one
 * function: each inlined call passes its own (pass_own its own local in
 * place of NULL, chosen by `s ? s : &own`). */
static double pass_own(double x, int *s) {
  int own = 2;
  int *p = s ? s : &own;
  return xp_lgamma_sign(x, p) * own;
}
__attribute__((batch)) double null_and_local(double x) {
  int k = 5;
  double a = pass_on(x, NULL);
  double b = pass_on(x + 1.0, &k);
  double c = pass_own(x - 1.0, NULL) + pass_own(x, &k);
  return a + b * k + c * k;
}

/* An optional out-parameter a helper tests (`if (d) *d = ...`, `d ? *d :
 * 0.5`), passed NULL by one call and a local's address by the other, and
 * passed on NULL to the outside call, whose value is only compared: the
 * batched values, gradients, tangents and H.v are the closed forms of
 * 54 x^3 + 37 x^2 + 0.5 + k x (k the sign, 1 where the call is not made). */
static double sq_out(double x, double *d) {
  if (d)
    *d = 2.0 * x;
  return x * x;
}
static double sq_plus(double x, double *d) {
  return sq_out(x, d) + (d ? *d : 0.5);
}
BATCHDIFF BD_JVP BD_HVP double opt_out(double x) {
  int k = 1;
  double d = 1.0;
  double a = sq_plus(x, NULL) + sq_plus(3.0 * x, &d) * d;
  if (pass_on(x, NULL) > 1.0)
    (void)pass_on(x, &k);
  return a + k * x;
}

/* 32-bit lanes: a short pointee, read and written by the callee and read
 * by the function. */
__attribute__((batch)) float bumpf(float x, short *e) {
  if (x > 0.5f)
    xp_bump(x, e);
  return x + (float)*e;
}

/* A read-only array per example passed on (ragged rows), at an offset. */
__attribute__((batch)) double sum_tail(int n, const double x[n], double a) {
  if (n == 0 || a < 0.0)
    return a;
  return a * xp_sum(x + 1, n - 1) + x[0];
}

/* A string per example, by pointer (BD_POINTERS: lanes listed per step). */
__attribute__((batch)) int code_of(BD_POINTERS const char *s, int k) {
  return k > 0 ? xp_code(s) + k : -k;
}

/* In a diff function: the callee's value is only compared, the sign an int
 * (no derivative), read after the call. */
BATCHDIFF BD_JVP BD_HVP double sgn_sq(double x, int *sg) {
  double l = xp_lgamma_sign(x, sg);
  if (l > 1.5)
    return x;
  return *sg * x * x;
}

/* ---- tests -------------------------------------------------------------- */

/* Sentinels: every element, also those between the examples' (stride 2). */
static void fill_ints(int *a, size_t len, rng_t *rng) {
  for (size_t i = 0; i < len; i++)
    a[i] = (int)rng_below(rng, 1000) - 500;
}

static void t_lchoose(void **state) {
  (void)state;
  rng_t rng = {name_seed("lchoose_like")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    int *k = gp_alloc(n * 4), *s0 = gp_alloc(n * 8), *s = gp_alloc(n * 8);
    int *keep = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -3.0, 12.0);
      k[e] = (int)rng_below(&rng, 16) - 2;
    }
    fill_ints(s0, 2 * n, &rng);
    gp_seal(x), gp_seal(k), gp_seal(s0);
    memcpy(s, s0, n * 8);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = lchoose_like(x[e], k[e], s + 2 * e);
    tally want = take();
    memcpy(keep, s, n * 8);
    /* The same array again: the calls get the scalar loop's addresses. */
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      memcpy(s, s0, n * 8);
      lchoose_like_batched(n, x, k, s, 2, r);
      tally got = take();
      SAME_CALLS("lchoose_like_batched", n, want, got);
      assert_memory_equal(r, r2, n * 8);
      assert_memory_equal(s, keep, n * 8);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

static void t_choose(void **state) {
  (void)state;
  rng_t rng = {name_seed("choose_like")};
  record_at = 0;
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -3.0, 12.0);
      y[e] = rng_range(&rng, 0.0, 14.0);
    }
    gp_seal(x), gp_seal(y);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = choose_like(x[e], y[e]);
    tally want = take();
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      choose_like_batched(n, x, y, r);
      tally got = take();
      SAME_CALLS("choose_like_batched", n, want, got);
      assert_memory_equal(r, r2, n * 8);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
  record_at = 1;
}

static void t_two_signs(void **state) {
  (void)state;
  rng_t rng = {name_seed("two_signs")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *a = gp_alloc(n * 8), *b = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8);
    int *s0 = gp_alloc(n * 8), *s = gp_alloc(n * 8), *keep = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      a[e] = rng_range(&rng, -2.0, 6.0);
      b[e] = rng_range(&rng, -2.0, 6.0);
    }
    fill_ints(s0, 2 * n, &rng);
    gp_seal(a), gp_seal(b), gp_seal(s0);
    memcpy(s, s0, n * 8);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = two_signs(a[e], b[e], s + 2 * e);
    tally want = take();
    memcpy(keep, s, n * 8);
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      memcpy(s, s0, n * 8);
      two_signs_batched(n, a, b, s, 2, r);
      tally got = take();
      SAME_CALLS("two_signs_batched", n, want, got);
      assert_memory_equal(r, r2, n * 8);
      assert_memory_equal(s, keep, n * 8);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

static void t_lg_null(void **state) {
  (void)state;
  rng_t rng = {name_seed("lg_null")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      x[e] = rng_range(&rng, -3.0, 5.0);
    gp_seal(x);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = lg_null(x[e]);
    tally want = take();
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      lg_null_batched(n, x, r);
      tally got = take();
      SAME_CALLS("lg_null_batched", n, want, got);
      assert_memory_equal(r, r2, n * 8);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

static void t_null_and_local(void **state) {
  (void)state;
  rng_t rng = {name_seed("null_and_local")};
  record_at = 0;
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      x[e] = rng_range(&rng, -3.0, 5.0);
    gp_seal(x);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = null_and_local(x[e]);
    tally want = take();
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      null_and_local_batched(n, x, r);
      tally got = take();
      SAME_CALLS("null_and_local_batched", n, want, got);
      assert_memory_equal(r, r2, n * 8);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
  record_at = 1;
}

static void t_opt_out(void **state) {
  (void)state;
  rng_t rng = {name_seed("opt_out")};
  record_at = 0;
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8);
    modes m = modes_alloc(n);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -3.0, 5.0);
      modes_fill(&m, &rng, e);
    }
    gp_seal(x), modes_seal(&m);
    take();
    for (size_t e = 0; e < n; e++)
      m.r2[e] = opt_out(x[e]);
    tally want = take();
    SAME_CALLS_4(opt_out, n, want, m, x);
    for (size_t e = 0; e < n; e++) {
      double v = x[e], f = v - (double)(long)v;
      int k = v * 0.5 + f > 1.0 ? (f < 0.25 ? -1 : 1) : 1;
      double g = 162.0 * v * v + 74.0 * v + k;
      double hv = (324.0 * v + 74.0) * m.t[e];
      if (!modes_close(&m, e, g, hv, 1e-13)) {
        print_error("opt_out e=%zu x=%g: grad %g/%g jvp %g hvp %g want %g %g "
                    "%g\n",
                    e, v, m.d[e], m.d2[e], m.dt[e], m.h[e], g, m.t[e] * g, hv);
        fail();
      }
    }
    gp_reset();
  }
  record_at = 1;
}

static void t_bumpf(void **state) {
  (void)state;
  rng_t rng = {name_seed("bumpf")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    float *x = gp_alloc(n * 4), *r = gp_alloc(n * 4), *r2 = gp_alloc(n * 4);
    short *e0 = gp_alloc(n * 2), *ev = gp_alloc(n * 2), *keep = gp_alloc(n * 2);
    for (size_t e = 0; e < n; e++) {
      x[e] = (float)rng_range(&rng, 0.0, 2.0);
      e0[e] = (short)((int)rng_below(&rng, 30) - 15);
    }
    gp_seal(x), gp_seal(e0);
    memcpy(ev, e0, n * 2);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = bumpf(x[e], ev + e);
    tally want = take();
    memcpy(keep, ev, n * 2);
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      memcpy(ev, e0, n * 2);
      bumpf_batched(n, x, ev, 1, r);
      tally got = take();
      SAME_CALLS("bumpf_batched", n, want, got);
      assert_memory_equal(r, r2, n * 4);
      assert_memory_equal(ev, keep, n * 2);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

/* Ragged rows of up to 6 elements; the batch's last row ends at a guard
 * page, and a row's elements past its own n are NaN (read, they would show
 * in the calls' record). */
static void t_sum_tail(void **state) {
  (void)state;
  rng_t rng = {name_seed("sum_tail")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni], S = 6;
    int *len = gp_alloc(n * 4);
    double *x = gp_alloc(n * S * 8), *a = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      len[e] = e + 1 == n ? (int)S : (int)rng_below(&rng, S + 1);
      a[e] = rng_range(&rng, -1.0, 3.0);
      for (size_t i = 0; i < S; i++)
        x[e * S + i] = (int)i < len[e] ? rng_range(&rng, -2.0, 2.0) : NAN;
    }
    gp_seal(len), gp_seal(x), gp_seal(a);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = sum_tail(len[e], x + e * S, a[e]);
    tally want = take();
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      sum_tail_batched(n, len, x, (ptrdiff_t)S, a, r);
      tally got = take();
      SAME_CALLS("sum_tail_batched", n, want, got);
      assert_memory_equal(r, r2, n * 8);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

static void t_code_of(void **state) {
  (void)state;
  rng_t rng = {name_seed("code_of")};
  static const char *const words[] = {"", "a", "UTC", "TAI", "longer word"};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    const char **p = gp_alloc(n * sizeof *p);
    int *k = gp_alloc(n * 4), *r = gp_alloc(n * 4), *r2 = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++) {
      p[e] = words[rng_below(&rng, 5)];
      k[e] = (int)rng_below(&rng, 7) - 3;
    }
    gp_seal(p), gp_seal(k);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = code_of(p[e], k[e]);
    tally want = take();
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      code_of_batched(n, p, k, r);
      tally got = take();
      SAME_CALLS("code_of_batched", n, want, got);
      assert_memory_equal(r, r2, n * 4);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

static void t_sgn_sq(void **state) {
  (void)state;
  rng_t rng = {name_seed("sgn_sq")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8);
    int *s0 = gp_alloc(n * 4), *s = gp_alloc(n * 4), *keep = gp_alloc(n * 4);
    modes m = modes_alloc(n);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -3.0, 5.0);
      modes_fill(&m, &rng, e);
    }
    fill_ints(s0, n, &rng);
    gp_seal(x), gp_seal(s0), modes_seal(&m);
    memcpy(s, s0, n * 4);
    take();
    for (size_t e = 0; e < n; e++)
      m.r2[e] = sgn_sq(x[e], s + e);
    tally want = take();
    memcpy(keep, s, n * 4);
    double *r = m.r;
#define AGAIN(what, call)                                                      \
  do {                                                                         \
    memcpy(s, s0, n * 4);                                                      \
    call;                                                                      \
    tally got = take();                                                        \
    SAME_CALLS(what, n, want, got);                                            \
    assert_memory_equal(s, keep, n * 4);                                       \
  } while (0)
    AGAIN("sgn_sq_batched", sgn_sq_batched(n, x, s, 1, r));
    assert_memory_equal(r, m.r2, n * 8);
    AGAIN("sgn_sq_grad", sgn_sq_grad(n, x, s, 1, r, m.dr, m.d));
    assert_memory_equal(r, m.r2, n * 8);
    AGAIN("sgn_sq_jvp", sgn_sq_jvp(n, x, s, 1, m.t, r, m.dt));
    AGAIN("sgn_sq_hvp", sgn_sq_hvp(n, x, s, 1, m.t, r, NULL, m.d2, m.h));
#undef AGAIN
    for (size_t e = 0; e < n; e++) {
      double f = x[e] - (double)(long)x[e];
      double l = x[e] * 0.5 + f;
      int sg = f < 0.25 ? -1 : 1;
      double g = l > 1.5 ? 1.0 : 2.0 * sg * x[e];
      double hv = l > 1.5 ? 0.0 : 2.0 * sg * m.t[e];
      if (!modes_close(&m, e, g, hv, 1e-15)) {
        print_error("sgn_sq e=%zu x=%g: grad %g/%g jvp %g hvp %g want %g %g "
                    "%g\n",
                    e, x[e], m.d[e], m.d2[e], m.dt[e], m.h[e], g, m.t[e] * g,
                    hv);
        fail();
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_lchoose),   cmocka_unit_test(t_choose),
      cmocka_unit_test(t_two_signs), cmocka_unit_test(t_lg_null),
      cmocka_unit_test(t_null_and_local), cmocka_unit_test(t_opt_out),
      cmocka_unit_test(t_bumpf),     cmocka_unit_test(t_sum_tail),
      cmocka_unit_test(t_code_of),   cmocka_unit_test(t_sgn_sq),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_extern_passon", tests, NULL, NULL);
}
