/* Pointers set to NULL by the function, into an array parameter, tested
 * again where an earlier test or every path says they are not NULL
 * (docs/subset.md, "A pointer local declared or assigned a null pointer"):
 * an array argument is an array, never NULL (CONTRACT section 4), so such
 * a test folds, as it reads the per-lane flag where the pointer may be NULL.
 *   - NAME_batched against the scalar function bit for bit (every n of
 *     exec_util.h, NaN and ties among the entries; every example's array
 *     ends at a guard page, so an access past it would fault);
 *   - NAME_grad against closed forms (the entry each example read). */
#include "exec_util.h"

#include "../common/test_filter.h"

/* A test of it under a test of it: the inner one in the refined state. */
BATCHDIFF double nc_nested(const double a[4], double x) {
  const double *c = NULL;
  if (x > 0)
    c = a + 1;
  if (c) {
    if (c != NULL)
      return c[1] * x;
  }
  return x;
}

/* Assigned into the array parameter on every path: the test folds. */
BATCHDIFF double nc_every(const double a[4], double x) {
  const double *c = NULL;
  if (x > 0)
    c = a;
  else
    c = &a[2];
  return c ? c[0] * x + c[1] : x;
}

typedef void (*arr_b)(size_t, const double *, ptrdiff_t, const double *,
                      double *);
typedef void (*arr_g)(size_t, const double *, ptrdiff_t, const double *,
                      double *, const double *, double *, ptrdiff_t, double *);
/* The closed-form gradient of example (a, x): d/da[4], d/dx. */
typedef void (*arr_d)(const double *a, double x, double *da, double *dx);

static void d_nested(const double *a, double x, double *da, double *dx) {
  if (x > 0)
    da[2] = x, *dx = a[2];
  else
    *dx = 1;
}
static void d_every(const double *a, double x, double *da, double *dx) {
  int k = x > 0 ? 0 : 2;
  da[k] = x, da[k + 1] = 1, *dx = a[k];
}

static const struct {
  const char *name;
  arr_b b;
  arr_g g;
  double (*f)(const double *, double);
  arr_d d;
} arr_fns[] = {
    {"nc_nested", nc_nested_batched, nc_nested_grad, nc_nested, d_nested},
    {"nc_every", nc_every_batched, nc_every_grad, nc_every, d_every},
};

static double gen_entry(rng_t *r) {
  static const double edge[] = {NAN, 0.0, -0.0, 1.0, -1.0, INFINITY, 0.5};
  if (rng_below(r, 6) == 0)
    return edge[rng_below(r, sizeof edge / sizeof edge[0])];
  return rng_range(r, -2.0, 2.0);
}
static double gen_x(rng_t *r) {
  if (rng_below(r, 8) == 0)
    return rng_below(r, 2) ? NAN : 0.0;
  return rng_range(r, -3.0, 3.0);
}

/* Each function of arr_fns: bits, then gradients (finite entries). */
static void t_arrays(void **state) {
  (void)state;
  for (size_t f = 0; f < sizeof arr_fns / sizeof arr_fns[0]; f++) {
    rng_t rng = {name_seed(arr_fns[f].name)};
    for (size_t ni = 0; ni < N_TEST_NS; ni++)
      for (int rep = 0; rep < 4; rep++) {
        size_t n = test_ns[ni];
        int fin = rep & 1; /* finite entries: gradients */
        double *a = gp_alloc(n * 4 * 8), *x = gp_alloc(n * 8);
        double *got = gp_alloc(n * 8), *s = gp_alloc(n * 8);
        double *ga = gp_alloc(n * 4 * 8), *gx = gp_alloc(n * 8);
        for (size_t e = 0; e < n; e++) {
          for (int i = 0; i < 4; i++)
            a[e * 4 + i] = fin ? rng_range(&rng, -2.0, 2.0) : gen_entry(&rng),
                      ga[e * 4 + i] = 0;
          x[e] = fin ? rng_range(&rng, -3.0, 3.0) : gen_x(&rng);
          s[e] = rng_range(&rng, -2.0, 2.0);
          gx[e] = 0;
        }
        gp_seal(a), gp_seal(x), gp_seal(s);
        arr_fns[f].b(n, a, 4, x, got);
        for (size_t e = 0; e < n; e++) {
          double want = arr_fns[f].f(a + e * 4, x[e]);
          if (!CMP_BITS(got[e], want)) {
            print_error("%s n=%zu e=%zu: %a, want %a\n", arr_fns[f].name, n, e,
                        got[e], want);
            fail();
          }
        }
        if (!fin) {
          gp_reset();
          continue;
        }
        arr_fns[f].g(n, a, 4, x, got, s, ga, 4, gx);
        for (size_t e = 0; e < n; e++) {
          double da[4] = {0}, dx = 0;
          arr_fns[f].d(a + e * 4, x[e], da, &dx);
          bool ok = close_to(gx[e], s[e] * dx, 1e-12);
          for (int i = 0; i < 4; i++)
            ok &= close_to(ga[e * 4 + i], s[e] * da[i], 1e-12);
          if (!ok) {
            print_error("%s_grad n=%zu e=%zu x=%.17g: d_x %.17g want %.17g\n",
                        arr_fns[f].name, n, e, x[e], gx[e], s[e] * dx);
            fail();
          }
        }
        gp_reset();
      }
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_arrays),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_null_cons", tests, NULL, NULL);
}
