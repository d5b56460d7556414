/* File-scope tables that are not const, which the file only passes whole to
 * functions another file defines (extern_table_other.c), as cephes passes
 * its coefficient tables, `static double P[] = {...};`, to polevl and p1evl
 * (declared `(double, void *, int)`), and `static char fname[] = {"erfc"};`
 * to mtherr (docs/calls.md, "Calls of outside functions"): passed as they
 * are, once per example. Nothing here reads or writes them otherwise (the
 * tests too only pass them), else they would be refused (call-extern-table).
 * For every n of ns (40000: the runtime's threads), NAME_batched (and
 * NAME_grad) must make exactly the scalar loop's calls, with the same table
 * addresses, and give its results bit for bit; a callee that writes its
 * table, called at one place, sees the scalar loop's order of calls. A
 * global such a callee writes (cephes' sgngam, which lgam sets) is read
 * after each call as the example's call left it. */
#include "call_tally.h"
#include "exec_util.h"

#include "../common/test_filter.h"

/* As cephes' files declare polevl, p1evl and mtherr. */
double xt_polevl(double, void *, int);
double xt_p1evl(double, void *, int);
int xt_err(char *, int);
double xt_push(double, double *);
void xt_reset(double *);
/* As cephes' beta declares lgam's sign and gamma.c defines it; xt_eps as
 * cephes' MACHEP (const.c), which no callee writes. */
double xt_lgam(double);
extern int xt_sign;
extern double xt_eps;

void xt_record(uint64_t tag, uint64_t v) { record(tag, v); }

static double P[] = {1.0, -3.0, 0.5, 2.0, -1.0};
static double Q[] = {/* 1.0, */ 0.25, 3.5, 1.75, 2.0};
static double R[] = {0.5641895835, 1.2753667076, 5.0190504225, 6.1602109799};
static double S[] = {/* 1.0, */ 2.2605286322, 9.3960352493, 12.048953980};
static char fname[] = {"rat"};
/* Written by xt_push: the last value and a running sum. */
static double hist[2];

/* cephes' erfce: the tables chosen by range (inlined where it is called). */
static double ratio(double x) {
  if (x < 2.0)
    return xt_polevl(x, P, 4) / xt_p1evl(x, Q, 4);
  return xt_polevl(x, R, 3) / xt_p1evl(x, S, 3);
}

/* cephes' erfc: an error exit reached by a goto, reporting with the name
 * in a char table. */
__attribute__((batch)) double rat(double a) {
  double x, y;
  x = a < 0 ? -a : a;
  if (x > 30.0) {
  under:
    xt_err(fname, 4);
    return a < 0 ? 2.0 : 0.0;
  }
  y = ratio(x) / (1.0 + x * x);
  if (y < 0.0)
    goto under;
  if (a < 0)
    y = 2.0 - y;
  return y;
}

/* The same tables passed at several places: each example's calls. */
__attribute__((batch)) double twice(double x, int k) {
  double s = ratio(x);
  if (k & 1)
    s += ratio(0.5 * x);
  for (int i = 0; i < (k >> 1); i++)
    s = 0.5 * s + xt_polevl(s, P, 4);
  return s;
}

/* A callee that writes the table it is given, called at one place. */
__attribute__((batch)) double running(double x) {
  if (x < -1.0)
    return x;
  return xt_push(x, hist) * x;
}

/* In a diff function, from a BD_NODIFF input: no derivative through it. */
BATCHDIFF double scaled(double x, BD_NODIFF double a) {
  return x * x * xt_polevl(a, P, 4) + xt_p1evl(a, Q, 4);
}

/* cephes' beta: the sign of each lgam call read from the global it sets. */
__attribute__((batch)) double signed_sum(double a, double b) {
  int sign = 1;
  double y;
  if (a == 0.0)
    return xt_eps;
  y = xt_lgam(a);
  sign *= xt_sign;
  y += xt_lgam(b);
  sign *= xt_sign;
  if (y > 10.0)
    return sign * xt_eps * y;
  return sign * y;
}

/* The same in a loop with per-example trips: each iteration reads what
 * the call of the iteration before left. */
__attribute__((batch)) double sign_walk(double x, int n) {
  double s = 0.0, v = x;
  for (int i = 0; i < n; i++) {
    v = xt_lgam(v - 1.5);
    s += xt_sign * v + xt_eps;
  }
  return s;
}

/* In a diff function, after a call whose value is only compared: the
 * globals read back carry no derivative (as before the call). */
BATCHDIFF double eps_scaled(double x) {
  if (xt_lgam(x) > 1.0)
    return xt_eps * 0x1p40 * x * x + xt_sign * x;
  return x;
}

/* ---- tests -------------------------------------------------------------- */

static void t_rat(void **state) {
  (void)state;
  rng_t rng = {name_seed("rat")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *a = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      unsigned c = rng_below(&rng, 8);
      a[e] = c == 0   ? rng_range(&rng, -60.0, 60.0)
             : c == 1 ? 0.0
                      : rng_range(&rng, -4.0, 4.0);
    }
    gp_seal(a);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = rat(a[e]);
    tally want = take();
    rat_batched(n, a, r);
    tally got = take();
    SAME_CALLS("rat_batched", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    gp_reset();
  }
}

static void t_twice(void **state) {
  (void)state;
  rng_t rng = {name_seed("twice")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    int *k = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, 0.0, 5.0);
      k[e] = (int)rng_below(&rng, 8);
    }
    gp_seal(x), gp_seal(k);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = twice(x[e], k[e]);
    tally want = take();
    twice_batched(n, x, k, r);
    tally got = take();
    SAME_CALLS("twice_batched", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    gp_reset();
  }
}

static void t_running(void **state) {
  (void)state;
  rng_t rng = {name_seed("running")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      x[e] = rng_range(&rng, -2.0, 3.0);
    gp_seal(x);
    xt_reset(hist);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = running(x[e]);
    tally want = take();
    xt_reset(hist);
    running_batched(n, x, r);
    tally got = take();
    SAME_CALLS("running_batched", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    gp_reset();
  }
}

static void t_scaled(void **state) {
  (void)state;
  rng_t rng = {name_seed("scaled")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *a = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8), *dr = gp_alloc(n * 8), *d = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -3.0, 3.0);
      a[e] = rng_range(&rng, -2.0, 2.0);
      dr[e] = rng_range(&rng, -2.0, 2.0);
      d[e] = 0.0;
    }
    gp_seal(x), gp_seal(a), gp_seal(dr);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = scaled(x[e], a[e]);
    tally want = take();
    scaled_batched(n, x, a, r);
    tally got = take();
    SAME_CALLS("scaled_batched", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    scaled_grad(n, x, a, r, dr, d);
    got = take();
    SAME_CALLS("scaled_grad", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    for (size_t e = 0; e < n; e++) {
      double g = dr[e] * 2.0 * x[e] * xt_polevl(a[e], P, 4);
      if (!close_to(d[e], g, 1e-15)) {
        print_error("scaled e=%zu x=%g a=%g: grad %g want %g\n", e, x[e], a[e],
                    d[e], g);
        fail();
      }
    }
    take();
    gp_reset();
  }
}

static void t_signs(void **state) {
  (void)state;
  rng_t rng = {name_seed("signs")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *a = gp_alloc(n * 8), *b = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8);
    int *k = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++) {
      a[e] = rng_below(&rng, 9) == 0 ? 0.0 : rng_range(&rng, -30.0, 30.0);
      b[e] = rng_range(&rng, -4.0, 4.0);
      k[e] = (int)rng_below(&rng, 7);
    }
    gp_seal(a), gp_seal(b), gp_seal(k);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = signed_sum(a[e], b[e]);
    tally want = take();
    signed_sum_batched(n, a, b, r);
    tally got = take();
    SAME_CALLS("signed_sum_batched", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    for (size_t e = 0; e < n; e++)
      r2[e] = sign_walk(b[e], k[e]);
    want = take();
    sign_walk_batched(n, b, k, r);
    got = take();
    SAME_CALLS("sign_walk_batched", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    gp_reset();
  }
}

static void t_eps_scaled(void **state) {
  (void)state;
  rng_t rng = {name_seed("eps_scaled")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *dr = gp_alloc(n * 8), *d = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -6.0, 6.0);
      dr[e] = rng_range(&rng, -2.0, 2.0);
      d[e] = 0.0;
    }
    gp_seal(x), gp_seal(dr);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = eps_scaled(x[e]);
    tally want = take();
    eps_scaled_batched(n, x, r);
    tally got = take();
    SAME_CALLS("eps_scaled_batched", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    eps_scaled_grad(n, x, r, dr, d);
    got = take();
    SAME_CALLS("eps_scaled_grad", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    for (size_t e = 0; e < n; e++) {
      double a = x[e] < 0.0 ? -x[e] : x[e];
      double g = 0.5 * a + 0.25 > 1.0
                     ? 2.0 * xt_eps * 0x1p40 * x[e] + (x[e] < 0.0 ? -1 : 1)
                     : 1.0;
      if (!close_to(d[e], dr[e] * g, 1e-15)) {
        print_error("eps_scaled e=%zu x=%g: grad %g want %g\n", e, x[e], d[e],
                    dr[e] * g);
        fail();
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_rat),     cmocka_unit_test(t_twice),
      cmocka_unit_test(t_running), cmocka_unit_test(t_scaled),
      cmocka_unit_test(t_signs),   cmocka_unit_test(t_eps_scaled),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_extern_table", tests, NULL, NULL);
}
