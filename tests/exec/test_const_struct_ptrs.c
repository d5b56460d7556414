/* Pointer members of const structs (docs/globals.md, "Global tables"): a
 * polynomial descriptor `{ n, coefficients }` read where the struct is
 * named (P.c[i], nested Q.in.c), through an offset initializer (qc + 1),
 * from a table of descriptors at a per-example index (T[k].c[i], whose int
 * member T[k].n is read too), through a pointer into that table (p = &T[k],
 * p = T + k; p->c[i]) and a pointer copied from a member (c = T[k].c; *c++).
 * NAME_batched against the scalar function (bit for bit without math
 * calls; with sin/exp, the vector math's rounding: docs/runtime.md),
 * NAME_grad against central differences, n = 0 .. 37 examples. */
#include "exec_util.h"

#include "../common/test_filter.h"

struct poly {
  int n;
  const double *c;
};
struct outer {
  double scale;
  struct poly in;
};
static const double pc[4] = {1.0, -1.0, 0.5, -0.25};
static const double qc[5] = {2.0, 0.5, 0.125, -3.0, 0.75};
static const double rc[2] = {-0.5, 4.0};
static const struct poly P = {4, pc};
static const struct outer Q = {1.5, {.c = qc + 1, .n = 3}};
static const struct poly T[3] = {{4, pc}, {5, qc}, {2, rc}};

BATCHDIFF double s_named(double x) {
  double s = 0.0;
  for (int i = P.n - 1; i >= 0; i--)
    s = s * x + P.c[i];
  for (int i = 0; i < Q.in.n; i++)
    s += Q.scale * Q.in.c[i] * sin(x * i);
  return s;
}

BATCHDIFF double s_table(double x, int k) {
  int j = k % 3;
  double s = 0.0;
  for (int i = T[j].n - 1; i >= 0; i--)
    s = s * x + T[j].c[i];
  return s;
}

static double horner(const struct poly *p, double x) {
  double s = 0.0;
  for (int i = p->n - 1; i >= 0; i--)
    s = s * x + p->c[i];
  return s;
}

BATCHDIFF double s_pointer(double x, int k) {
  const struct poly *p = T + k % 3;
  return horner(&T[(k + 1) % 3], x) * exp(-x * x) + horner(p, x);
}

BATCHDIFF double s_walk(double x, int k) {
  const double *c = T[k % 3].c;
  double s = 0.0, xp = 1.0;
  for (int i = 0; i < T[k % 3].n; i++, xp *= x)
    s += *c++ * xp;
  return s;
}

static void check1(const char *name, int exact, double (*f)(double, int),
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
      if (exact ? memcmp(&ret[b], &want, sizeof want) != 0
                : !(fabs(ret[b] - want) <= 1e-14 * (1.0 + fabs(want))))
        fail_msg("%s n=%zu lane %zu x=%a k=%d: %a, scalar %a", name, n, b, x[b],
                 k[b], ret[b], want);
      if (!(fabs(d[b] - fd) <= 1e-6 * (1.0 + fabs(fd))))
        fail_msg("%s n=%zu lane %zu x=%a k=%d: gradient %a, differences %a",
                 name, n, b, x[b], k[b], d[b], fd);
    }
    gp_reset();
  }
}

static double s_named2(double x, int k) {
  (void)k;
  return s_named(x);
}
static void s_named2_batched(size_t n, const double *x, const int *k,
                             double *r) {
  (void)k;
  s_named_batched(n, x, r);
}
static void s_named2_grad(size_t n, const double *x, const int *k, double *r,
                          const double *s, double *d) {
  (void)k;
  s_named_grad(n, x, r, s, d);
}

static void test_named(void **state) {
  (void)state;
  check1("named", 0, s_named2, s_named2_batched, s_named2_grad);
}
static void test_table(void **state) {
  (void)state;
  check1("table", 1, s_table, s_table_batched, s_table_grad);
}
static void test_pointer(void **state) {
  (void)state;
  check1("pointer", 0, s_pointer, s_pointer_batched, s_pointer_grad);
}
static void test_walk(void **state) {
  (void)state;
  check1("walk", 1, s_walk, s_walk_batched, s_walk_grad);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_named),
      cmocka_unit_test(test_table),
      cmocka_unit_test(test_pointer),
      cmocka_unit_test(test_walk),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_const_struct_ptrs", tests, NULL,
                                     NULL);
}
