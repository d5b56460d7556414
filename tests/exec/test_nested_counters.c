/* Inner loops whose counter is set before them inside an outer loop with a
 * per-example trip count (analysis/LoopCounters.cpp): the counter is the
 * same on every lane still in the inner loop, and the generated code keeps
 * it a scalar (tests/plugin/nested_counters.test.sh). Checked against the
 * scalar functions:
 *   - tree: a binomial tree over a local array, `for (n = steps - 1; n >=
 *     0; n--) for (i = 0; i <= n; i++) v[i] = ...v[i + 1]`;
 *   - early: nested loops over an array parameter, the inner one left by a
 *     per-example `break`, another lane's `continue`;
 *   - after: the inner counter read after the inner loop (the lanes' exit
 *     values differ: it stays per lane);
 *   - whiles: an inner `while (j < n) { ...; j++; }` inside a do/while.
 * NAME_batched bit for bit (1 and 2 threads), NAME_grad against central
 * differences. */
#include "exec_util.h"

#include "../common/test_filter.h"

#include <batchdiff/batchdiff_rt.h>

#define ST 12

BATCHDIFF double tree(double s, double p, int steps) {
  double v[ST + 1];
  if (steps > ST)
    steps = ST;
  for (int i = 0; i <= steps; i++)
    v[i] = s * (i + 1) - 0.5 * i * i;
  for (int n = steps - 1; n >= 0; n--)
    for (int i = 0; i <= n; i++)
      v[i] = fmax(p * v[i] + (1 - p) * v[i + 1], s - i);
  return v[0];
}

BATCHDIFF double early(const double *x, int n, int m, double t) {
  double s = 0.0;
  for (int k = 0; k < m; k++)
    for (int i = 0; i < n; i++) {
      if (x[i] * t > 1.5)
        break;
      if (x[i] < -1.0)
        continue;
      s += x[i] * t * (k + 1) + 0.25 * i;
    }
  return s;
}

BATCHDIFF double after(BD_EXTENT(n) const double *x, int n, double t) {
  double s = 0.0;
  for (int k = 0; k < n; k++) {
    int i;
    for (i = 0; i < n && x[i] < t; i++)
      s += x[i] * t;
    s += 0.5 * i + k;
  }
  return s;
}

BATCHDIFF double whiles(BD_EXTENT(n) const double *x, int n, double t) {
  double s = 0.0;
  int k = 0;
  do {
    int j = 0;
    while (j < n - k) {
      s = s * t + x[j];
      j++;
    }
    k++;
  } while (k < n);
  return s;
}

static void check(const char *what, size_t n, size_t e, double got, double want,
                  double tol) {
  int ok = tol == 0.0 ? same_bits_or_nan(&got, &want, 8, 1)
                      : close_to(got, want, tol);
  if (!ok) {
    print_error("%s n=%zu example %zu: %a, want %a\n", what, n, e, got, want);
    fail();
  }
}

static void t_tree(void **state) {
  (void)state;
  rng_t rng = {name_seed("nested_tree")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *s = gp_alloc(n * 8), *p = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *ds = gp_alloc(n * 8), *dp = gp_alloc(n * 8);
    int *st = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      s[e] = rng_range(&rng, -2, 2);
      p[e] = rng_range(&rng, 0.1, 0.9);
      st[e] = (int)rng_below(&rng, ST + 3); /* (below 0, v[0] is unset) */
    }
    gp_seal(s), gp_seal(p), gp_seal(st);
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      tree_batched(n, s, p, st, r);
      for (size_t e = 0; e < n; e++)
        check("tree_batched", n, e, r[e], tree(s[e], p[e], st[e]), 0);
    }
    bd_set_num_threads(0);
    memset(ds, 0, n * 8), memset(dp, 0, n * 8);
    tree_grad(n, s, p, st, r, NULL, ds, dp);
    const double h = 1e-6;
    for (size_t e = 0; e < n; e++) {
      check("tree_grad's value", n, e, r[e], tree(s[e], p[e], st[e]), 0);
      check("tree_grad's d_s", n, e, ds[e],
            (tree(s[e] + h, p[e], st[e]) - tree(s[e] - h, p[e], st[e])) /
                (2 * h),
            1e-6);
      check("tree_grad's d_p", n, e, dp[e],
            (tree(s[e], p[e] + h, st[e]) - tree(s[e], p[e] - h, st[e])) /
                (2 * h),
            1e-6);
    }
    gp_reset();
  }
}

/* The three functions over ragged arrays of up to ST elements. */
static void t_arrays(void **state) {
  (void)state;
  rng_t rng = {name_seed("nested_arrays")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *x = gp_alloc(n * ST * 8), *t = gp_alloc(n * 8);
    double *r1 = gp_alloc(n * 8), *r2 = gp_alloc(n * 8), *r3 = gp_alloc(n * 8);
    double *dx = gp_alloc(n * ST * 8), *dt = gp_alloc(n * 8);
    int *len = gp_alloc(n * sizeof(int)), *m = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      len[e] = (int)rng_below(&rng, ST + 1);
      m[e] = (int)rng_below(&rng, 5);
      t[e] = rng_range(&rng, 0.2, 1.2);
      for (int i = 0; i < ST; i++)
        x[e * ST + i] = rng_range(&rng, -1.5, 2);
    }
    gp_seal(x), gp_seal(t), gp_seal(len), gp_seal(m);
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      early_batched(n, x, ST, len, m, t, r1);
      after_batched(n, x, ST, len, t, r2);
      whiles_batched(n, x, ST, len, t, r3);
      for (size_t e = 0; e < n; e++) {
        const double *xe = x + e * ST;
        check("early_batched", n, e, r1[e], early(xe, len[e], m[e], t[e]), 0);
        check("after_batched", n, e, r2[e], after(xe, len[e], t[e]), 0);
        check("whiles_batched", n, e, r3[e], whiles(xe, len[e], t[e]), 0);
      }
    }
    bd_set_num_threads(0);
    const double h = 1e-6;
    for (int f = 0; f < 3; f++) {
      memset(dx, 0, n * ST * 8), memset(dt, 0, n * 8);
      if (f == 0)
        early_grad(n, x, ST, len, m, t, NULL, NULL, dx, ST, dt);
      else if (f == 1)
        after_grad(n, x, ST, len, t, NULL, NULL, dx, ST, dt);
      else
        whiles_grad(n, x, ST, len, t, NULL, NULL, dx, ST, dt);
      for (size_t e = 0; e < n; e++) {
        double xe[ST];
        memcpy(xe, x + e * ST, sizeof xe);
#define F(xx, tt)                                                              \
  (f == 0   ? early(xx, len[e], m[e], tt)                                      \
   : f == 1 ? after(xx, len[e], tt)                                            \
            : whiles(xx, len[e], tt))
        check("grad's d_t", n, e, dt[e],
              (F(xe, t[e] + h) - F(xe, t[e] - h)) / (2 * h), 1e-5);
        for (int i = 0; i < ST; i++) {
          double x0 = xe[i];
          xe[i] = x0 + h;
          double pl = F(xe, t[e]);
          xe[i] = x0 - h;
          double mi = F(xe, t[e]);
          xe[i] = x0;
          check("grad's d_x", n, e * 100 + (size_t)i, dx[e * ST + i],
                (pl - mi) / (2 * h), 1e-5);
        }
#undef F
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_tree),
      cmocka_unit_test(t_arrays),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_nested_counters", tests, NULL, NULL);
}
