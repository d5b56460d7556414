/* Nested loops over per-example lengths left early, as users write them:
 * a return from the inner loop, a break out of it, a found flag in both
 * conditions, and an inner counter read after its loop. The inner loop's
 * counter stays one scalar for all lanes (analysis/LoopCounters.cpp: its
 * start is set in the outer loop's body) unless it is read after the loop,
 * and `a[i]`, the same on every inner trip, is read once per outer trip
 * (transforms/simplify/HoistInvariants.cpp). Lengths 0 .. S, the arrays
 * ending at a guard page; NAME_batched against the scalar function bit for
 * bit, NAME_grad against central differences (zero past each length),
 * n = 0 .. 37 examples. */
#include "exec_util.h"

#include "../common/test_filter.h"

BATCHDIFF double first_pair(const double *a, int n, const double *b, int m,
                            double thr) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      if (a[i] * b[j] > thr)
        return a[i] - b[j];
  return 0;
}

/* The first hit of each row, summed: break leaves the inner loop only. */
BATCHDIFF double row_hits(const double *a, int n, const double *b, int m,
                          double thr) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      if (a[i] * b[j] > thr) {
        s += a[i] * a[i] - b[j];
        break;
      }
  return s * thr;
}

BATCHDIFF double first_flag(int n, const double a[n], int m, const double b[m],
                            double thr) {
  int found = 0;
  double r = 0;
  for (int i = 0; i < n && !found; i++)
    for (int j = 0; j < m && !found; j++)
      if (a[i] * b[j] > thr) {
        r = a[i] * b[j] - thr;
        found = 1;
      }
  return r;
}

/* The inner counter read after its loop: per lane. */
BATCHDIFF double hit_at(const double *a, int n, const double *b, int m,
                        double thr) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    int j;
    for (j = 0; j < m; j++)
      if (a[i] + b[j] > thr)
        break;
    s += a[i] * (double)j;
  }
  return s;
}

typedef double (*fn_t)(const double *, int, const double *, int, double);
typedef void (*batched_t)(size_t, const double *, ptrdiff_t, const int *,
                          const double *, ptrdiff_t, const int *,
                          const double *, double *);
typedef void (*grad_t)(size_t, const double *, ptrdiff_t, const int *,
                       const double *, ptrdiff_t, const int *, const double *,
                       double *, const double *, double *, ptrdiff_t, double *,
                       ptrdiff_t, double *);

static double flag_fn(const double *a, int n, const double *b, int m,
                      double thr) {
  return first_flag(n, a, m, b, thr);
}
static void flag_batched(size_t N, const double *a, ptrdiff_t as, const int *n,
                         const double *b, ptrdiff_t bs, const int *m,
                         const double *thr, double *ret) {
  first_flag_batched(N, n, a, as, m, b, bs, thr, ret);
}
static void flag_grad(size_t N, const double *a, ptrdiff_t as, const int *n,
                      const double *b, ptrdiff_t bs, const int *m,
                      const double *thr, double *ret, const double *d_ret,
                      double *da, ptrdiff_t das, double *db, ptrdiff_t dbs,
                      double *dthr) {
  first_flag_grad(N, n, a, as, m, b, bs, thr, ret, d_ret, da, das, db, dbs,
                  dthr);
}

static void check_bits(const char *name, size_t n, size_t e, double got,
                       double want) {
  if (memcmp(&got, &want, sizeof want) != 0)
    fail_msg("%s n=%zu example %zu: %a, scalar %a", name, n, e, got, want);
}

enum { S = 9 };

static void check(const char *name, fn_t f, batched_t fb, grad_t fg) {
  rng_t r = {name_seed(name)};
  for (size_t n = 0; n <= 37; n++) {
    /* each array ends at its guard page */
    double *a = gp_alloc((n ? n * S : 1) * 8),
           *b = gp_alloc((n ? n * S : 1) * 8);
    double *da = gp_alloc((n * S + 1) * 8), *db = gp_alloc((n * S + 1) * 8);
    double *thr = gp_alloc((n + 1) * 8), *dthr = gp_alloc((n + 1) * 8);
    double *ret = gp_alloc((n + 1) * 8), *ret2 = gp_alloc((n + 1) * 8);
    int *la = gp_alloc((n + 1) * sizeof(int)),
        *lb = gp_alloc((n + 1) * sizeof(int));
    for (size_t i = 0; i < n * S; i++) {
      a[i] = -1.0 + 2.0 * rng_unit(&r), da[i] = 0.0;
      b[i] = -1.0 + 2.0 * rng_unit(&r), db[i] = 0.0;
    }
    for (size_t e = 0; e < n; e++) {
      la[e] = (int)rng_below(&r, S + 1);
      lb[e] = (int)rng_below(&r, S + 1);
      thr[e] = 0.2 + 0.7 * rng_unit(&r), dthr[e] = 0.0;
    }
    fb(n, a, S, la, b, S, lb, thr, ret);
    fg(n, a, S, la, b, S, lb, thr, ret2, NULL, da, S, db, S, dthr);
    for (size_t e = 0; e < n; e++) {
      double *ae = a + S * e, *be = b + S * e, h = 1e-7;
      double want = f(ae, la[e], be, lb[e], thr[e]);
      check_bits(name, n, e, ret[e], want);
      check_bits(name, n, e, ret2[e], want);
      for (int k = 0; k <= 2 * S; k++) {
        double *p = k < S ? &ae[k] : k < 2 * S ? &be[k - S] : &thr[e];
        double g = k < S       ? da[S * e + k]
                   : k < 2 * S ? db[S * e + k - S]
                               : dthr[e];
        if ((k < S && k >= la[e]) || (k >= S && k < 2 * S && k - S >= lb[e])) {
          if (g != 0.0)
            fail_msg("%s n=%zu example %zu: gradient %a at %d, past the length",
                     name, n, e, g, k);
          continue;
        }
        double x0 = *p;
        *p = x0 + h;
        double fp = f(ae, la[e], be, lb[e], thr[e]);
        *p = x0 - h;
        double fm = f(ae, la[e], be, lb[e], thr[e]);
        *p = x0;
        if (fabs(fp - want) > 1e-3 || fabs(fm - want) > 1e-3)
          continue; /* another pair hit within h */
        double fd = (fp - fm) / (2 * h);
        if (!(fabs(g - fd) <= 1e-6 * (1.0 + fabs(fd))))
          fail_msg("%s n=%zu example %zu [%d]: gradient %a, differences %a",
                   name, n, e, k, g, fd);
      }
    }
    gp_reset();
  }
}

static void test_first_pair(void **state) {
  (void)state;
  check("first_pair", first_pair, first_pair_batched, first_pair_grad);
}
static void test_row_hits(void **state) {
  (void)state;
  check("row_hits", row_hits, row_hits_batched, row_hits_grad);
}
static void test_first_flag(void **state) {
  (void)state;
  check("first_flag", flag_fn, flag_batched, flag_grad);
}
static void test_hit_at(void **state) {
  (void)state;
  check("hit_at", hit_at, hit_at_batched, hit_at_grad);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_first_pair),
      cmocka_unit_test(test_row_hits),
      cmocka_unit_test(test_first_flag),
      cmocka_unit_test(test_hit_at),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_nested_exit", tests, NULL, NULL);
}
