/* A pointer parameter stepped itself, as numeric C walks its arrays:
 * `s += x[0] * w; x += 1;` as the loop's last statement, `x++`, `++x` in
 * the for increment, `x += 2` over pairs, `while (n--)`, and an output
 * array stepped with its input (docs/subset.md). The extent is k * n, as
 * for a walk by a local copy `q = x; ... q += k;`.
 *   - every form's NAME_batched bit for bit the scalar function, strided
 *     and BD_PACKED with a guard page right after every example's last
 *     element (lanes of short examples read nothing past their end);
 *   - NAME_grad bit for bit the declared form's (`const double x[n]`,
 *     indexed x[i]), the uniform d_w equal to rounding, and the stepped
 *     form against central differences of the scalar function. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"

#define SP_STEP(a) s = s * w + (a) * (a)-0.5 * (a)
BATCHDIFF double sp_decl(int n, const double x[n], BD_UNIFORM double w) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    SP_STEP(x[i]);
  return s;
}
BATCHDIFF double sp_add(const double *x, int n, BD_UNIFORM double w) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    SP_STEP(x[0]);
    x += 1;
  }
  return s;
}
BATCHDIFF double sp_post(const double *x, int n, BD_UNIFORM double w) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    SP_STEP(*x);
    x++;
  }
  return s;
}
BATCHDIFF double sp_pre(const double *x, int n, BD_UNIFORM double w) {
  double s = 0.0;
  for (int i = 0; i < n; i++, ++x)
    SP_STEP(x[0]);
  return s;
}
BATCHDIFF double sp_while(const double *x, int n, BD_UNIFORM double w) {
  double s = 0.0;
  while (n--) {
    SP_STEP(*x);
    x += 1;
  }
  return s;
}
BATCHDIFF double sp_pk(BD_PACKED const double *x, int n, BD_UNIFORM double w) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    SP_STEP(x[0]);
    x++;
  }
  return s;
}

/* Pairs: the parameter stepped by 2, reading x[0] and x[1]. */
#define SP_PAIR(a, b) s = s * w + (a) * (b)-0.25 * (b)
BATCHDIFF double sq_decl(int n, const double x[2 * n], BD_UNIFORM double w) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    SP_PAIR(x[2 * i], x[2 * i + 1]);
  return s;
}
BATCHDIFF double sq_self(BD_PACKED const double *x, int n,
                         BD_UNIFORM double w) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    SP_PAIR(x[0], x[1]);
    x += 2;
  }
  return s;
}

/* An output array stepped together with its input. */
BATCHDIFF double so_decl(int n, const double x[n], double y[n]) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    y[i] = s * x[i] + 1.0;
    s += y[i] * x[i];
  }
  return s;
}
BATCHDIFF double so_self(BD_PACKED const double *x, BD_PACKED double *y,
                         int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    y[0] = s * x[0] + 1.0;
    s += y[0] * x[0];
    x++;
    y++;
  }
  return s;
}

#include "ragged_util.h"

typedef void (*sp_batched_t)(size_t, const double *, ptrdiff_t, const int *,
                             double, double *);
typedef void (*sp_grad_t)(size_t, const double *, ptrdiff_t, const int *,
                          double, double *, const double *, double *, ptrdiff_t,
                          double *);

/* d f / d x[i] of example b by central differences of \p f. */
static double fd(double (*f)(const double *, int, double), double *x, int cnt,
                 int i, double w) {
  double v0 = x[i], h = 1e-6;
  x[i] = v0 + h;
  double fp = f(x, cnt, w);
  x[i] = v0 - h;
  double fm = f(x, cnt, w);
  x[i] = v0;
  return (fp - fm) / (2 * h);
}

static void t_ones(void **state) {
  (void)state;
  rng_t r = {name_seed("stepped ones")};
  static const sp_batched_t fb[] = {sp_add_batched, sp_post_batched,
                                    sp_pre_batched, sp_while_batched};
  static const sp_grad_t fg[] = {sp_add_grad, sp_post_grad, sp_pre_grad,
                                 sp_while_grad};
  static const char *nm[] = {"sp_add", "sp_post", "sp_pre", "sp_while"};
  const double w = 0.875;
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k], st = 53;
    int *len = calloc(n + 1, sizeof(int));
    gen_lens(&r, n, len, 40);
    pk_t X, G;
    pk_make(&X, n, len, 1);
    pk_make(&G, n, len, 1);
    fill(&X, n, len, &r);
    double *pad = calloc(n * st + 1, sizeof(double));
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < len[b]; i++) {
        pad[b * st + (size_t)i] = AT(&X, b, i);
        AT(&G, b, i) = 0.0;
      }
    double *want = calloc(n + 1, 8), *got = calloc(n + 1, 8);
    double *dr = calloc(n + 1, 8), *g0 = calloc(n * st + 1, 8);
    double *g = calloc(n * st + 1, 8), dw0 = 0.0;
    for (size_t b = 0; b < n; b++) {
      want[b] = sp_decl(len[b], pad + b * st, w);
      dr[b] = 1.0 + 0.25 * (double)(b % 7);
    }
    sp_decl_grad(n, len, pad, (ptrdiff_t)st, w, NULL, dr, g0, (ptrdiff_t)st,
                 &dw0);
    for (size_t f = 0; f < sizeof fb / sizeof fb[0]; f++) {
      double dw = 0.0;
      memset(got, 0, (n + 1) * 8);
      fb[f](n, pad, (ptrdiff_t)st, len, w, got);
      for (size_t b = 0; b < n; b++)
        EXPECT_SAME(got[b], want[b], "%s_batched n=%zu b=%zu", nm[f], n, b);
      memset(g, 0, (n * st + 1) * 8);
      fg[f](n, pad, (ptrdiff_t)st, len, w, NULL, dr, g, (ptrdiff_t)st, &dw);
      for (size_t e = 0; e < n * st; e++)
        EXPECT_SAME(g[e], g0[e], "%s_grad d_x n=%zu element %zu", nm[f], n, e);
      EXPECT_SAME(dw, dw0, "%s_grad d_w n=%zu", nm[f], n);
    }
    /* Packed, a guard page after every example. */
    double dwp = 0.0;
    memset(got, 0, (n + 1) * 8);
    sp_pk_batched(n, X.base, X.off, len, w, got);
    sp_pk_grad(n, X.base, X.off, len, w, NULL, dr, G.base, &dwp);
    for (size_t b = 0; b < n; b++) {
      EXPECT_SAME(got[b], want[b], "sp_pk_batched n=%zu b=%zu", n, b);
      for (int i = 0; i < len[b]; i++)
        EXPECT_SAME(AT(&G, b, i), g0[b * st + (size_t)i],
                    "sp_pk_grad d_x n=%zu b=%zu i=%d", n, b, i);
    }
    EXPECT_CLOSE(dwp, dw0, "sp_pk_grad d_w n=%zu", n);
    pk_check_gaps(&G, n, len, "sp_pk_grad d_x");
    /* The stepped form's gradient against central differences. */
    for (size_t b = 0; b < n && b < 9; b++)
      for (int i = 0; i < len[b]; i++) {
        double d = dr[b] * fd(sp_add, pad + b * st, len[b], i, w);
        double gi = g0[b * st + (size_t)i];
        if (!close_to(gi, d, 1e-6)) {
          print_error("sp_add_grad n=%zu b=%zu i=%d: %g vs FD %g\n", n, b, i,
                      gi, d);
          fail();
        }
      }
    if (n > 3)
      assert_true(dw0 != 0.0);
    pk_free(&X), pk_free(&G);
    free(len), free(pad), free(want), free(got), free(dr), free(g0), free(g);
  }
}

static void t_pairs(void **state) {
  (void)state;
  rng_t r = {name_seed("stepped pairs")};
  const double w = -0.625;
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k], st = 67;
    int *cnt = calloc(n + 1, sizeof(int)), *len = calloc(n + 1, sizeof(int));
    gen_lens(&r, n, cnt, 30);
    for (size_t b = 0; b < n; b++)
      len[b] = 2 * cnt[b];
    pk_t X, G;
    pk_make(&X, n, len, 1);
    pk_make(&G, n, len, 1);
    fill(&X, n, len, &r);
    double *pad = calloc(n * st + 1, 8), *g0 = calloc(n * st + 1, 8);
    double *got = calloc(n + 1, 8), *want = calloc(n + 1, 8);
    double dw0 = 0.0, dw = 0.0;
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < len[b]; i++) {
        pad[b * st + (size_t)i] = AT(&X, b, i);
        AT(&G, b, i) = 0.0;
      }
    sq_decl_batched(n, cnt, pad, (ptrdiff_t)st, w, want);
    sq_self_batched(n, X.base, X.off, cnt, w, got);
    for (size_t b = 0; b < n; b++) {
      EXPECT_SAME(want[b], sq_decl(cnt[b], pad + b * st, w),
                  "sq_decl_batched n=%zu b=%zu", n, b);
      EXPECT_SAME(got[b], want[b], "sq_self_batched n=%zu b=%zu", n, b);
    }
    sq_decl_grad(n, cnt, pad, (ptrdiff_t)st, w, NULL, NULL, g0, (ptrdiff_t)st,
                 &dw0);
    sq_self_grad(n, X.base, X.off, cnt, w, NULL, NULL, G.base, &dw);
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < len[b]; i++)
        EXPECT_SAME(AT(&G, b, i), g0[b * st + (size_t)i],
                    "sq_self_grad d_x n=%zu b=%zu i=%d", n, b, i);
    EXPECT_CLOSE(dw, dw0, "sq_self_grad d_w n=%zu", n);
    pk_check_gaps(&G, n, len, "sq_self_grad d_x");
    pk_free(&X), pk_free(&G);
    free(cnt), free(len), free(pad), free(g0), free(got), free(want);
  }
}

static void t_output(void **state) {
  (void)state;
  rng_t r = {name_seed("stepped output")};
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k], st = 41;
    int *len = calloc(n + 1, sizeof(int));
    gen_lens(&r, n, len, 30);
    pk_t X, Y, GX, GY;
    pk_make(&X, n, len, 1);
    pk_make(&Y, n, len, 1);
    pk_make(&GX, n, len, 1);
    pk_make(&GY, n, len, 1);
    fill(&X, n, len, &r);
    double *px = calloc(n * st + 1, 8), *py = calloc(n * st + 1, 8);
    double *gx = calloc(n * st + 1, 8), *gy = calloc(n * st + 1, 8);
    double *got = calloc(n + 1, 8), *want = calloc(n + 1, 8);
    double *dr = calloc(n + 1, 8);
    for (size_t b = 0; b < n; b++) {
      dr[b] = 0.5 + (double)(b % 3);
      for (int i = 0; i < len[b]; i++) {
        double c = rng_range(&r, -1.0, 1.0);
        px[b * st + (size_t)i] = AT(&X, b, i);
        gy[b * st + (size_t)i] = c; /* the cotangent of the final y */
        AT(&GY, b, i) = c;
        AT(&GX, b, i) = 0.0;
      }
    }
    /* The scalar function, example by example: its y and return value. */
    double *sy = calloc(n * st + 1, 8);
    for (size_t b = 0; b < n; b++)
      want[b] = so_decl(len[b], px + b * st, sy + b * st);
    so_self_batched(n, X.base, X.off, Y.base, Y.off, len, got);
    for (size_t b = 0; b < n; b++) {
      EXPECT_SAME(got[b], want[b], "so_self_batched n=%zu b=%zu", n, b);
      for (int i = 0; i < len[b]; i++)
        EXPECT_SAME(AT(&Y, b, i), sy[b * st + (size_t)i],
                    "so_self_batched y n=%zu b=%zu i=%d", n, b, i);
    }
    pk_check_gaps(&Y, n, len, "so_self_batched y");
    so_decl_grad(n, len, px, (ptrdiff_t)st, py, (ptrdiff_t)st, NULL, dr, gx,
                 (ptrdiff_t)st, gy, (ptrdiff_t)st);
    so_self_grad(n, X.base, X.off, Y.base, Y.off, len, NULL, dr, GX.base,
                 GY.base);
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < len[b]; i++) {
        EXPECT_SAME(AT(&GX, b, i), gx[b * st + (size_t)i],
                    "so_self_grad d_x n=%zu b=%zu i=%d", n, b, i);
        EXPECT_SAME(AT(&GY, b, i), gy[b * st + (size_t)i],
                    "so_self_grad d_y n=%zu b=%zu i=%d", n, b, i);
      }
    pk_check_gaps(&GX, n, len, "so_self_grad d_x");
    pk_check_gaps(&GY, n, len, "so_self_grad d_y");
    if (n > 3)
      assert_true(gx[0] != 0.0 || len[0] == 0);
    pk_free(&X), pk_free(&Y), pk_free(&GX), pk_free(&GY);
    free(len), free(px), free(py), free(gx), free(gy), free(got), free(want);
    free(dr), free(sy);
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_ones),
      cmocka_unit_test(t_pairs),
      cmocka_unit_test(t_output),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
