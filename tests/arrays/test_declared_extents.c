/* Declared extents that are arithmetic over integer parameters, as users
 * declare them when the walk alone does not tell (docs/subset.md):
 *   - a sliding window, `const double x[n + 1]` read as x[0], x[1] and
 *     stepped by `x += 1` n times;
 *   - a packed lower triangle, `const double p[n * (n + 1) / 2]` walked by
 *     `*p++` in `for (i < n) for (j <= i)` (LAPACK's packed storage);
 *   - an r x c matrix `const double a[r * c]` indexed a[i * c + j].
 * Each BD_PACKED with every example's last element right before a guard
 * page (lanes of short examples read nothing past their end):
 *   - NAME_batched bit for bit the scalar function;
 *   - NAME_grad against central differences of the scalar function. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"
#include "ragged_util.h"

BATCHDIFF double win(int n, BD_PACKED const double x[n + 1], double a) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s = s * a + x[0] * x[1];
    x += 1;
  }
  return s;
}

BATCHDIFF double tri(int n, BD_PACKED const double p[n * (n + 1) / 2],
                     const double v[n]) {
  double s = 0.0; /* v' L v for L packed by rows */
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      s += v[i] * *p++ * v[j];
  return s;
}

BATCHDIFF double mat(int r, BD_UNIFORM int c, BD_PACKED const double a[r * c],
                     double t) {
  double s = 0.0;
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++)
      s += a[i * c + j] * (t * (i + 1) + j);
  return s;
}

enum { MAXN = 9, C = 3 };

static void t_extents(void **state) {
  (void)state;
  rng_t rng = {name_seed("declared extents")};
  for (size_t ni = 0; ni < N_NS; ni++) {
    size_t n = ns[ni];
    int *k = malloc((n + 1) * sizeof(int));
    int *lw = malloc((n + 1) * sizeof(int)),
        *lt = malloc((n + 1) * sizeof(int));
    int *lm = malloc((n + 1) * sizeof(int));
    double *a = malloc((n + 1) * 8), *v = malloc((n + 1) * MAXN * 8);
    double *got = malloc((n + 1) * 8), *d = malloc((n + 1) * 8);
    for (size_t b = 0; b < n; b++) {
      k[b] = (int)rng_below(&rng, MAXN + 1);
      lw[b] = k[b] + 1;
      lt[b] = k[b] * (k[b] + 1) / 2;
      lm[b] = k[b] * C;
      a[b] = rng_range(&rng, -1.0, 1.0);
      d[b] = 0.0; /* NAME_grad adds to it */
      for (int i = 0; i < MAXN; i++)
        v[b * MAXN + i] = rng_range(&rng, -1.0, 1.0);
    }
    pk_t W, T, M, DW, DT, DM;
    pk_make(&W, n, lw, 1), pk_make(&T, n, lt, 1), pk_make(&M, n, lm, 1);
    /* shadows: the same offsets (pk_make is deterministic) */
    pk_make(&DW, n, lw, 1), pk_make(&DT, n, lt, 1), pk_make(&DM, n, lm, 1);
    fill(&W, n, lw, &rng), fill(&T, n, lt, &rng), fill(&M, n, lm, &rng);
    for (size_t b = 0; b < n; b++) {
      for (int i = 0; i < lw[b]; i++)
        AT(&DW, b, i) = 0.0;
      for (int i = 0; i < lt[b]; i++)
        AT(&DT, b, i) = 0.0;
      for (int i = 0; i < lm[b]; i++)
        AT(&DM, b, i) = 0.0;
    }
    const double h = 1e-6;

    win_batched(n, k, W.base, W.off, a, got);
    win_grad(n, k, W.base, W.off, a, NULL, NULL, DW.base, NULL);
    for (size_t b = 0; b < n; b++) {
      double *x = &AT(&W, b, 0), want = win(k[b], x, a[b]);
      EXPECT_SAME(got[b], want, "win n=%zu b=%zu", n, b);
      for (int i = 0; i < lw[b]; i++) {
        double o = x[i];
        /* the guard pages make the inputs read-only: a copy to perturb */
        double xc[MAXN + 1];
        memcpy(xc, x, (size_t)lw[b] * 8);
        xc[i] = o + h;
        double up = win(k[b], xc, a[b]);
        xc[i] = o - h;
        double fd = (up - win(k[b], xc, a[b])) / (2 * h);
        if (!close_to(AT(&DW, b, i), fd, 1e-6)) {
          print_error("win d_x n=%zu b=%zu i=%d: %g fd %g\n", n, b, i,
                      AT(&DW, b, i), fd);
          fail();
        }
      }
    }

    tri_batched(n, k, T.base, T.off, v, MAXN, got);
    tri_grad(n, k, T.base, T.off, v, MAXN, NULL, NULL, DT.base, NULL, 0);
    for (size_t b = 0; b < n; b++) {
      const double *p = &AT(&T, b, 0), *vb = v + b * MAXN;
      double want = tri(k[b], p, vb);
      EXPECT_SAME(got[b], want, "tri n=%zu b=%zu", n, b);
      /* d/dL[i][j] = v[i] v[j], row by row */
      for (int i = 0, e = 0; i < k[b]; i++)
        for (int j = 0; j <= i; j++, e++)
          EXPECT_CLOSE(AT(&DT, b, e), vb[i] * vb[j], "tri d_p n=%zu b=%zu", n,
                       b);
    }

    for (int c = 1; c <= C; c += 2) {
      mat_batched(n, k, c, M.base, M.off, a, got);
      for (size_t b = 0; b < n; b++)
        EXPECT_SAME(got[b], mat(k[b], c, &AT(&M, b, 0), a[b]),
                    "mat c=%d n=%zu b=%zu", c, n, b);
    }
    mat_grad(n, k, C, M.base, M.off, a, NULL, NULL, DM.base, d);
    for (size_t b = 0; b < n; b++) {
      const double *m = &AT(&M, b, 0);
      double fd =
          (mat(k[b], C, m, a[b] + h) - mat(k[b], C, m, a[b] - h)) / (2 * h);
      if (!close_to(d[b], fd, 1e-6)) {
        print_error("mat d_t n=%zu b=%zu: %g fd %g\n", n, b, d[b], fd);
        fail();
      }
      for (int i = 0; i < k[b]; i++)
        for (int j = 0; j < C; j++)
          EXPECT_CLOSE(AT(&DM, b, i * C + j), a[b] * (i + 1) + j,
                       "mat d_a n=%zu b=%zu", n, b);
    }
    pk_free(&W), pk_free(&T), pk_free(&M);
    pk_free(&DW), pk_free(&DT), pk_free(&DM);
    free(k), free(lw), free(lt), free(lm), free(a), free(v), free(got), free(d);
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_extents),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
