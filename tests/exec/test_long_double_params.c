/* Annotated functions computing in long double that take arrays
 * (docs/calls.md, "Long double locals"): NAME_batched is one call of the
 * scalar function per example, passed that example's own array (strided,
 * BD_PACKED, BD_POINTERS), a BD_UNIFORM array as it is, and a written
 * array's elements (the function's `void` result: its outputs only); and
 * long double helpers passed the function's own array parameters:
 *   - ld_norm: a long double sum of squares over a per-example length;
 *   - ld_cumsum: void, a running long double sum written to y[0..n-1];
 *   - ld_packed, ld_ptrs: the sum over BD_PACKED and BD_POINTERS arrays;
 *   - ld_wdot: a BD_UNIFORM weight array and a per-example one;
 *   - ld_det3: a 3x3 array, its determinant in long double;
 *   - ld_caller: a helper computing in long double (ldsum) passed the
 *     function's own array, at its start and at an offset, per branch;
 *   - ld_nodiff: the same under diff, the array BD_NODIFF: the gradient of
 *     s * ldsum(x, n) with respect to s is ldsum's value.
 * Values are the scalar function's bit for bit; every per-example array
 * ends at a guard page (BD_POINTERS rows and the last strided example),
 * elements past a written array's length keep their values. */
#include "call_tally.h"

#include "../common/test_filter.h"

#include <batchdiff/batchdiff_rt.h>

#define MAXLEN 19

BD_BATCH double ld_norm(const double *x, int n) {
  long double s = 0;
  for (int i = 0; i < n; i++)
    s += (long double)x[i] * x[i];
  return (double)s;
}

BD_BATCH void ld_cumsum(const double *x, double *y, int n) {
  long double s = 0;
  for (int i = 0; i < n; i++) {
    s += x[i];
    y[i] = (double)s;
  }
}

BD_BATCH double ld_packed(BD_PACKED const double *x, int n) {
  long double s = 0;
  for (int i = 0; i < n; i++)
    s += (long double)x[i] * 3.0L;
  return (double)(s / 7.0L);
}

BD_BATCH double ld_ptrs(BD_POINTERS const double *x, int n) {
  long double s = 0;
  for (int i = 0; i < n; i++)
    s += (long double)x[i] / (i + 1);
  return (double)s;
}

BD_BATCH double ld_wdot(BD_UNIFORM const double w[4], const double x[4]) {
  long double s = 0;
  for (int i = 0; i < 4; i++)
    s += (long double)w[i] * x[i];
  return (double)s;
}

BD_BATCH double ld_det3(const double a[3][3]) {
  long double d =
      (long double)a[0][0] *
          (a[1][1] * (long double)a[2][2] - (long double)a[1][2] * a[2][1]) -
      (long double)a[0][1] *
          (a[1][0] * (long double)a[2][2] - (long double)a[1][2] * a[2][0]) +
      (long double)a[0][2] *
          (a[1][0] * (long double)a[2][1] - (long double)a[1][1] * a[2][0]);
  return (double)d;
}

static double ldsum(const double *v, int n) {
  uint64_t h = (uint64_t)n;
  for (int i = 0; i < n; i++) {
    uint64_t u;
    memcpy(&u, &v[i], sizeof u);
    h = mix(h ^ u);
  }
  record(1, h);
  long double s = 0;
  for (int i = 0; i < n; i++)
    s += expl(v[i] * 0.25);
  return (double)logl(1.0L + s);
}

BD_BATCH double ld_caller(const double *x, int n, double c) {
  double r = c * 0.5;
  if (c > 0)
    r += ldsum(x, n);
  if (n > 2)
    r -= ldsum(x + 1, n - 2);
  return r;
}

BATCHDIFF double ld_nodiff(BD_NODIFF const double *x, int n, double s) {
  return s * ldsum(x, n) + s * s;
}

/* ---- checks ------------------------------------------------------------- */

static uint64_t bits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

static void same(const char *what, size_t n, size_t e, double got,
                 double want) {
  if (bits(got) != bits(want) && !(isnan(got) && isnan(want))) {
    print_error("%s n=%zu example %zu: %a, want %a\n", what, n, e, got, want);
    fail();
  }
}

/* n examples of MAXLEN strided doubles (the last example's row ends at a
 * guard page), lengths 0..MAXLEN. */
static double *rows(rng_t *rng, size_t n, int *len) {
  double *x = gp_alloc((n ? n : 1) * MAXLEN * 8);
  for (size_t e = 0; e < n * MAXLEN; e++)
    x[e] = rng_range(rng, -4.0, 4.0);
  for (size_t e = 0; e < n; e++)
    len[e] = rng_below(rng, MAXLEN + 1);
  return x;
}

static void t_strided(void **state) {
  (void)state;
  rng_t rng = {name_seed("ld_strided")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    int *len = gp_alloc((n ? n : 1) * sizeof(int));
    double *x = rows(&rng, n, len);
    double *y = gp_alloc((n ? n : 1) * MAXLEN * 8);
    double *r = gp_alloc((n ? n : 1) * 8);
    gp_seal(x);
    gp_seal(len);
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      ld_norm_batched(n, x, MAXLEN, len, r);
      for (size_t e = 0; e < n; e++)
        same("ld_norm_batched", n, e, r[e], ld_norm(x + e * MAXLEN, len[e]));
      for (size_t e = 0; e < n * MAXLEN; e++)
        y[e] = -1.5 - (double)e;
      ld_cumsum_batched(n, x, MAXLEN, y, MAXLEN, len);
      for (size_t e = 0; e < n; e++) {
        double want[MAXLEN];
        for (int i = 0; i < MAXLEN; i++)
          want[i] = -1.5 - (double)(e * MAXLEN + i);
        ld_cumsum(x + e * MAXLEN, want, len[e]);
        for (int i = 0; i < MAXLEN; i++)
          same("ld_cumsum_batched", n, e, y[e * MAXLEN + i], want[i]);
      }
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

static void t_layouts(void **state) {
  (void)state;
  rng_t rng = {name_seed("ld_layouts")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    if (n > 200)
      continue; /* (a guard page per BD_POINTERS row) */
    int *len = gp_alloc((n ? n : 1) * sizeof(int));
    size_t *off = gp_alloc((n ? n : 1) * sizeof(size_t));
    const double **p = gp_alloc((n ? n : 1) * sizeof(double *));
    double *r = gp_alloc((n ? n : 1) * 8);
    size_t total = 0;
    for (size_t e = 0; e < n; e++) {
      len[e] = rng_below(&rng, MAXLEN + 1);
      off[e] = total;
      total += (size_t)len[e];
    }
    double *packed = gp_alloc((total ? total : 1) * 8);
    for (size_t k = 0; k < total; k++)
      packed[k] = rng_range(&rng, -4.0, 4.0);
    for (size_t e = 0; e < n; e++) {
      double *row = gp_alloc((len[e] ? (size_t)len[e] : 1) * 8);
      memcpy(row, packed + off[e], (size_t)len[e] * 8);
      gp_seal(row);
      p[e] = row;
    }
    gp_seal(packed);
    ld_packed_batched(n, packed, off, len, r);
    for (size_t e = 0; e < n; e++)
      same("ld_packed_batched", n, e, r[e], ld_packed(packed + off[e], len[e]));
    ld_ptrs_batched(n, p, len, r);
    for (size_t e = 0; e < n; e++)
      same("ld_ptrs_batched", n, e, r[e], ld_ptrs(p[e], len[e]));
    gp_reset();
  }
}

static void t_fixed(void **state) {
  (void)state;
  rng_t rng = {name_seed("ld_fixed")};
  double w[4];
  for (int i = 0; i < 4; i++)
    w[i] = rng_range(&rng, -2.0, 2.0);
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc((n ? n : 1) * 4 * 8);
    double *a = gp_alloc((n ? n : 1) * 9 * 8);
    double *r = gp_alloc((n ? n : 1) * 8);
    for (size_t e = 0; e < n * 4; e++)
      x[e] = rng_range(&rng, -4.0, 4.0);
    for (size_t e = 0; e < n * 9; e++)
      a[e] = rng_range(&rng, -4.0, 4.0);
    gp_seal(x);
    gp_seal(a);
    ld_wdot_batched(n, w, x, 4, r);
    for (size_t e = 0; e < n; e++)
      same("ld_wdot_batched", n, e, r[e], ld_wdot(w, x + 4 * e));
    ld_det3_batched(n, a, 9, r);
    for (size_t e = 0; e < n; e++)
      same("ld_det3_batched", n, e, r[e],
           ld_det3((const double(*)[3])(a + 9 * e)));
    gp_reset();
  }
}

static void t_helper(void **state) {
  (void)state;
  rng_t rng = {name_seed("ld_helper")};
  uint64_t ran = 0;
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    int *len = gp_alloc((n ? n : 1) * sizeof(int));
    double *x = rows(&rng, n, len);
    double *c = gp_alloc((n ? n : 1) * 8), *r = gp_alloc((n ? n : 1) * 8);
    double *w = gp_alloc((n ? n : 1) * 8), *ds = gp_alloc((n ? n : 1) * 8);
    for (size_t e = 0; e < n; e++)
      c[e] = rng_range(&rng, -1.0, 1.0);
    gp_seal(x);
    gp_seal(len);
    gp_seal(c);
    take();
    for (size_t e = 0; e < n; e++)
      w[e] = ld_caller(x + e * MAXLEN, len[e], c[e]);
    tally want = take();
    ran += want.calls;
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      ld_caller_batched(n, x, MAXLEN, len, c, r);
      tally got = take();
      SAME_CALLS("ld_caller_batched", n, want, got);
      for (size_t e = 0; e < n; e++)
        same("ld_caller_batched", n, e, r[e], w[e]);
    }
    bd_set_num_threads(0);
    for (size_t e = 0; e < n; e++)
      w[e] = ld_nodiff(x + e * MAXLEN, len[e], c[e]);
    memset(ds, 0, (n ? n : 1) * 8);
    ld_nodiff_grad(n, x, MAXLEN, len, c, r, NULL, ds);
    for (size_t e = 0; e < n; e++) {
      same("ld_nodiff_grad's value", n, e, r[e], w[e]);
      /* (s * L + s * s: the adjoints' sum may round in another order) */
      double d = ldsum(x + e * MAXLEN, len[e]) + 2.0 * c[e];
      if (!close_to(ds[e], d, 1e-15)) {
        print_error("ld_nodiff_grad's d_s n=%zu example %zu: %a, want %a\n", n,
                    e, ds[e], d);
        fail();
      }
    }
    take();
    gp_reset();
  }
  if (ran < 500) {
    print_error("ld_caller: the helper ran only %" PRIu64 " times\n", ran);
    fail();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_strided),
      cmocka_unit_test(t_layouts),
      cmocka_unit_test(t_fixed),
      cmocka_unit_test(t_helper),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_long_double_params", tests, NULL,
                                     NULL);
}
