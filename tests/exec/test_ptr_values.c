/* Tests of pointers used as values, not only as conditions: `int z = s ==
 * NULL;` of a helper's parameter its call passed NULL (or a local's
 * address), `s != NULL && x > 0`, and `p < e` of pointers into an array
 * parameter (they were refused as "pointer arithmetic"). NAME_batched's
 * results are the scalar function's bit for bit, NAME_grad's the closed
 * form, for n = 0 .. 67 and 4099 examples. */
#include "exec_util.h"

#include "../common/test_filter.h"

#include <stddef.h>

static double sw(double x, int *s) {
  int z = s == NULL;
  int w = s != NULL && x > 0;
  if (s)
    *s = z + w;
  return x * (1 + z) + 2 * w;
}

BATCHDIFF double pv(double x) {
  int q = 0;
  return sw(x, NULL) + sw(x * x, &q) + q;
}

__attribute__((batch)) double pv2(double x, int n, const double p[n]) {
  const double *e = p + n, *m = p + n / 2;
  int z = p < e, y = m >= e, v = (m == p) + (e != m);
  return x * z + y + 2 * v;
}

static void t_ptr_values(void **state) {
  (void)state;
  rng_t rng = {name_seed("ptr_values")};
  size_t sizes[] = {0, 1, 7, 8, 9, 16, 17, 67, 4099};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
    size_t n = sizes[si];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *dr = gp_alloc(n * 8), *d = gp_alloc(n * 8);
    double *p = gp_alloc(n * 3 * 8);
    int *k = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -3.0, 5.0);
      dr[e] = rng_range(&rng, 0.5, 2.0);
      k[e] = (int)rng_below(&rng, 4);
    }
    for (size_t e = 0; e < 3 * n; e++)
      p[e] = rng_range(&rng, -1.0, 1.0);
    gp_seal(x), gp_seal(dr), gp_seal(k), gp_seal(p);
    for (size_t e = 0; e < n; e++)
      r2[e] = pv(x[e]);
    pv_batched(n, x, r);
    assert_memory_equal(r, r2, n * 8);
    memset(d, 0, n * 8); /* (shadows are added to) */
    pv_grad(n, x, r, dr, d);
    assert_memory_equal(r, r2, n * 8);
    for (size_t e = 0; e < n; e++) {
      /* sw(x, NULL) = 2x; sw(x^2, &q) = x^2 + 2 [x^2 > 0] */
      double g = dr[e] * (2.0 + 2.0 * x[e]);
      if (fabs(d[e] - g) > 1e-14 * (fabs(g) + 1.0)) {
        print_error("pv_grad e=%zu x=%g: %a, want %a\n", e, x[e], d[e], g);
        fail();
      }
    }
    /* a ragged array of k[e] elements per example, in rows of 3 */
    for (size_t e = 0; e < n; e++)
      r2[e] = pv2(x[e], k[e], p + 3 * e);
    pv2_batched(n, x, k, p, 3, r);
    assert_memory_equal(r, r2, n * 8);
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(t_ptr_values)};
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_ptr_values", tests, NULL, NULL);
}
