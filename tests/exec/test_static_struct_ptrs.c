/* Pointer members of static structs that are not const, as GSL keeps its
 * Chebyshev series (docs/globals.md, "Global tables"): `static double
 * a_data[] = {...}; static cheb_series a_cs = { a_data, 7, -1, 1 };`,
 * passed as `const cheb_series *` to a Clenshaw helper that reads
 * `cs->c[j]` and writes a {val, err} result through a pointer. No code of
 * the file changes the structs, so their pointers are their initializers'
 * (plugin/lower/FixedGlobals.h). Read through the struct passed by
 * address (one struct, or one of two under if/else), an element of a
 * static table of such structs at a per-example index, a member pointing
 * into its table at an offset, and the status-returning form `int f_e(x,
 * result *)`. NAME_batched against the scalar function bit for bit (only
 * + - * / and fabs), NAME_grad against central differences, n = 0 .. 37
 * examples. */
#include "exec_util.h"

#include "../common/test_filter.h"

typedef struct {
  double *c; /* coefficients */
  int order; /* the highest one */
  double a, b;
  int order_sp;
} cheb_series;

typedef struct {
  double val, err;
} sf_result;

static double a_data[8] = {0.75,    -0.5,    0.25,      0.125,
                           -0.0625, 0.03125, -0.015625, 0.0078125};
static double b_data[6] = {1.5, 0.25, -0.125, 0.0625, 0.03125, -0.015625};
static double c_data[5] = {-2.0, 1.0, 0.5, -0.25, 0.125};

static cheb_series a_cs = {a_data, 7, -1.0, 1.0, 4};
static cheb_series b_cs = {b_data, 5, -2.0, 0.0, 3};
/* Into its table at an offset: c_data[1] .. c_data[4]. */
static cheb_series c_cs = {c_data + 1, 3, 0.0, 2.0, 3};
static cheb_series T[3] = {{a_data, 7, -1.0, 1.0, 4},
                           {b_data + 2, 3, -1.0, 1.0, 2},
                           {c_data, 4, -1.0, 1.0, 4}};

static inline int cheb_e(const cheb_series *cs, const double x,
                         sf_result *result) {
  double d = 0.0, dd = 0.0, e = 0.0;
  double y = (2.0 * x - cs->a - cs->b) / (cs->b - cs->a);
  double y2 = 2.0 * y;
  for (int j = cs->order; j >= 1; j--) {
    double t = d;
    d = y2 * d - dd + cs->c[j];
    e += fabs(y2 * t) + fabs(dd) + fabs(cs->c[j]);
    dd = t;
  }
  double t = d;
  d = y * d - dd + 0.5 * cs->c[0];
  e += fabs(y * t) + fabs(dd) + 0.5 * fabs(cs->c[0]);
  result->val = d;
  result->err = 2.2204460492503131e-16 * e + fabs(cs->c[cs->order]);
  return 0;
}

BATCHDIFF double s_one(double x, int k) {
  sf_result r;
  (void)k;
  cheb_e(&a_cs, x, &r);
  return r.val + 0.5 * r.err;
}

BATCHDIFF double s_two(double x, int k) {
  sf_result r;
  (void)k;
  if (x < 0.0)
    cheb_e(&b_cs, x, &r);
  else
    cheb_e(&c_cs, x, &r);
  return r.val;
}

BATCHDIFF double s_table(double x, int k) {
  sf_result r;
  cheb_e(&T[k % 3], x, &r);
  return r.val * T[k % 3].c[0];
}

BATCHDIFF int s_e(double x, sf_result *result) {
  if (x < -1.0 || x > 1.0) {
    result->val = NAN;
    result->err = NAN;
    return 1;
  }
  sf_result c;
  int stat = cheb_e(&a_cs, x, &c);
  result->val = x * c.val;
  result->err = fabs(x) * c.err;
  return stat;
}

static double s_ev(double x, int k) {
  sf_result r;
  (void)k;
  s_e(x, &r);
  return r.val;
}

static void check1(const char *name, double (*f)(double, int),
                   void (*fb)(size_t, const double *, const int *, double *),
                   void (*fg)(size_t, const double *, const int *, double *,
                              const double *, double *)) {
  rng_t r = {name_seed(name)};
  for (size_t n = 0; n <= 37; n++) {
    double *x = gp_alloc((n + 1) * sizeof *x), *ret = gp_alloc((n + 1) * 8);
    double *d = gp_alloc((n + 1) * sizeof *d);
    int *k = gp_alloc((n + 1) * sizeof *k);
    for (size_t b = 0; b < n; b++) {
      x[b] = -1.5 + 3.0 * rng_unit(&r);
      k[b] = (int)(rng_u64(&r) % 9);
      d[b] = 0.0;
    }
    fb(n, x, k, ret);
    fg(n, x, k, NULL, NULL, d);
    for (size_t b = 0; b < n; b++) {
      double want = f(x[b], k[b]), h = 1e-6;
      double fd = (f(x[b] + h, k[b]) - f(x[b] - h, k[b])) / (2 * h);
      if (memcmp(&ret[b], &want, sizeof want) != 0)
        fail_msg("%s n=%zu lane %zu x=%a k=%d: %a, scalar %a", name, n, b, x[b],
                 k[b], ret[b], want);
      /* (x = 0 is a kink of s_one's err term: no example lands there.) */
      if (!(fabs(d[b] - fd) <= 1e-6 * (1.0 + fabs(fd))))
        fail_msg("%s n=%zu lane %zu x=%a k=%d: gradient %a, differences %a",
                 name, n, b, x[b], k[b], d[b], fd);
    }
    gp_reset();
  }
}

static void test_one(void **state) {
  (void)state;
  check1("one", s_one, s_one_batched, s_one_grad);
}
static void test_two(void **state) {
  (void)state;
  check1("two", s_two, s_two_batched, s_two_grad);
}
static void test_table(void **state) {
  (void)state;
  check1("table", s_table, s_table_batched, s_table_grad);
}

/* The status form: the status exactly, val and err bit for bit (NaN where
 * the scalar function gives NaN), d val / dx against central differences
 * inside [-1, 1]. */
static void test_status(void **state) {
  (void)state;
  rng_t r = {name_seed("status")};
  for (size_t n = 0; n <= 37; n++) {
    double *x = gp_alloc((n + 1) * sizeof *x);
    sf_result *res = gp_alloc((n + 1) * sizeof *res);
    sf_result *dres = gp_alloc((n + 1) * sizeof *dres);
    double *d = gp_alloc((n + 1) * sizeof *d);
    int *st = gp_alloc((n + 1) * sizeof *st);
    for (size_t b = 0; b < n; b++) {
      x[b] = -1.25 + 2.5 * rng_unit(&r);
      d[b] = 0.0;
      dres[b].val = 1.0;
      dres[b].err = 0.0;
    }
    s_e_batched(n, x, res, 1, st);
    s_e_grad(n, x, res, 1, NULL, d, dres, 1);
    for (size_t b = 0; b < n; b++) {
      sf_result want;
      int ws = s_e(x[b], &want);
      double h = 1e-6;
      if (st[b] != ws ||
          (memcmp(&res[b].val, &want.val, 8) != 0 &&
           !(isnan(want.val) && isnan(res[b].val))) ||
          (memcmp(&res[b].err, &want.err, 8) != 0 &&
           !(isnan(want.err) && isnan(res[b].err))))
        fail_msg("s_e n=%zu lane %zu x=%a: %d %a %a, scalar %d %a %a", n, b,
                 x[b], st[b], res[b].val, res[b].err, ws, want.val, want.err);
      if (ws != 0 || fabs(x[b]) > 1.0 - 2 * h)
        continue;
      double fd = (s_ev(x[b] + h, 0) - s_ev(x[b] - h, 0)) / (2 * h);
      if (!(fabs(d[b] - fd) <= 1e-6 * (1.0 + fabs(fd))))
        fail_msg("s_e n=%zu lane %zu x=%a: gradient %a, differences %a", n, b,
                 x[b], d[b], fd);
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_one),
      cmocka_unit_test(test_two),
      cmocka_unit_test(test_table),
      cmocka_unit_test(test_status),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_static_struct_ptrs", tests, NULL,
                                     NULL);
}
