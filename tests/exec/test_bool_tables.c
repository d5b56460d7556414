/* File-scope `_Bool` tables (flags per cell, masks of active terms): read
 * as bytes that hold 0 or 1, at constant, uniform and per-example
 * indices, through a helper taking `const _Bool *`, two-dimensional, and
 * in static local tables.
 *   - NAME_batched bit for bit the scalar function for every n of
 *     test_ns (indices right before a guard page);
 *   - NAME_grad against central differences (the flags choose terms). */
#include "exec_util.h"

#include "../common/test_filter.h"

static const _Bool ACTIVE[8] = {1, 0, 1, 1, 0, 0, 1, 0};
static const _Bool NEAR[3][4] = {{1, 1, 0, 0}, {0, 1, 1, 0}, {0, 0, 1, 1}};
_Bool FLIP[5] = {0, 1, 0, 0, 1}; /* not const: read in place all the same */

static double masked(const _Bool *on, const double *c, int n, double x) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    if (on[i])
      s = s * x + c[i];
  return s;
}

BATCHDIFF double flags(double x, int k, BD_UNIFORM int u) {
  static const double C[8] = {0.5, -1.0, 2.0, 0.25, 3.0, -0.75, 1.5, 1.0};
  static const _Bool SKIP[4] = {0, 1, 0, 1};
  int i = k & 7, r = (k >> 3) % 3, c = (k >> 5) & 3;
  double s = masked(ACTIVE, C, 8, x);
  if (ACTIVE[i]) /* per-example index: a gather */
    s += x * x;
  if (NEAR[r][c]) /* two dimensions */
    s -= 0.5 * x;
  if (FLIP[u % 5]) /* uniform index */
    s = -s;
  if (!SKIP[k & 3]) /* a static local table */
    s += x * C[i];
  int cnt = ACTIVE[0] + ACTIVE[2] + NEAR[1][2]; /* constants, as ints */
  return s * (double)cnt +
         (ACTIVE[i] ? 1.0 : 0.0) * (double)ACTIVE[(i + 1) & 7];
}

static void t_flags(void **state) {
  (void)state;
  rng_t rng = {name_seed("bool tables")};
  for (int u = 0; u < 5; u++)
    for (size_t ni = 0; ni < N_TEST_NS; ni++) {
      size_t n = test_ns[ni];
      double *x = gp_alloc(n * 8), *got = gp_alloc(n * 8);
      double *dx = gp_alloc(n * 8);
      int *k = gp_alloc(n * sizeof(int));
      for (size_t e = 0; e < n; e++) {
        x[e] = rng_range(&rng, -2.0, 2.0);
        k[e] = rng_below(&rng, 128);
        dx[e] = 0.0;
      }
      gp_seal(x), gp_seal(k);
      flags_batched(n, x, k, u, got);
      flags_grad(n, x, k, u, NULL, NULL, dx);
      for (size_t e = 0; e < n; e++) {
        double want = flags(x[e], k[e], u), h = 1e-6;
        double fd =
            (flags(x[e] + h, k[e], u) - flags(x[e] - h, k[e], u)) / (2 * h);
        if (!same_bits_or_nan(&got[e], &want, sizeof want, 1) ||
            !close_to(dx[e], fd, 1e-6)) {
          print_error("u=%d n=%zu b=%zu k=%d: %a want %a, d %g fd %g\n", u, n,
                      e, k[e], got[e], want, dx[e], fd);
          fail();
        }
      }
      gp_reset();
    }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_flags),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
