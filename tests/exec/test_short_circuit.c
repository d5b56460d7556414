/* Reads of the caller's memory that C does not evaluate: the right side of
 * `&&`/`||` and the untaken arm of `?:` (`i < 4 && x[i] < t`, `i < n ?
 * x[i] : 0`). No lane may read there: every example's array ends right
 * before a guard page (strided, stride = extent, the batch's last example;
 * BD_PACKED, each example), so a read of x[4] or x[n] faults.
 *   - NAME_batched bit for bit the scalar function for every n of test_ns;
 *   - NAME_grad against central differences of the scalar function. */
#include "exec_util.h"

#include "../common/test_filter.h"

/* Linear search, as bucket lookups and piecewise tables write it. */
__attribute__((batch)) int find(const double x[4], double t) {
  int i = 0;
  while (i < 4 && x[i] < t)
    i++;
  return i;
}

BATCHDIFF double interp(const double x[4], const double y[4], double t) {
  int i = 0;
  while (i < 3 && !(t < x[i + 1]))
    i++;
  double hi = i + 1 < 4 ? y[i + 1] : y[3];
  return y[i] + (hi - y[i]) * (t - x[i]);
}

BATCHDIFF double tail(int n, BD_PACKED const double x[n], double t) {
  double s = 0.0;
  for (int k = 0; k <= n; k++)
    s = s * t + (k < n ? x[k] : 1.0) + (k == n || x[k] > 0.0 ? t : 0.0);
  return s;
}

/* A file-scope table of unknown length (`extern const double knots[];`,
 * defined in another file): lowering cannot keep an index inside it, so the
 * right side of `k < 4 && t > knots[k]` must not be computed where k == 4.
 * Here knots' fourth element is the last one before a guard page (the
 * symbol is an alias into a page-aligned block whose second page is made
 * inaccessible in main()). */
extern const double knots[];
__attribute__((used, aligned(4096))) static double knot_pages[1024];
__asm__(".globl knots\n.set knots, knot_pages + 4064");

BATCHDIFF double bucket(double t) {
  int k = 0;
  while (k < 4 && t > knots[k])
    k++;
  return (k + 1) * t + (k > 0 && t < knots[k - 1] * 2.0 ? 1.0 : 0.0);
}

/* Pointer '?:' arms that read the caller's array (`x[k]` only where k < n)
 * or call a helper: they branch like values' arms, so no lane reads x[n]
 * (here past a guard page) or runs the other arm's call. */
static const double Tab[8] = {1.5, -2.0, 3.25, 4.0, -5.5, 6.0, 7.75, -8.0};
static int small(double t) { return t * t < 0.25; }
BATCHDIFF double pick(int n, const int x[n], double t) {
  int k = n > 2 ? 2 : n;
  const double *c = k < n ? Tab + x[k] : Tab;
  const double *d = t < 0.0 ? Tab : small(t) ? Tab + 4 : Tab + 1;
  return c[0] * t + d[1] * t * t;
}

static void t_search(void **state) {
  (void)state;
  rng_t rng = {name_seed("short circuit")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *x = gp_alloc(n * 4 * 8), *y = gp_alloc(n * 4 * 8);
    double *t = gp_alloc(n * 8), *got = gp_alloc(n * 8), *dt = gp_alloc(n * 8);
    int *idx = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      double a = rng_range(&rng, -1.0, 0.0);
      for (int k = 0; k < 4; k++) {
        x[e * 4 + k] = a += rng_range(&rng, 0.1, 1.0); /* increasing */
        y[e * 4 + k] = rng_range(&rng, -2.0, 2.0);
      }
      /* beyond the last knot in a quarter of the examples */
      t[e] = rng_range(&rng, -0.5,
                       x[e * 4 + 3] * (rng_below(&rng, 4) ? 0.9 : 2.0));
      dt[e] = 0.0;
    }
    gp_seal(x), gp_seal(y), gp_seal(t);
    find_batched(n, x, 4, t, idx);
    for (size_t e = 0; e < n; e++)
      if (idx[e] != find(x + e * 4, t[e])) {
        print_error("find n=%zu e=%zu: %d want %d\n", n, e, idx[e],
                    find(x + e * 4, t[e]));
        fail();
      }
    interp_batched(n, x, 4, y, 4, t, got);
    interp_grad(n, x, 4, y, 4, t, NULL, NULL, NULL, 0, NULL, 0, dt);
    for (size_t e = 0; e < n; e++) {
      const double *xe = x + e * 4, *ye = y + e * 4, h = 1e-7;
      double want = interp(xe, ye, t[e]);
      double fd =
          (interp(xe, ye, t[e] + h) - interp(xe, ye, t[e] - h)) / (2 * h);
      if (!same_bits_or_nan(&got[e], &want, sizeof want, 1) ||
          !close_to(dt[e], fd, 1e-5)) {
        print_error("interp n=%zu e=%zu: %a want %a, d %g fd %g\n", n, e,
                    got[e], want, dt[e], fd);
        fail();
      }
    }
    gp_reset();
  }
}

static void t_packed(void **state) {
  (void)state;
  rng_t rng = {name_seed("short circuit packed")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    int *len = gp_alloc(n * sizeof(int));
    size_t *off = gp_alloc(n * sizeof(size_t));
    double *t = gp_alloc(n * 8), *got = gp_alloc(n * 8), *dt = gp_alloc(n * 8);
    size_t total = 0;
    for (size_t e = 0; e < n; e++) {
      len[e] = (int)rng_below(&rng, 7);
      total += (size_t)len[e];
      t[e] = rng_range(&rng, -1.0, 1.0);
      dt[e] = 0.0;
    }
    /* Every example's last element right before a guard page (the first
     * 64; then back to back in one block that ends at one). */
    double *rest = gp_alloc(total * 8), *base = rest;
    size_t at = 0;
    const double **own = calloc(n + 1, sizeof *own);
    for (size_t e = 0; e < n; e++) {
      double *p = rest + at;
      if (e < 64) {
        p = gp_alloc((size_t)len[e] * 8);
        own[e] = p;
      }
      for (int k = 0; k < len[e]; k++)
        p[k] = rest[at + (size_t)k] = rng_range(&rng, -1.0, 1.0);
      at += (size_t)len[e];
    }
    /* BD_PACKED takes one base: the first 64 examples go through their own
     * blocks as offsets from `base` only when they are in one mapping, so
     * run those one call each. */
    for (size_t e = 0; e < n && e < 64; e++) {
      size_t zero = 0;
      double g = 0.0, d = 0.0;
      tail_batched(1, &len[e], own[e], &zero, &t[e], &g);
      tail_grad(1, &len[e], own[e], &zero, &t[e], NULL, NULL, NULL, &d);
      got[e] = g, dt[e] = d;
    }
    if (n > 64) {
      for (size_t e = 0, o = 0; e < n; e++)
        off[e] = o, o += (size_t)len[e];
      tail_batched(n - 64, len + 64, base, off + 64, t + 64, got + 64);
      tail_grad(n - 64, len + 64, base, off + 64, t + 64, NULL, NULL, NULL,
                dt + 64);
    }
    for (size_t e = 0, o = 0; e < n; o += (size_t)len[e], e++) {
      const double *xe = base + o, h = 1e-7;
      double want = tail(len[e], xe, t[e]);
      double fd =
          (tail(len[e], xe, t[e] + h) - tail(len[e], xe, t[e] - h)) / (2 * h);
      if (!same_bits_or_nan(&got[e], &want, sizeof want, 1) ||
          !close_to(dt[e], fd, 1e-5)) {
        print_error("tail n=%zu e=%zu len=%d: %a want %a, d %g fd %g\n", n, e,
                    len[e], got[e], want, dt[e], fd);
        fail();
      }
    }
    free(own);
    gp_reset();
  }
}

static void t_extern(void **state) {
  (void)state;
  rng_t rng = {name_seed("short circuit extern")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *t = gp_alloc(n * 8), *got = gp_alloc(n * 8), *dt = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      /* past the last knot in about a third of the examples; never within
       * 0.01 of a knot, where the function jumps */
      double v = rng_range(&rng, -1.0, 5.0);
      t[e] = fabs(v - floor(v + 0.5)) < 0.01 ? v + 0.1 : v;
      dt[e] = 0.0;
    }
    gp_seal(t);
    bucket_batched(n, t, got);
    bucket_grad(n, t, NULL, NULL, dt);
    for (size_t e = 0; e < n; e++) {
      double want = bucket(t[e]), h = 1e-7;
      double fd = (bucket(t[e] + h) - bucket(t[e] - h)) / (2 * h);
      if (!same_bits_or_nan(&got[e], &want, sizeof want, 1) ||
          !close_to(dt[e], fd, 1e-5)) {
        print_error("bucket n=%zu e=%zu: %a want %a, d %g fd %g\n", n, e,
                    got[e], want, dt[e], fd);
        fail();
      }
    }
    gp_reset();
  }
}

/* n in 0..3, stride 3; the batch's last example has n = 2 and its x ends
 * at a guard page, where x[2] would be. */
static void t_pick(void **state) {
  (void)state;
  rng_t rng = {name_seed("short circuit pick")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    int *len = gp_alloc(n * sizeof(int));
    int *x = gp_alloc((n ? n * 3 - 1 : 0) * sizeof(int));
    double *t = gp_alloc(n * 8), *got = gp_alloc(n * 8), *dt = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      len[e] = e + 1 == n ? 2 : (int)rng_below(&rng, 4);
      for (int i = 0; i < 3 && e * 3 + (size_t)i < n * 3 - 1; i++)
        x[e * 3 + (size_t)i] = (int)rng_below(&rng, 7);
      /* away from the kinks at 0 and +-0.5 */
      double v = rng_range(&rng, -1.0, 1.0);
      t[e] = fabs(v) < 0.01 || fabs(fabs(v) - 0.5) < 0.01 ? v + 0.03 : v;
      dt[e] = 0.0;
    }
    gp_seal(len), gp_seal(x), gp_seal(t);
    pick_batched(n, len, x, 3, t, got);
    pick_grad(n, len, x, 3, t, NULL, NULL, dt);
    for (size_t e = 0; e < n; e++) {
      const int *xe = x + e * 3;
      double want = pick(len[e], xe, t[e]), h = 1e-7;
      double fd =
          (pick(len[e], xe, t[e] + h) - pick(len[e], xe, t[e] - h)) / (2 * h);
      if (!same_bits_or_nan(&got[e], &want, sizeof want, 1) ||
          !close_to(dt[e], fd, 1e-5)) {
        print_error("pick n=%zu e=%zu: %a want %a, d %g fd %g\n", n, e, got[e],
                    want, dt[e], fd);
        fail();
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_search),
      cmocka_unit_test(t_packed),
      cmocka_unit_test(t_extern),
      cmocka_unit_test(t_pick),
  };
  for (int k = 0; k < 4; k++)
    knot_pages[508 + k] = k;
  if (mprotect(knot_pages + 512, 4096, PROT_NONE) != 0)
    return 1;
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
