/* qsort of a local array per example (docs/calls.md, "qsort"): a median, a trimmed
 * mean over a per-example count, a float percentile, integers under the
 * subtraction comparator, a descending sort by |x| (ties between x and -x:
 * the order of equal elements, which a stable sort keeps as glibc's merge
 * sort does), part of an array (t + 2), and a comparator calling a helper.
 * NAME_batched against the scalar function bit for bit on inputs full of
 * ties, duplicates and signed zeros, n = 0 .. 37 examples; NAME_grad against
 * central differences on distinct inputs. */
#include "exec_util.h"

#include "../common/test_filter.h"

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int cmp_f(const void *a, const void *b) {
  const float *x = a, *y = b;
  if (*x < *y)
    return -1;
  else if (*x > *y)
    return 1;
  return 0;
}

static int cmp_i(const void *a, const void *b) {
  return *(const int *)a - *(const int *)b;
}

static double key(double v) { return fabs(v); }

static int cmp_abs_desc(const void *a, const void *b) {
  double x = key(*(const double *)a), y = key(*(const double *)b);
  if (x > y)
    return -1;
  if (x < y)
    return 1;
  return 0;
}

/* NaN sorted last: a consistent order with NaN too, so exact with NaN. */
static int cmp_nan_last(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  if (isnan(x) || isnan(y))
    return isnan(x) - isnan(y);
  return (x > y) - (x < y);
}

BATCHDIFF double top2(const double x[6]) {
  double t[6];
  for (int i = 0; i < 6; i++)
    t[i] = x[i];
  qsort(t, 6, sizeof t[0], cmp_nan_last);
  return t[0] + 2.0 * t[1] - 3.0 * t[2];
}

BATCHDIFF double median8(const double x[8]) {
  double t[8];
  for (int i = 0; i < 8; i++)
    t[i] = x[i];
  qsort(t, 8, sizeof t[0], cmp_d);
  return 0.5 * (t[3] + t[4]);
}

/* n per example, 3 .. 12 elements of 12. */
BATCHDIFF double trim(int n, const double x[12]) {
  double t[12];
  if (n < 3)
    n = 3;
  if (n > 12)
    n = 12;
  for (int i = 0; i < n; i++)
    t[i] = x[i];
  qsort(t, (size_t)n, sizeof(double), cmp_d);
  double s = 0.0;
  for (int i = 1; i < n - 1; i++)
    s += t[i];
  return s / (n - 2);
}

BATCHDIFF float p90(const float x[10]) {
  float t[10];
  for (int i = 0; i < 10; i++)
    t[i] = x[i];
  qsort(t, 10, sizeof *t, cmp_f);
  return t[8] + 0.25f * (t[9] - t[8]);
}

BATCHDIFF double ranked(const int k[6], const double w[6]) {
  int s[6];
  for (int i = 0; i < 6; i++)
    s[i] = k[i];
  qsort(s, 6, sizeof s[0], cmp_i);
  double r = 0.0;
  for (int i = 0; i < 6; i++)
    r += w[i] * s[i];
  return r;
}

BATCHDIFF double by_abs(const double x[7]) {
  double t[7];
  for (int i = 0; i < 7; i++)
    t[i] = x[i];
  qsort(t, 7, sizeof t[0], cmp_abs_desc);
  return t[0] + 2.0 * t[1] + 3.0 * t[2] - t[6];
}

BATCHDIFF double middle(const double x[9]) {
  double t[9];
  for (int i = 0; i < 9; i++)
    t[i] = x[i];
  qsort(t + 2, 5, sizeof t[0], cmp_d);
  return t[0] + 10.0 * t[2] + 100.0 * t[4] + 1000.0 * t[6] - t[8];
}

/* Ties: a quarter of the values from {-2, -1, -0, 0, 1, 2}. */
static double tie_val(rng_t *r, int distinct) {
  if (!distinct && rng_below(r, 2) == 0) {
    static const double v[] = {-2.0, -1.0, -0.0, 0.0, 1.0, 2.0};
    return v[rng_below(r, 6)];
  }
  return -4.0 + 8.0 * rng_unit(r);
}

#define MAXN 37
#define CHECK_BITS(name, got, want)                                            \
  do {                                                                         \
    if (memcmp(&(got), &(want), sizeof(want)) != 0)                            \
      fail_msg("%s n=%zu lane %zu: %a, scalar %a", name, n, b, (double)(got),  \
               (double)(want));                                                \
  } while (0)

static void grad_check(const char *name, size_t n, size_t b, double g,
                       double fd) {
  if (!(fabs(g - fd) <= 1e-6 * (1.0 + fabs(fd))))
    fail_msg("%s n=%zu lane %zu: gradient %a, differences %a", name, n, b, g,
             fd);
}

/* top2 on inputs with NaN (a quarter of them): values bit for bit (NaN
   where the scalar function gives NaN). */
static void test_nan(void **state) {
  (void)state;
  rng_t r = {name_seed("nan")};
  for (size_t n = 0; n <= MAXN; n++) {
    double *x = gp_alloc((n * 6 + 1) * sizeof *x);
    double *ret = gp_alloc((n + 1) * sizeof *ret);
    for (size_t i = 0; i < n * 6; i++)
      x[i] = rng_below(&r, 4) == 0 ? NAN : tie_val(&r, 0);
    top2_batched(n, x, 6, ret);
    for (size_t b = 0; b < n; b++) {
      double want = top2(x + b * 6);
      if (isnan(want) && isnan(ret[b]))
        continue;
      CHECK_BITS("top2", ret[b], want);
    }
    gp_reset();
  }
}

/* Arrays of L doubles per example (stride L): values and gradients. */
static void check_d(const char *name, int L, double (*f)(const double *),
                    void (*fb)(size_t, const double *, ptrdiff_t, double *),
                    void (*fg)(size_t, const double *, ptrdiff_t, double *,
                               const double *, double *, ptrdiff_t)) {
  rng_t r = {name_seed(name)};
  for (int distinct = 0; distinct < 2; distinct++)
    for (size_t n = 0; n <= MAXN; n++) {
      double *x = gp_alloc((n * L + 1) * sizeof *x);
      double *d = gp_alloc((n * L + 1) * sizeof *d);
      double *ret = gp_alloc((n + 1) * sizeof *ret);
      for (size_t i = 0; i < n * L; i++) {
        x[i] = tie_val(&r, distinct);
        d[i] = 0.0;
      }
      fb(n, x, L, ret);
      for (size_t b = 0; b < n; b++) {
        double want = f(x + b * L);
        CHECK_BITS(name, ret[b], want);
      }
      if (distinct) {
        fg(n, x, L, NULL, NULL, d, L);
        for (size_t b = 0; b < n; b++)
          for (int i = 0; i < L; i++) {
            double *xe = x + b * L, h = 1e-6, x0 = xe[i];
            xe[i] = x0 + h;
            double fp = f(xe);
            xe[i] = x0 - h;
            double fm = f(xe);
            xe[i] = x0;
            grad_check(name, n, b, d[b * L + i], (fp - fm) / (2 * h));
          }
      }
      gp_reset();
    }
}

static void test_median(void **state) {
  (void)state;
  check_d("median8", 8, median8, median8_batched, median8_grad);
}
static void test_by_abs(void **state) {
  (void)state;
  check_d("by_abs", 7, by_abs, by_abs_batched, by_abs_grad);
}
static void test_middle(void **state) {
  (void)state;
  check_d("middle", 9, middle, middle_batched, middle_grad);
}

/* The count per example (out of range ones clamped by the function). */
static void test_trim(void **state) {
  (void)state;
  rng_t r = {name_seed("trim")};
  for (int distinct = 0; distinct < 2; distinct++)
    for (size_t n = 0; n <= MAXN; n++) {
      double *x = gp_alloc((n * 12 + 1) * sizeof *x);
      double *d = gp_alloc((n * 12 + 1) * sizeof *d);
      double *ret = gp_alloc((n + 1) * sizeof *ret);
      int *c = gp_alloc((n + 1) * sizeof *c);
      for (size_t b = 0; b < n; b++)
        c[b] = (int)rng_below(&r, 15);
      for (size_t i = 0; i < n * 12; i++) {
        x[i] = tie_val(&r, distinct);
        d[i] = 0.0;
      }
      trim_batched(n, c, x, 12, ret);
      for (size_t b = 0; b < n; b++) {
        double want = trim(c[b], x + b * 12);
        CHECK_BITS("trim", ret[b], want);
      }
      if (!distinct)
        goto next;
      trim_grad(n, c, x, 12, NULL, NULL, d, 12);
      for (size_t b = 0; b < n; b++)
        for (int i = 0; i < 12; i++) {
          double *xe = x + b * 12, h = 1e-6, x0 = xe[i];
          xe[i] = x0 + h;
          double fp = trim(c[b], xe);
          xe[i] = x0 - h;
          double fm = trim(c[b], xe);
          xe[i] = x0;
          grad_check("trim", n, b, d[b * 12 + i], (fp - fm) / (2 * h));
        }
    next:
      gp_reset();
    }
}

static void test_p90(void **state) {
  (void)state;
  rng_t r = {name_seed("p90")};
  for (size_t n = 0; n <= MAXN; n++) {
    float *x = gp_alloc((n * 10 + 1) * sizeof *x);
    float *ret = gp_alloc((n + 1) * sizeof *ret);
    float *d = gp_alloc((n * 10 + 1) * sizeof *d);
    for (size_t i = 0; i < n * 10; i++) {
      x[i] = (float)tie_val(&r, 0);
      d[i] = 0.0f;
    }
    p90_batched(n, x, 10, ret);
    p90_grad(n, x, 10, NULL, NULL, d, 10);
    for (size_t b = 0; b < n; b++) {
      float want = p90(x + b * 10);
      CHECK_BITS("p90", ret[b], want);
      /* d/dx: 0.75 at the 9th smallest, 0.25 at the largest (ties: the
         stable order's, as the scalar sort's), 0 elsewhere. */
      float s = 0.0f;
      for (int i = 0; i < 10; i++)
        s += d[b * 10 + i];
      if (s != 1.0f)
        fail_msg("p90 n=%zu lane %zu: gradient sums to %a", n, b, (double)s);
    }
    gp_reset();
  }
}

static void test_ranked(void **state) {
  (void)state;
  rng_t r = {name_seed("ranked")};
  for (size_t n = 0; n <= MAXN; n++) {
    int *k = gp_alloc((n * 6 + 1) * sizeof *k);
    double *w = gp_alloc((n * 6 + 1) * sizeof *w);
    double *d = gp_alloc((n * 6 + 1) * sizeof *d);
    double *ret = gp_alloc((n + 1) * sizeof *ret);
    for (size_t i = 0; i < n * 6; i++) {
      k[i] = (int)rng_below(&r, 2001) - 1000;
      w[i] = tie_val(&r, 1);
      d[i] = 0.0;
    }
    ranked_batched(n, k, 6, w, 6, ret);
    ranked_grad(n, k, 6, w, 6, NULL, NULL, d, 6);
    for (size_t b = 0; b < n; b++) {
      double want = ranked(k + b * 6, w + b * 6);
      CHECK_BITS("ranked", ret[b], want);
      int s[6];
      memcpy(s, k + b * 6, sizeof s);
      qsort(s, 6, sizeof s[0], cmp_i);
      for (int i = 0; i < 6; i++)
        if (d[b * 6 + i] != (double)s[i])
          fail_msg("ranked n=%zu lane %zu: d_w[%d] %a, want %d", n, b, i,
                   d[b * 6 + i], s[i]);
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_median), cmocka_unit_test(test_by_abs),
      cmocka_unit_test(test_middle), cmocka_unit_test(test_trim),
      cmocka_unit_test(test_p90),    cmocka_unit_test(test_ranked),
      cmocka_unit_test(test_nan),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_sort", tests, NULL, NULL);
}
