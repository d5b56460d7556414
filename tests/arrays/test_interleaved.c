/* Interleaved records in a flat array (x0 y0 x1 y1 ..., xyz triples): the
 * extent k * n of a pointer parameter, declared (`const double x[2 * n]`),
 * inferred from indices `x[2 * i + c]` under `i < n`, or from a pointer
 * walked by `q += k` once per iteration of a counted loop (docs/subset.md).
 *   - every form's NAME_batched bit for bit the scalar function, strided
 *     and BD_PACKED with a guard page right after every example's last
 *     element;
 *   - NAME_grad's d_x bit for bit the declared form's, the uniform d_w and
 *     d_c equal to rounding, and the declared form against central
 *     differences. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"

#define IA_STEP(a, b) s = s * w + (a) * (b)-0.5 * (b)
BATCHDIFF double ia_decl(int n, const double x[2 * n], BD_UNIFORM double w) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    IA_STEP(x[2 * i], x[2 * i + 1]);
  return s;
}
BATCHDIFF double ia_idx(const double *x, int n, BD_UNIFORM double w) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    IA_STEP(x[2 * i], x[2 * i + 1]);
  return s;
}
/* The walk by a copy stepped 'q += 2': strided (ia_walk) and BD_PACKED
 * (ia_pk) spell the same body. */
#define IA_WALK_BODY                                                           \
  double s = 0.0;                                                              \
  const double *q = x;                                                         \
  for (int i = 0; i < n; i++) {                                                \
    IA_STEP(q[0], q[1]);                                                       \
    q += 2;                                                                    \
  }                                                                            \
  return s;
BATCHDIFF double ia_walk(const double *x, int n, BD_UNIFORM double w) {
  IA_WALK_BODY
}
BATCHDIFF double ia_inc(const double *x, int n, BD_UNIFORM double w) {
  double s = 0.0;
  const double *q = x;
  for (int i = 0; i < n; i++, q += 2)
    IA_STEP(*q, q[1]);
  return s;
}
BATCHDIFF double ia_while(const double *x, int n, BD_UNIFORM double w) {
  double s = 0.0;
  const double *q = x;
  while (n--) {
    IA_STEP(q[0], q[1]);
    q += 2;
  }
  return s;
}
BATCHDIFF double ia_pk(BD_PACKED const double *x, int n, BD_UNIFORM double w) {
  IA_WALK_BODY
}

/* xyz triples: squared distances to a uniform centre. */
#define IB_BODY(X, Y, Z)                                                       \
  double dx = (X)-c[0], dy = (Y)-c[1], dz = (Z)-c[2];                          \
  s = 0.75 * s + dx * dx + dy * dy * dz
BATCHDIFF double ib_idx(const double *p, int n, BD_UNIFORM const double c[3]) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    IB_BODY(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
  }
  return s;
}
BATCHDIFF double ib_walk(BD_PACKED const double *p, int n,
                         BD_UNIFORM const double c[3]) {
  double s = 0.0;
  const double *q = p;
  for (int i = 0; i < n; i++) {
    IB_BODY(q[0], q[1], q[2]);
    q += 3;
  }
  return s;
}

#include "ragged_util.h"

typedef void (*ia_batched_t)(size_t, const double *, ptrdiff_t, const int *,
                             double, double *);
typedef void (*ia_grad_t)(size_t, const double *, ptrdiff_t, const int *,
                          double, double *, const double *, double *, ptrdiff_t,
                          double *);

/* Records of k doubles: cnt[b] records, len[b] = k * cnt[b] elements. */
static void make_counts(rng_t *r, size_t n, int k, int *cnt, int *len) {
  gen_lens(r, n, cnt, 30);
  for (size_t b = 0; b < n; b++)
    len[b] = k * cnt[b];
}

static void t_pairs(void **state) {
  (void)state;
  rng_t r = {name_seed("pairs")};
  static const ia_batched_t fb[] = {ia_idx_batched, ia_walk_batched,
                                    ia_inc_batched, ia_while_batched};
  static const ia_grad_t fg[] = {ia_idx_grad, ia_walk_grad, ia_inc_grad,
                                 ia_while_grad};
  static const char *nm[] = {"ia_idx", "ia_walk", "ia_inc", "ia_while"};
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k], st = 61;
    int *cnt = calloc(n + 1, sizeof(int)), *len = calloc(n + 1, sizeof(int));
    make_counts(&r, n, 2, cnt, len);
    pk_t X;
    pk_make(&X, n, len, 1);
    fill(&X, n, len, &r);
    double *pad = pk_padded(&X, n, len, st);
    double *want = calloc(n + 1, 8), *got = calloc(n + 1, 8);
    double *dr = calloc(n + 1, 8), *g0 = calloc(n * st + 1, 8);
    double *g = calloc(n * st + 1, 8), dw0 = 0.0;
    for (size_t b = 0; b < n; b++) {
      want[b] = ia_decl(cnt[b], pad + b * st, 0.875);
      dr[b] = 1.0 + 0.25 * (double)(b % 7);
    }
    ia_decl_batched(n, cnt, pad, (ptrdiff_t)st, 0.875, got);
    for (size_t b = 0; b < n; b++)
      EXPECT_SAME(got[b], want[b], "ia_decl_batched n=%zu b=%zu", n, b);
    ia_decl_grad(n, cnt, pad, (ptrdiff_t)st, 0.875, NULL, dr, g0, (ptrdiff_t)st,
                 &dw0);
    for (size_t f = 0; f < sizeof fb / sizeof fb[0]; f++) {
      double dw = 0.0;
      memset(got, 0, (n + 1) * 8);
      fb[f](n, pad, (ptrdiff_t)st, cnt, 0.875, got);
      for (size_t b = 0; b < n; b++)
        EXPECT_SAME(got[b], want[b], "%s_batched n=%zu b=%zu", nm[f], n, b);
      memset(g, 0, (n * st + 1) * 8);
      fg[f](n, pad, (ptrdiff_t)st, cnt, 0.875, NULL, dr, g, (ptrdiff_t)st, &dw);
      for (size_t e = 0; e < n * st; e++)
        EXPECT_SAME(g[e], g0[e], "%s_grad d_x n=%zu element %zu", nm[f], n, e);
      EXPECT_SAME(dw, dw0, "%s_grad d_w n=%zu", nm[f], n);
    }
    /* Packed, a guard page after every example. */
    pk_t G;
    pk_make(&G, n, len, 1);
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < len[b]; i++)
        AT(&G, b, i) = 0.0;
    double dwp = 0.0;
    ia_pk_batched(n, X.base, X.off, cnt, 0.875, got);
    ia_pk_grad(n, X.base, X.off, cnt, 0.875, NULL, dr, G.base, &dwp);
    for (size_t b = 0; b < n; b++) {
      EXPECT_SAME(got[b], want[b], "ia_pk_batched n=%zu b=%zu", n, b);
      for (int i = 0; i < len[b]; i++)
        EXPECT_SAME(AT(&G, b, i), g0[b * st + (size_t)i],
                    "ia_pk_grad d_x n=%zu b=%zu i=%d", n, b, i);
    }
    EXPECT_CLOSE(dwp, dw0, "ia_pk_grad d_w n=%zu", n);
    pk_check_gaps(&G, n, len, "ia_pk_grad d_x");
    /* The declared form against central differences (a few examples). */
    for (size_t b = 0; b < n && b < 9; b++)
      for (int i = 0; i < len[b]; i++) {
        double *v = pad + b * st + i, v0 = *v, h = 1e-6;
        *v = v0 + h;
        double fp = ia_decl(cnt[b], pad + b * st, 0.875);
        *v = v0 - h;
        double fm = ia_decl(cnt[b], pad + b * st, 0.875);
        *v = v0;
        double fd = dr[b] * (fp - fm) / (2 * h);
        if (!close_to(g0[b * st + (size_t)i], fd, 1e-6)) {
          print_error("ia_decl_grad n=%zu b=%zu i=%d: %g vs FD %g\n", n, b, i,
                      g0[b * st + (size_t)i], fd);
          fail();
        }
      }
    if (n > 3)
      assert_true(dw0 != 0.0);
    pk_free(&G);
    pk_free(&X);
    free(cnt), free(len), free(pad), free(want), free(got), free(dr);
    free(g0), free(g);
  }
}

static void t_triples(void **state) {
  (void)state;
  rng_t r = {name_seed("triples")};
  const double c[3] = {0.25, -0.5, 0.125};
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k], st = 97;
    int *cnt = calloc(n + 1, sizeof(int)), *len = calloc(n + 1, sizeof(int));
    make_counts(&r, n, 3, cnt, len);
    pk_t X, G;
    pk_make(&X, n, len, 1);
    pk_make(&G, n, len, 1);
    fill(&X, n, len, &r);
    double *pad = calloc(n * st + 1, sizeof(double));
    double *g = calloc(n * st + 1, 8), *ro = calloc(n + 1, 8);
    double *rs = calloc(n + 1, 8), dcs[3] = {0}, dco[3] = {0};
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < len[b]; i++) {
        pad[b * st + (size_t)i] = AT(&X, b, i);
        AT(&G, b, i) = 0.0;
      }
    ib_idx_batched(n, pad, (ptrdiff_t)st, cnt, c, rs);
    ib_walk_batched(n, X.base, X.off, cnt, c, ro);
    for (size_t b = 0; b < n; b++) {
      double want = ib_idx(pad + b * st, cnt[b], c);
      EXPECT_SAME(rs[b], want, "ib_idx_batched n=%zu b=%zu", n, b);
      EXPECT_SAME(ro[b], want, "ib_walk_batched n=%zu b=%zu", n, b);
    }
    ib_idx_grad(n, pad, (ptrdiff_t)st, cnt, c, NULL, NULL, g, (ptrdiff_t)st,
                dcs);
    ib_walk_grad(n, X.base, X.off, cnt, c, NULL, NULL, G.base, dco);
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < len[b]; i++)
        EXPECT_SAME(AT(&G, b, i), g[b * st + (size_t)i],
                    "ib_walk_grad d_p n=%zu b=%zu i=%d", n, b, i);
    for (int j = 0; j < 3; j++)
      EXPECT_CLOSE(dco[j], dcs[j], "ib_walk_grad d_c[%d] n=%zu", j, n);
    pk_check_gaps(&G, n, len, "ib_walk_grad d_p");
    pk_free(&X), pk_free(&G);
    free(cnt), free(len), free(pad), free(g), free(ro), free(rs);
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_pairs),
      cmocka_unit_test(t_triples),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
