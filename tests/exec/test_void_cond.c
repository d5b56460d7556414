/* A `?:` of void type as a statement, as macros write one (`c ? (void)(y =
 * 1) : (void)0`, `CHECK(c)` below): lowered as if/else, each arm only where
 * C evaluates it (the calls and the writes of the arm not taken do not
 * happen). NAME_batched's results are the scalar function's bit for bit,
 * NAME_grad's the closed form, for n = 0 .. 67 and 4099 examples. */
#include "exec_util.h"

#include "../common/test_filter.h"

#define CHECK(c, code) ((c) ? (void)0 : (void)(err = (code)))

static int bumps(int *n, int k) {
  *n += k;
  return *n;
}

BATCHDIFF double vc(double x, int k) {
  double y = 0.0;
  int err = 0, n = 0;
  x > 0 ? (void)(y = x * x) : (void)(y = -x);
  k == 1 ? (void)(y += 1.5 * x) : k == 2 ? (void)(y -= x) : (void)0;
  CHECK(x < 4.0, 3);
  CHECK(k != 3, 5);
  k > 4 ? (void)bumps(&n, k) : (void)bumps(&n, 1);
  return y + err + n;
}

static double vc_dx(double x, int k) {
  double d = x > 0 ? 2.0 * x : -1.0;
  return d + (k == 1 ? 1.5 : k == 2 ? -1.0 : 0.0);
}

static void t_void_cond(void **state) {
  (void)state;
  rng_t rng = {name_seed("void_cond")};
  size_t sizes[] = {0, 1, 7, 8, 9, 16, 17, 67, 4099};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
    size_t n = sizes[si];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *dr = gp_alloc(n * 8), *d = gp_alloc(n * 8);
    int *k = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -3.0, 5.0);
      k[e] = (int)rng_below(&rng, 7);
      dr[e] = rng_range(&rng, 0.5, 2.0);
    }
    gp_seal(x), gp_seal(k), gp_seal(dr);
    for (size_t e = 0; e < n; e++)
      r2[e] = vc(x[e], k[e]);
    vc_batched(n, x, k, r);
    assert_memory_equal(r, r2, n * 8);
    memset(d, 0, n * 8); /* (shadows are added to) */
    vc_grad(n, x, k, r, dr, d);
    assert_memory_equal(r, r2, n * 8);
    for (size_t e = 0; e < n; e++) {
      double g = dr[e] * vc_dx(x[e], k[e]);
      if (fabs(d[e] - g) > 1e-14 * (fabs(g) + 1.0)) {
        print_error("vc_grad e=%zu x=%g k=%d: %a, want %a\n", e, x[e], k[e],
                    d[e], g);
        fail();
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(t_void_cond)};
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_void_cond", tests, NULL, NULL);
}
