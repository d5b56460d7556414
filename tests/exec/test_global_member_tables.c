/* Arrays of structs that are members of a file-scope struct another file
 * defines (global_member_tables_other.c), as musl's log, log2, pow and
 * their float forms read `__log_data.tab[i].invc` (docs/globals.md):
 * read in place, a gather from the real global at the stride of one
 * element struct where the index differs per example. Did not compile
 * before ("array member 'tab' of 'struct gm_log_data' ... use one array
 * per member of the element struct"). NAME_batched against the scalar
 * function bit for bit on random bits, moderate values, ±0, ±inf, NaN and
 * subnormals, n = 0 .. 37 and 1000 examples; a musl-style log also
 * against log(); NAME_grad's values bit for bit and its gradients against
 * central differences (members of float, int and double at one stride, a
 * nested member path, a copied record, a copy of the whole struct). */
#include "exec_util.h"

#include "../common/test_filter.h"
#include "global_member_tables.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

static uint64_t asu64(double x) {
  union {
    double f;
    uint64_t i;
  } u = {x};
  return u.i;
}
static double asf64(uint64_t i) {
  union {
    uint64_t i;
    double f;
  } u = {i};
  return u.f;
}

#define T gm_log_data.tab
#define A gm_log_data.poly

/* musl's log, shortened: the table entry of the top bits of the mantissa,
 * a polynomial in r = z / c - 1. */
__attribute__((batch)) double glog(double x) {
  uint64_t ix = asu64(x);
  if (!(x > 0.0))
    return x == 0.0 ? -HUGE_VAL : (x - x) / (x - x);
  if (isinf(x))
    return x;
  int e = (int)(ix >> 52) - 1023;
  if (e == -1023) { /* subnormal */
    ix = asu64(x * 0x1p52);
    e = (int)(ix >> 52) - 1023 - 52;
  }
  int i = (int)((ix >> (52 - GM_TABLE_BITS)) % GM_N);
  double z = asf64((ix & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL);
  double invc = T[i].invc, logc = T[i].logc;
  double r = z * invc - 1.0;
  double p = r + r * r * (A[0] + r * (A[1] + r * (A[2] + r * A[3])));
  return e * gm_log_data.ln2 + logc + p;
}

/* Members of three types at one stride (16 bytes), at a per-example index
 * and at constant ones. */
__attribute__((batch, diff)) double gmix(double x, int i) {
  return gm_log_data.mix[i].a * x + gm_log_data.mix[i].k +
         gm_log_data.mix[i & 3].c / x + gm_log_data.mix[2].c * x * x;
}

/* A nested path (.nest.e), a copied record of a named element type. */
__attribute__((batch, diff)) double gnest(double x, int j) {
  struct gm_entry e = gm_log_data.named[j & 3];
  return gm_log_data.nest.e[j % 3].invc * x + gm_log_data.nest.e[j % 3].logc +
         gm_log_data.nest.s + e.invc * x * x + e.logc;
}

/* A copy of the whole struct (its arrays of structs read element by
 * element at their stride), read at per-example indices. */
__attribute__((batch)) double gcopy(int i) {
  struct gm_log_data d = gm_log_data;
  return d.tab[i & 15].logc + d.mix[i & 7].c + d.mix[i & 7].k +
         d.nest.e[i % 3].invc + d.named[i & 3].logc + d.poly[1] + d.nest.s;
}

static const size_t ns[] = {0,  1,  2,  3,  4,  5,  7,  8,   9,
                            15, 16, 17, 31, 32, 33, 37, 1000};
#define NNS (sizeof ns / sizeof ns[0])

static double gen(rng_t *r) {
  static const double special[] = {
      0.0,       -0.0,      INFINITY,    -INFINITY, NAN,
      0x1p-1074, 0x1p-1060, 0x1.8p-1030, 1.0,       0x1.fffffffffffffp-1,
      2.0,       0x1p1023};
  uint64_t k = rng_u64(r) % 8;
  if (k == 0)
    return special[rng_u64(r) % (sizeof special / sizeof special[0])];
  if (k <= 2) {
    uint64_t u = rng_u64(r);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
  }
  return 100.0 * rng_unit(r);
}

static void same(const char *what, size_t n, size_t b, double got,
                 double want) {
  if (memcmp(&got, &want, sizeof got) != 0 && !(isnan(got) && isnan(want)))
    fail_msg("%s n=%zu example %zu: %a, scalar %a", what, n, b, got, want);
}

static void test_log(void **state) {
  (void)state;
  rng_t r = {name_seed("glog")};
  long checked = 0;
  for (int rep = 0; rep < 20; rep++)
    for (size_t i = 0; i < NNS; i++) {
      size_t n = ns[i];
      double *x = gp_alloc((n + 1) * sizeof *x), *ret = gp_alloc((n + 1) * 8);
      for (size_t b = 0; b < n; b++)
        x[b] = gen(&r);
      glog_batched(n, x, ret);
      for (size_t b = 0; b < n; b++) {
        double want = glog(x[b]);
        same("glog", n, b, ret[b], want);
        /* (the scalar function is a logarithm: the table is read right) */
        if (x[b] > 0.0 && isfinite(x[b])) {
          checked++;
          if (!(fabs(want - log(x[b])) <= 1e-9 * (1 + fabs(log(x[b])))))
            fail_msg("glog(%a) = %a, log %a", x[b], want, log(x[b]));
        }
      }
      gp_reset();
    }
  if (checked < 10000)
    fail_msg("glog: %ld positive inputs", checked);
}

/* Richardson-extrapolated central differences in x of f(x, k). */
static double rich(double (*f)(double, int), double x, int k, int *ok) {
  double d[3];
  for (int s = 0; s < 3; s++) {
    double h = 1e-3 / (1 << s);
    d[s] = (f(x + h, k) - f(x - h, k)) / (2 * h);
  }
  double r1 = (4 * d[1] - d[0]) / 3, r2 = (4 * d[2] - d[1]) / 3;
  *ok = isfinite(r2) && fabs(r1 - r2) <= 1e-8 * (1 + fabs(r2));
  return r2;
}

typedef void (*batched_fn)(size_t, const double *, const int *, double *);
typedef void (*grad_fn)(size_t, const double *, const int *, double *,
                        const double *, double *);

static void check_grad(const char *name, double (*f)(double, int),
                       batched_fn fb, grad_fn fg, int kmax) {
  rng_t r = {name_seed(name)};
  long checked = 0, points = 0;
  for (size_t i = 0; i < NNS; i++) {
    size_t n = ns[i];
    double *x = gp_alloc((n + 1) * 8), *ret = gp_alloc((n + 1) * 8);
    double *ret2 = gp_alloc((n + 1) * 8), *dx = gp_alloc((n + 1) * 8);
    double *dret = gp_alloc((n + 1) * 8);
    int *k = gp_alloc((n + 1) * sizeof *k);
    for (size_t b = 0; b < n; b++) {
      x[b] = (rng_u64(&r) & 1 ? 1.0 : -1.0) * (0.25 + 4.0 * rng_unit(&r));
      if (b % 13 == 5)
        x[b] = gen(&r);
      k[b] = (int)(rng_u64(&r) % (uint64_t)kmax);
      dx[b] = 0.0;
      dret[b] = 1.0;
    }
    fb(n, x, k, ret);
    fg(n, x, k, ret2, dret, dx);
    for (size_t b = 0; b < n; b++) {
      double want = f(x[b], k[b]);
      same(name, n, b, ret[b], want);
      same(name, n, b, ret2[b], want);
      if (!isfinite(x[b]) || fabs(x[b]) < 0.1 || fabs(x[b]) > 1e6)
        continue;
      int ok;
      double fd = rich(f, x[b], k[b], &ok);
      points++;
      if (!ok)
        continue;
      checked++;
      if (!(fabs(dx[b] - fd) <= 1e-6 * (1 + fabs(fd))))
        fail_msg("%s n=%zu example %zu x=%a k=%d: gradient %.17g, "
                 "differences %.17g",
                 name, n, b, x[b], k[b], dx[b], fd);
    }
    gp_reset();
  }
  if (checked * 2 < points || checked < 100)
    fail_msg("%s: %ld of %ld gradients checked", name, checked, points);
}

static void test_mix(void **state) {
  (void)state;
  check_grad("gmix", gmix, gmix_batched, gmix_grad, 8);
}

static void test_nest(void **state) {
  (void)state;
  check_grad("gnest", gnest, gnest_batched, gnest_grad, 1000);
}

static void test_copy(void **state) {
  (void)state;
  rng_t r = {name_seed("gcopy")};
  for (size_t i = 0; i < NNS; i++) {
    size_t n = ns[i];
    int *k = gp_alloc((n + 1) * sizeof *k);
    double *ret = gp_alloc((n + 1) * 8);
    for (size_t b = 0; b < n; b++)
      k[b] = (int)(rng_u64(&r) % 1000);
    gcopy_batched(n, k, ret);
    for (size_t b = 0; b < n; b++)
      same("gcopy", n, b, ret[b], gcopy(k[b]));
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_log),
      cmocka_unit_test(test_mix),
      cmocka_unit_test(test_nest),
      cmocka_unit_test(test_copy),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_global_member_tables", tests, NULL,
                                     NULL);
}
