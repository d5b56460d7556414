/* Ragged batches without padding (issue 11, docs/abi.md "Ragged batches
 * without padding"): BD_PACKED (offsets) and BD_POINTERS parameters.
 *   - NAME_batched against the scalar function, bit for bit (arithmetic),
 *     and against a strided twin (same body, strided ABI) bit for bit;
 *   - NAME_grad: per-example shadows bit for bit those of the strided
 *     twin, incremented (+=) from a nonzero start; uniform gradients equal
 *     to the twin's to rounding; central finite differences;
 *   - NAME_jvp against the strided twin's, bit for bit;
 *   - a guard page right after EVERY example's extent (one mapping with a
 *     PROT_NONE page after each example for BD_PACKED, the same memory
 *     through BD_POINTERS), sentinels in the gaps of written arrays and
 *     shadows, ret ending at a guard page;
 *   - batches over several BD_CHUNK chunks and over BD_PARALLEL_MIN_N on
 *     1, 2 and 3 threads: every output bit for bit the same;
 *   - float (shape n) rows 8 GiB apart: 32-bit lane offsets cannot reach,
 *     the examples run one at a time, results the same;
 *   - bd_sort_by_length: a stable sort by decreasing length;
 *   - a pointer walk to `x + len` (the extent inferred from the end
 *     pointer), strided and packed, against its indexed twin;
 *   - two-dimensional array parameters (issue 11 part 2): static
 *     `m[3][3]`, output `J[2][3]`, ragged rows `x[n][3]` strided and
 *     BD_PACKED (guard page after each example's last row).
 * Built also with -fplugin-arg-batchdiff-sort-by-length=0 (the caller's
 * order) and with 4 chains. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"

#define RBODY                                                                  \
  double h = h0;                                                               \
  for (int i = 0; i < len; i++)                                                \
    h = w * h + x[i] / (1.0 + x[i] * x[i]);                                    \
  return h * h0;

__attribute__((batch, diff, diff(forward))) double
r_o(BD_PACKED const double *x, int len, double h0, BD_UNIFORM double w) {
  RBODY
}
__attribute__((batch, diff, diff(forward))) double
r_p(BD_POINTERS const double *x, int len, double h0, BD_UNIFORM double w) {
  RBODY
}
__attribute__((batch, diff, diff(forward))) double
r_s(const double *x, int len, double h0, BD_UNIFORM double w){RBODY}

/* tanh recurrence: vector math, compared with the strided twin. */
BATCHDIFF double t_o(BD_PACKED const double *x, int len, BD_UNIFORM double w,
                     BD_UNIFORM double u) {
  double h = 0.0;
  for (int i = 0; i < len; i++)
    h = tanh(w * h + u * x[i]);
  return h;
}
BATCHDIFF double t_s(const double *x, int len, BD_UNIFORM double w,
                     BD_UNIFORM double u) {
  double h = 0.0;
  for (int i = 0; i < len; i++)
    h = tanh(w * h + u * x[i]);
  return h;
}

/* A pointer walk to an end pointer `x + len`: the extent of a plain
 * `const double *x` is inferred from it; the indexed twin is the reference. */
#define WKBODY                                                                 \
  double s = 0.0;                                                              \
  for (const double *p = x, *end = x + len; p < end; p++)                      \
    s = s * w + *p * *p;                                                       \
  return s;
BATCHDIFF double wk_s(const double *x, int len, BD_UNIFORM double w) {
  WKBODY
}
BATCHDIFF double wk_o(BD_PACKED const double *x, int len, BD_UNIFORM double w) {
  WKBODY
}
BATCHDIFF double wk_r(const double *x, int len, BD_UNIFORM double w) {
  double s = 0.0;
  for (int i = 0; i < len; i++)
    s = s * w + x[i] * x[i];
  return s;
}

/* A pointer walked by a counted loop with no end pointer: the extent is
 * the loop's count (`i < len`, `while (len--)`). */
#define WCBODY                                                                 \
  double s = 0.0;                                                              \
  for (int i = 0; i < len; i++) {                                              \
    double v = *x++;                                                           \
    s = s * w + v * v;                                                         \
  }                                                                            \
  return s;
BATCHDIFF double wc_s(const double *x, int len, BD_UNIFORM double w) {
  WCBODY
}
BATCHDIFF double wc_o(BD_PACKED const double *x, int len, BD_UNIFORM double w) {
  WCBODY
}
BATCHDIFF double wd_o(BD_PACKED const double *x, int len, BD_UNIFORM double w) {
  double s = 0.0;
  while (len-- > 0) {
    double v = *x++;
    s = s * w + v * v;
  }
  return s;
}

/* Output arrays in both layouts. */
BATCHDIFF void y_o(BD_PACKED const double *x, BD_PACKED double *y, double a,
                   int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] * x[i] + x[i];
}
BATCHDIFF void y_p(BD_POINTERS const double *x, BD_POINTERS double *y, double a,
                   int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] * x[i] + x[i];
}

/* A strided array next to a packed one (lanes hold any example). */
BATCHDIFF double m_o(BD_PACKED const double *x, const double *s, int len) {
  double h = 0.0;
  for (int i = 0; i < len; i++)
    h = h * 0.5 + x[i] * s[i];
  return h;
}

/* Shape n. */
BATCHDIFF float f_p(BD_POINTERS const float *x, int len, BD_UNIFORM float w) {
  float h = 1.0f;
  for (int i = 0; i < len; i++)
    h = w * h + x[i];
  return h;
}
BATCHDIFF float f_o(BD_PACKED const float *x, int len, BD_UNIFORM float w) {
  float h = 1.0f;
  for (int i = 0; i < len; i++)
    h = w * h + x[i];
  return h;
}

/* Two-dimensional arrays: row-major, flat in the batch's layout. */
BATCHDIFF double det3(const double m[3][3]) {
  return m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
         m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
         m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
}
/* Rows and the whole array passed to helpers. */
static double dot3(const double *a, const double *b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static double gram01(const double g[3][3]) { return dot3(g[0], g[1]); }
BATCHDIFF double mh(const double m[3][3]) { return gram01(m) + dot3(m[2], *m); }
BATCHDIFF void jac(double x, double y, double J[2][3]) {
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      J[i][j] = (i + 1) * x * x + (j + 1) * y * x;
}
#define ROWS_BODY                                                              \
  double s = 0.0;                                                              \
  for (int i = 0; i < n; i++)                                                  \
    s = 0.5 * s + w[0] * x[i][0] + w[1] * x[i][1] * x[i][2];                   \
  return s;
BATCHDIFF double rows_s(int n, const double x[n][3],
                        BD_UNIFORM const double w[2]){ROWS_BODY} BATCHDIFF
    double rows_o(int n, BD_PACKED const double x[n][3],
                  BD_UNIFORM const double w[2]) {
  ROWS_BODY
}

#include "ragged_util.h"

/* r_o / r_p / r_s: batched, grad and jvp, all layouts against each other. */
static void run_r(size_t n, int each, rng_t *r) {
  int *len = malloc((n + 1) * sizeof(int));
  gen_lens(r, n, len, each ? 40 : 300);
  pk_t X, D, T, D2;
  pk_make(&X, n, len, each);
  pk_make(&D, n, len, each);
  pk_make(&D2, n, len, each);
  pk_make(&T, n, len, each);
  fill(&X, n, len, r);
  fill(&T, n, len, r);
  int maxl = 1;
  for (size_t b = 0; b < n; b++)
    maxl = len[b] > maxl ? len[b] : maxl;
  /* The strided twin's padded copy. */
  double *pad = calloc(n * (size_t)maxl + 1, sizeof(double));
  double *dpad = calloc(n * (size_t)maxl + 1, sizeof(double));
  double *tpad = calloc(n * (size_t)maxl + 1, sizeof(double));
  for (size_t b = 0; b < n; b++)
    for (int i = 0; i < len[b]; i++) {
      pad[b * (size_t)maxl + (size_t)i] = AT(&X, b, i);
      tpad[b * (size_t)maxl + (size_t)i] = AT(&T, b, i);
      AT(&D, b, i) = AT(&D2, b, i) = dpad[b * (size_t)maxl + (size_t)i] = 0.25;
    }
  double *h0 = malloc((n + 1) * sizeof(double));
  double *th0 = malloc((n + 1) * sizeof(double));
  for (size_t b = 0; b < n; b++) {
    h0[b] = rng_range(r, -1.0, 1.0);
    th0[b] = rng_range(r, -1.0, 1.0);
  }
  double w = 0.75;
  double *ro = gp_alloc(n * sizeof(double)), *rp = gp_alloc(n * sizeof(double));
  double *rs = malloc((n + 1) * sizeof(double));
  r_o_batched(n, X.base, X.off, len, h0, w, ro);
  r_p_batched(n, X.ptr, len, h0, w, rp);
  r_s_batched(n, pad, maxl, len, h0, w, rs);
  for (size_t b = 0; b < n; b++) {
    double want = r_o(X.base + X.off[b], len[b], h0[b], w);
    EXPECT_SAME(ro[b], want, "r_o_batched n=%zu b=%zu", n, b);
    EXPECT_SAME(rp[b], want, "r_p_batched n=%zu b=%zu", n, b);
    EXPECT_SAME(rs[b], want, "r_s_batched n=%zu b=%zu", n, b);
  }
  /* Gradients: shadows start at 0.25 (incremented), seeds random. */
  double *seed = malloc((n + 1) * sizeof(double));
  double *dh0o = gp_alloc(n * sizeof(double)),
         *dh0p = gp_alloc(n * sizeof(double));
  double *dh0s = malloc((n + 1) * sizeof(double));
  for (size_t b = 0; b < n; b++) {
    seed[b] = rng_range(r, -1.0, 1.0);
    dh0o[b] = dh0p[b] = dh0s[b] = 0.5;
  }
  double dwo = 0.125, dwp = 0.125, dws = 0.125;
  r_o_grad(n, X.base, X.off, len, h0, w, ro, seed, D.base, dh0o, &dwo);
  r_p_grad(n, X.ptr, len, h0, w, rp, seed, D2.wptr, dh0p, &dwp);
  r_s_grad(n, pad, maxl, len, h0, w, rs, seed, dpad, maxl, dh0s, &dws);
  for (size_t b = 0; b < n; b++) {
    EXPECT_SAME(ro[b], rs[b], "r_o_grad ret n=%zu b=%zu", n, b);
    EXPECT_SAME(dh0o[b], dh0s[b], "r_o_grad d_h0 n=%zu b=%zu", n, b);
    EXPECT_SAME(dh0p[b], dh0s[b], "r_p_grad d_h0 n=%zu b=%zu", n, b);
    for (int i = 0; i < len[b]; i++) {
      double want = dpad[b * (size_t)maxl + (size_t)i];
      EXPECT_SAME(AT(&D, b, i), want, "r_o_grad d_x n=%zu b=%zu i=%d", n, b, i);
      EXPECT_SAME(AT(&D2, b, i), want, "r_p_grad d_x n=%zu b=%zu i=%d", n, b,
                  i);
    }
  }
  double tol = 1e-12 * (1.0 + fabs(dws)) * (1.0 + (double)n);
  if (fabs(dwo - dws) > tol || fabs(dwp - dws) > tol) {
    print_error("d_w n=%zu: %a %a vs strided %a\n", n, dwo, dwp, dws);
    fail();
  }
  /* Central finite differences for a few examples. */
  for (size_t b = 0; b < n && b < 12; b++) {
    double *xb = malloc(((size_t)len[b] + 1) * sizeof(double));
    for (int i = 0; i < len[b]; i++)
      xb[i] = AT(&X, b, i);
    for (int i = 0; i < len[b] && i < 6; i++) {
      double e = 1e-6, x0 = xb[i];
      xb[i] = x0 + e;
      double fp = r_s(xb, len[b], h0[b], w);
      xb[i] = x0 - e;
      double fm = r_s(xb, len[b], h0[b], w);
      xb[i] = x0;
      double fd = seed[b] * (fp - fm) / (2 * e);
      double g = AT(&D, b, i) - 0.25;
      if (!close_to(g, fd, 1e-6)) {
        print_error("r_o_grad FD n=%zu b=%zu i=%d: %g vs %g\n", n, b, i, g, fd);
        fail();
      }
    }
    free(xb);
  }
  pk_check_gaps(&D, n, len, "r_o_grad d_x");
  pk_check_gaps(&D2, n, len, "r_p_grad d_x");
  /* Forward mode: tangents in the primal's layout. */
  double *jo = gp_alloc(n * sizeof(double)), *jp = gp_alloc(n * sizeof(double));
  double *js = malloc((n + 1) * sizeof(double));
  double tw = 0.5;
  r_o_jvp(n, X.base, X.off, len, h0, w, T.base, th0, &tw, NULL, jo);
  r_p_jvp(n, X.ptr, len, h0, w, T.ptr, th0, &tw, NULL, jp);
  r_s_jvp(n, pad, maxl, len, h0, w, tpad, maxl, th0, &tw, NULL, js);
  for (size_t b = 0; b < n; b++) {
    EXPECT_SAME(jo[b], js[b], "r_o_jvp n=%zu b=%zu", n, b);
    EXPECT_SAME(jp[b], js[b], "r_p_jvp n=%zu b=%zu", n, b);
  }
  /* NULL shadows: nothing written there, the others unchanged. */
  r_o_grad(n, X.base, X.off, len, h0, w, NULL, NULL, NULL, NULL, &dwo);
  r_p_grad(n, X.ptr, len, h0, w, NULL, NULL, NULL, dh0p, NULL);
  free(len), free(pad), free(dpad), free(tpad), free(h0), free(th0);
  free(rs), free(seed), free(dh0s), free(js);
  pk_free(&X), pk_free(&D), pk_free(&D2), pk_free(&T);
  gp_reset();
}

static void t_r(void **state) {
  (void)state;
  rng_t r = {name_seed("r")};
  for (size_t k = 0; k < N_NS; k++) {
    run_r(ns[k], ns[k] <= 100, &r);
    run_r(ns[k], 0, &r);
  }
}

/* tanh recurrence: packed against strided, bit for bit. */
static void t_tanh(void **state) {
  (void)state;
  rng_t r = {name_seed("tanh")};
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k];
    int *len = malloc((n + 1) * sizeof(int));
    gen_lens(&r, n, len, 256);
    pk_t X;
    pk_make(&X, n, len, 0);
    fill(&X, n, len, &r);
    double *pad = pk_padded(&X, n, len, 256);
    double *ro = malloc((n + 1) * sizeof(double));
    double *rs = malloc((n + 1) * sizeof(double));
    t_o_batched(n, X.base, X.off, len, 0.9, 0.7, ro);
    t_s_batched(n, pad, 256, len, 0.9, 0.7, rs);
    for (size_t b = 0; b < n; b++) {
      EXPECT_SAME(ro[b], rs[b], "t_o_batched n=%zu b=%zu", n, b);
      double want = t_o(X.base + X.off[b], len[b], 0.9, 0.7);
      if (fabs(ro[b] - want) > 1e-13) {
        print_error("t_o n=%zu b=%zu: %a vs scalar %a\n", n, b, ro[b], want);
        fail();
      }
    }
    free(len), free(pad), free(ro), free(rs);
    pk_free(&X);
  }
}

/* wk_s (strided) and wk_o (packed, a guard page after every example)
 * against the indexed twin and the scalar function, bit for bit. */
static void t_walk(void **state) {
  (void)state;
  rng_t r = {name_seed("walk")};
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k], st = 41;
    int *len = malloc((n + 1) * sizeof(int));
    gen_lens(&r, n, len, 40);
    pk_t X;
    pk_make(&X, n, len, 1);
    fill(&X, n, len, &r);
    double *pad = pk_padded(&X, n, len, st);
    double *ro = calloc(n + 1, sizeof(double)), *rs = calloc(n + 1, 8);
    double *rr = calloc(n + 1, sizeof(double)), *dr = calloc(n + 1, 8);
    double *gs = calloc(n * st + 1, 8), *gr = calloc(n * st + 1, 8);
    double dws = 0.0, dwr = 0.0;
    double *co = calloc(n + 1, 8), *cs = calloc(n + 1, 8);
    double *cd = calloc(n + 1, 8);
    wk_o_batched(n, X.base, X.off, len, 0.75, ro);
    wk_s_batched(n, pad, (ptrdiff_t)st, len, 0.75, rs);
    wk_r_batched(n, pad, (ptrdiff_t)st, len, 0.75, rr);
    wc_o_batched(n, X.base, X.off, len, 0.75, co);
    wc_s_batched(n, pad, (ptrdiff_t)st, len, 0.75, cs);
    wd_o_batched(n, X.base, X.off, len, 0.75, cd);
    for (size_t b = 0; b < n; b++) {
      double want = wk_r(pad + b * st, len[b], 0.75);
      EXPECT_SAME(ro[b], want, "wk_o_batched n=%zu b=%zu", n, b);
      EXPECT_SAME(rs[b], want, "wk_s_batched n=%zu b=%zu", n, b);
      EXPECT_SAME(rr[b], want, "wk_r_batched n=%zu b=%zu", n, b);
      EXPECT_SAME(co[b], want, "wc_o_batched n=%zu b=%zu", n, b);
      EXPECT_SAME(cs[b], want, "wc_s_batched n=%zu b=%zu", n, b);
      EXPECT_SAME(cd[b], want, "wd_o_batched n=%zu b=%zu", n, b);
      dr[b] = 1.0 + 0.25 * (double)(b % 5);
    }
    /* Gradients of the counted walks: those of the indexed twin. */
    pk_t G, GD;
    pk_make(&G, n, len, 1);
    pk_make(&GD, n, len, 1);
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < len[b]; i++)
        AT(&G, b, i) = AT(&GD, b, i) = 0.0;
    double dwo = 0.0, dwd = 0.0, dwc = 0.0;
    double *gc = calloc(n * st + 1, 8);
    wc_o_grad(n, X.base, X.off, len, 0.75, NULL, dr, G.base, &dwo);
    wd_o_grad(n, X.base, X.off, len, 0.75, NULL, dr, GD.base, &dwd);
    wc_s_grad(n, pad, (ptrdiff_t)st, len, 0.75, NULL, dr, gc, (ptrdiff_t)st,
              &dwc);
    free(co), free(cs), free(cd);
    wk_s_grad(n, pad, (ptrdiff_t)st, len, 0.75, rs, dr, gs, (ptrdiff_t)st,
              &dws);
    wk_r_grad(n, pad, (ptrdiff_t)st, len, 0.75, rr, dr, gr, (ptrdiff_t)st,
              &dwr);
    for (size_t e = 0; e < n * st; e++) {
      EXPECT_SAME(gs[e], gr[e], "wk_s_grad d_x n=%zu element %zu", n, e);
      EXPECT_SAME(gc[e], gr[e], "wc_s_grad d_x n=%zu element %zu", n, e);
    }
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < len[b]; i++) {
        EXPECT_SAME(AT(&G, b, i), gr[b * st + (size_t)i],
                    "wc_o_grad d_x n=%zu b=%zu i=%d", n, b, i);
        EXPECT_SAME(AT(&GD, b, i), gr[b * st + (size_t)i],
                    "wd_o_grad d_x n=%zu b=%zu i=%d", n, b, i);
      }
    EXPECT_SAME(dws, dwr, "wk_s_grad d_w n=%zu", n);
    EXPECT_CLOSE(dwo, dwr, "wc_o_grad d_w n=%zu", n);
    EXPECT_CLOSE(dwd, dwr, "wd_o_grad d_w n=%zu", n);
    EXPECT_SAME(dwc, dwr, "wc_s_grad d_w n=%zu", n);
    free(gc);
    pk_free(&G);
    pk_free(&GD);
    if (n > 0)
      assert_true(dwr != 0.0 || n < 3);
    free(len), free(pad), free(ro), free(rs), free(rr), free(dr), free(gs);
    free(gr);
    pk_free(&X);
  }
}

/* Output arrays: values bit for bit, gaps untouched, gradients. */
static void t_out(void **state) {
  (void)state;
  rng_t r = {name_seed("out")};
  for (size_t k = 0; k < N_NS; k++)
    for (int each = 0; each < 2; each++) {
      size_t n = ns[k];
      if (each && n > 100)
        continue;
      int *len = malloc((n + 1) * sizeof(int));
      gen_lens(&r, n, len, 40);
      pk_t X, Y, Y2, DX, DY;
      pk_make(&X, n, len, each);
      pk_make(&Y, n, len, each);
      pk_make(&Y2, n, len, each);
      pk_make(&DX, n, len, each);
      pk_make(&DY, n, len, each);
      fill(&X, n, len, &r);
      double *a = malloc((n + 1) * sizeof(double));
      for (size_t b = 0; b < n; b++)
        a[b] = rng_range(&r, -1.0, 1.0);
      y_o_batched(n, X.base, X.off, Y.base, Y.off, a, len);
      y_p_batched(n, X.ptr, Y2.wptr, a, len);
      for (size_t b = 0; b < n; b++)
        for (int i = 0; i < len[b]; i++) {
          double want = a[b] * AT(&X, b, i) * AT(&X, b, i) + AT(&X, b, i);
          EXPECT_SAME(AT(&Y, b, i), want, "y_o n=%zu b=%zu i=%d", n, b, i);
          EXPECT_SAME(AT(&Y2, b, i), want, "y_p n=%zu b=%zu i=%d", n, b, i);
        }
      pk_check_gaps(&Y, n, len, "y_o y");
      pk_check_gaps(&Y2, n, len, "y_p y");
      /* d_y: cotangents on entry, 0 on exit (only written). */
      for (size_t b = 0; b < n; b++)
        for (int i = 0; i < len[b]; i++) {
          AT(&DY, b, i) = rng_range(&r, -1.0, 1.0);
          AT(&DX, b, i) = 0.25;
        }
      double *cot = malloc(((DY.off[n] + 1)) * sizeof(double));
      for (size_t b = 0; b < n; b++)
        for (int i = 0; i < len[b]; i++)
          cot[DY.off[b] + (size_t)i] = AT(&DY, b, i);
      double *da = gp_alloc(n * sizeof(double));
      memset(da, 0, n * sizeof(double));
      y_o_grad(n, X.base, X.off, Y.base, Y.off, a, len, DX.base, DY.base, da);
      for (size_t b = 0; b < n; b++) {
        double want_da = 0.0;
        for (int i = 0; i < len[b]; i++) {
          double x = AT(&X, b, i), c = cot[DY.off[b] + (size_t)i];
          double g = c * (2.0 * a[b] * x + 1.0);
          want_da += c * x * x;
          if (!close_to(AT(&DX, b, i) - 0.25, g, 1e-13) ||
              AT(&DY, b, i) != 0.0) {
            print_error("y_o_grad n=%zu b=%zu i=%d: d_x %g want %g, d_y %g\n",
                        n, b, i, AT(&DX, b, i) - 0.25, g, AT(&DY, b, i));
            fail();
          }
        }
        if (!close_to(da[b], want_da, 1e-12)) {
          print_error("y_o_grad d_a n=%zu b=%zu: %g vs %g\n", n, b, da[b],
                      want_da);
          fail();
        }
      }
      pk_check_gaps(&DX, n, len, "y_o_grad d_x");
      pk_check_gaps(&DY, n, len, "y_o_grad d_y");
      free(len), free(a), free(cot);
      pk_free(&X), pk_free(&Y), pk_free(&Y2), pk_free(&DX), pk_free(&DY);
      gp_reset();
    }
}

/* A strided array next to a packed one. */
static void t_mixed(void **state) {
  (void)state;
  rng_t r = {name_seed("mixed")};
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k];
    int *len = malloc((n + 1) * sizeof(int));
    gen_lens(&r, n, len, 40);
    pk_t X;
    pk_make(&X, n, len, n <= 100);
    fill(&X, n, len, &r);
    ptrdiff_t S = 41;
    double *s = gp_alloc((n * (size_t)S + 1) * sizeof(double));
    for (size_t e = 0; e < n * (size_t)S + 1; e++)
      s[e] = rng_range(&r, -1.0, 1.0);
    double *ro = gp_alloc(n * sizeof(double));
    m_o_batched(n, X.base, X.off, s, S, len, ro);
    for (size_t b = 0; b < n; b++)
      EXPECT_SAME(ro[b], m_o(X.base + X.off[b], s + b * (size_t)S, len[b]),
                  "m_o n=%zu b=%zu", n, b);
    free(len);
    pk_free(&X);
    gp_reset();
  }
}

/* Every output bit for bit the same on 1, 2 and 3 threads. */
static void t_threads(void **state) {
  (void)state;
  rng_t r = {name_seed("threads")};
  size_t n = 40000;
  int *len = malloc(n * sizeof(int));
  gen_lens(&r, n, len, 64);
  pk_t X;
  pk_make(&X, n, len, 0);
  fill(&X, n, len, &r);
  double *h0 = malloc(n * sizeof(double));
  for (size_t b = 0; b < n; b++)
    h0[b] = rng_range(&r, -1.0, 1.0);
  double *ret[3], *dh0[3], dw[3];
  double *dx[3];
  for (int t = 0; t < 3; t++) {
    bd_set_num_threads(t + 1);
    ret[t] = malloc(n * sizeof(double));
    dh0[t] = calloc(n, sizeof(double));
    dx[t] = calloc(X.off[n] + 1, sizeof(double));
    dw[t] = 0.0;
    r_o_grad(n, X.base, X.off, len, h0, 0.75, ret[t], NULL, dx[t], dh0[t],
             &dw[t]);
  }
  bd_set_num_threads(0);
  for (int t = 1; t < 3; t++) {
    assert_memory_equal(ret[t], ret[0], n * sizeof(double));
    assert_memory_equal(dh0[t], dh0[0], n * sizeof(double));
    assert_memory_equal(dx[t], dx[0], X.off[n] * sizeof(double));
    EXPECT_SAME(dw[t], dw[0], "d_w threads=%d", t + 1);
  }
  for (int t = 0; t < 3; t++)
    free(ret[t]), free(dh0[t]), free(dx[t]);
  free(len), free(h0);
  pk_free(&X);
}

/* Float rows 8 GiB apart: 32-bit lane offsets cannot address both. */
static void t_far(void **state) {
  (void)state;
  size_t pg = gp_page(), span = ((size_t)9 << 30) / pg * pg;
  char *m = mmap(NULL, span + pg, PROT_NONE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) {
    print_message("t_far: no 9 GiB of address space; skipped\n");
    return;
  }
  assert_int_equal(mprotect(m, pg, PROT_READ | PROT_WRITE), 0);
  assert_int_equal(mprotect(m + span - pg, pg, PROT_READ | PROT_WRITE), 0);
  size_t n = 19, P = pg / sizeof(float);
  const float *ptr[19];
  int len[19];
  float *lo = (float *)m, *hi = (float *)(m + span - pg);
  for (size_t b = 0; b < n; b++) {
    len[b] = (int)(b % 5) + 1;
    float *base = (b % 2 ? hi : lo) + (b / 2) * 6;
    for (int i = 0; i < len[b]; i++)
      base[i] = (float)(b + 1) * 0.25f + (float)i;
    ptr[b] = base;
    assert_true((b / 2) * 6 + 6 < P);
  }
  float ret[19];
  f_p_batched(n, ptr, len, 0.5f, ret);
  for (size_t b = 0; b < n; b++)
    EXPECT_SAME((double)ret[b], (double)f_p(ptr[b], len[b], 0.5f),
                "f_p far n=%zu b=%zu", n, b);
  /* The same through offsets from lo: beyond 2^31 elements. */
  size_t off[19];
  for (size_t b = 0; b < n; b++)
    off[b] = (size_t)(ptr[b] - lo);
  f_o_batched(n, lo, off, len, 0.5f, ret);
  for (size_t b = 0; b < n; b++)
    EXPECT_SAME((double)ret[b], (double)f_p(ptr[b], len[b], 0.5f),
                "f_o far n=%zu b=%zu", n, b);
  munmap(m, span + pg);
}

/* bd_sort_by_length: a permutation, lengths non-increasing, ties in index
 * order. */
static void t_sort(void **state) {
  (void)state;
  rng_t r = {name_seed("sort")};
  /* Short lengths (one byte), lengths that agree in some bytes and differ
   * in others, and lengths spread over every byte. */
  for (int kind = 0; kind < 3; kind++)
    for (size_t n = 0; n < 300; n += 1 + n / 4) {
      size_t *len = malloc((n + 1) * sizeof(size_t));
      size_t *ord = malloc((n + 1) * sizeof(size_t));
      size_t *scr = malloc((n + 1) * sizeof(size_t));
      unsigned char *seen = calloc(n + 1, 1);
      for (size_t b = 0; b < n; b++) {
        size_t hi = (size_t)rng_below(&r, 3), lo = (size_t)rng_below(&r, 7);
        len[b] = kind == 0   ? lo
                 : kind == 1 ? (hi << 40) | ((size_t)0x5a << 16) | (lo << 8)
                             : ((size_t)rng_below(&r, 1u << 30) << 34) ^
                                   (size_t)rng_below(&r, 1u << 30) ^ lo;
      }
      bd_sort_by_length(n, len, ord, scr);
      for (size_t j = 0; j < n; j++) {
        assert_true(ord[j] < n && !seen[ord[j]]);
        seen[ord[j]] = 1;
        if (j)
          assert_true(len[ord[j - 1]] > len[ord[j]] ||
                      (len[ord[j - 1]] == len[ord[j]] && ord[j - 1] < ord[j]));
      }
      free(len), free(ord), free(scr), free(seen);
    }
}

/* Two-dimensional arrays against the scalar function, bit for bit, and
 * their gradients against finite differences. */
static void t_2d(void **state) {
  (void)state;
  rng_t r = {name_seed("2d")};
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k];
    double *m = gp_alloc((n * 9 + 1) * sizeof(double));
    for (size_t e = 0; e < n * 9 + 1; e++)
      m[e] = rng_range(&r, -1.0, 1.0);
    double *ret = gp_alloc(n * sizeof(double));
    det3_batched(n, (const double *)m, 9, ret);
    for (size_t b = 0; b < n; b++)
      EXPECT_SAME(ret[b], det3((const double(*)[3])(m + 9 * b)),
                  "det3 n=%zu b=%zu", n, b);
    mh_batched(n, (const double *)m, 9, ret);
    for (size_t b = 0; b < n; b++)
      EXPECT_SAME(ret[b], mh((const double(*)[3])(m + 9 * b)), "mh n=%zu b=%zu",
                  n, b);
    /* d det / d m[i][j] is the cofactor: finite differences. */
    double *dm = gp_alloc(n * 9 * sizeof(double));
    memset(dm, 0, n * 9 * sizeof(double));
    det3_grad(n, (const double *)m, 9, NULL, NULL, dm, 9);
    for (size_t b = 0; b < n && b < 8; b++)
      for (int e = 0; e < 9; e++) {
        double c[9], h = 1e-6;
        memcpy(c, m + 9 * b, sizeof c);
        c[e] += h;
        double fp = det3((const double(*)[3])c);
        c[e] -= 2 * h;
        double fm = det3((const double(*)[3])c);
        double fd = (fp - fm) / (2 * h);
        if (fabs(dm[9 * b + (size_t)e] - fd) > 1e-8) {
          print_error("det3_grad n=%zu b=%zu e=%d: %g vs %g\n", n, b, e,
                      dm[9 * b + (size_t)e], fd);
          fail();
        }
      }
    /* Output rows: J[i][j] at J + b * 6 + 3 * i + j. */
    double *x = malloc((n + 1) * sizeof(double)), *y = malloc((n + 1) * 8);
    for (size_t b = 0; b < n; b++)
      x[b] = rng_range(&r, -1.0, 1.0), y[b] = rng_range(&r, -1.0, 1.0);
    double *J = gp_alloc(n * 6 * sizeof(double));
    jac_batched(n, x, y, J, 6);
    for (size_t b = 0; b < n; b++) {
      double want[2][3];
      jac(x[b], y[b], want);
      assert_memory_equal(J + 6 * b, want, sizeof want);
    }
    /* d_x = sum_ij cot_ij * ((i + 1) 2 x + (j + 1) y), cot = 1. */
    double *dJ = gp_alloc(n * 6 * sizeof(double));
    double *dx = gp_alloc(n * sizeof(double)), *dy = gp_alloc(n * 8);
    for (size_t e = 0; e < n * 6; e++)
      dJ[e] = 1.0;
    memset(dx, 0, n * 8), memset(dy, 0, n * 8);
    jac_grad(n, x, y, J, 6, dx, dy, dJ, 6);
    for (size_t b = 0; b < n; b++) {
      double wx = 0, wy = 0;
      for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
          wx += (i + 1) * 2 * x[b] + (j + 1) * y[b], wy += (j + 1) * x[b];
      if (fabs(dx[b] - wx) > 1e-13 || fabs(dy[b] - wy) > 1e-13) {
        print_error("jac_grad n=%zu b=%zu: %g %g vs %g %g\n", n, b, dx[b],
                    dy[b], wx, wy);
        fail();
      }
    }
    /* Ragged rows: strided (rows of the longest), and packed with a guard
     * page after every example's last row. */
    int *nr = malloc((n + 1) * sizeof(int)), *len = malloc((n + 1) * 4);
    gen_lens(&r, n, nr, 12);
    for (size_t b = 0; b < n; b++)
      len[b] = 3 * nr[b];
    pk_t X;
    pk_make(&X, n, len, n <= 100);
    fill(&X, n, len, &r);
    double w[2] = {0.75, -1.25};
    double *pad = pk_padded(&X, n, len, 36);
    double *ro = gp_alloc(n * sizeof(double)), *rs = gp_alloc(n * 8);
    rows_o_batched(n, nr, X.base, X.off, w, ro);
    rows_s_batched(n, nr, pad, 36, w, rs);
    for (size_t b = 0; b < n; b++) {
      double want = rows_s(nr[b], (const double(*)[3])(X.base + X.off[b]), w);
      EXPECT_SAME(ro[b], want, "rows_o n=%zu b=%zu", n, b);
      EXPECT_SAME(rs[b], want, "rows_s n=%zu b=%zu", n, b);
    }
    pk_t DX;
    pk_make(&DX, n, len, n <= 100);
    for (size_t b = 0; b < n; b++)
      for (int e = 0; e < len[b]; e++)
        AT(&DX, b, e) = 0.0;
    double dw[2] = {0, 0};
    rows_o_grad(n, nr, X.base, X.off, w, NULL, NULL, DX.base, dw);
    for (size_t b = 0; b < n && b < 6; b++)
      for (int e = 0; e < len[b] && e < 9; e++) {
        double c[36], h = 1e-6;
        for (int q = 0; q < len[b]; q++)
          c[q] = AT(&X, b, q);
        c[e] += h;
        double fp = rows_s(nr[b], (const double(*)[3])c, w);
        c[e] -= 2 * h;
        double fm = rows_s(nr[b], (const double(*)[3])c, w);
        double fd = (fp - fm) / (2 * h);
        if (!close_to(AT(&DX, b, e), fd, 1e-7)) {
          print_error("rows_o_grad n=%zu b=%zu e=%d: %g vs %g\n", n, b, e,
                      AT(&DX, b, e), fd);
          fail();
        }
      }
    pk_check_gaps(&DX, n, len, "rows_o_grad d_x");
    free(x), free(y), free(nr), free(len), free(pad);
    pk_free(&X), pk_free(&DX);
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_r),       cmocka_unit_test(t_tanh),
      cmocka_unit_test(t_walk),
      cmocka_unit_test(t_out),     cmocka_unit_test(t_mixed),
      cmocka_unit_test(t_threads), cmocka_unit_test(t_far),
      cmocka_unit_test(t_sort),    cmocka_unit_test(t_2d),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
