/* Two- and three-dimensional VLA parameters, `const double m[r][c]`,
 * `double o[r][c]`, `const double t[a][b][c]`, `BD_EXTENT(r) const double
 * m[][c]`: row-major, m[i][j] at i * c + j of each example's array, with r
 * and c per example (ragged: each lane runs its own loops under a mask) or
 * BD_UNIFORM, strided and BD_PACKED; rows passed to helpers and read
 * through a row pointer.
 *   - NAME_batched bit for bit the scalar function for every n of ns;
 *   - NAME_grad, NAME_jvp and NAME_hvp bit for bit the hand-flattened form
 *     `m[r * c]` indexed m[i * c + j] (the same arithmetic), and NAME_grad
 *     against central differences of the scalar function;
 *   - BD_PACKED examples end right before a guard page, and nothing outside
 *     an example's r x c elements is written;
 *   - a helper's VLA parameter `m[r][c]` given a static `m[r][4]`, and rows
 *     of `m[][c]` told by the loop over them, passed to a helper;
 *   - uniform r and c with BD_POINTERS rows and a uniform w. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"
#include "ragged_util.h"

/* sum_i (i + 1) (m[i] . w)^2: nonlinear, so that the H.v products of m and
 * w mix. */
BATCHDIFF BD_JVP BD_HVP double mv(int r, int c, const double m[r][c],
                                  const double w[c]) {
  double s = 0.0;
  for (int i = 0; i < r; i++) {
    double t = 0.0;
    for (int j = 0; j < c; j++)
      t += m[i][j] * w[j];
    s += (i + 1) * t * t;
  }
  return s;
}
BATCHDIFF BD_JVP BD_HVP double mv_flat(int r, int c, const double m[r * c],
                                       const double w[c]) {
  double s = 0.0;
  for (int i = 0; i < r; i++) {
    double t = 0.0;
    for (int j = 0; j < c; j++)
      t += m[i * c + j] * w[j];
    s += (i + 1) * t * t;
  }
  return s;
}

/* mv with uniform r and c, one pointer per example (BD_POINTERS) and a
 * shared w. */
BATCHDIFF double mvu(BD_UNIFORM int r, BD_UNIFORM int c,
                     BD_POINTERS const double m[r][c],
                     BD_UNIFORM const double w[c]) {
  double s = 0.0;
  for (int i = 0; i < r; i++) {
    double t = 0.0;
    for (int j = 0; j < c; j++)
      t += m[i][j] * w[j];
    s += (i + 1) * t * t;
  }
  return s;
}

/* Rows to a helper (a 1-D VLA parameter), a row pointer, *m[i]. */
static double dotc(int c, const double a[c], const double b[c]) {
  double s = 0.0;
  for (int j = 0; j < c; j++)
    s += a[j] * b[j];
  return s;
}
BATCHDIFF double rows(int r, int c, BD_PACKED BD_EXTENT(r) const double m[][c],
                      BD_PACKED const double w[c], double x) {
  double s = 0.0;
  for (int i = 0; i < r; i++) {
    const double *row = m[i];
    s = s * x + dotc(c, m[i], w);
    if (c > 0)
      s += row[c - 1] * *m[i];
  }
  return s;
}
static double dotc_flat(int c, const double *a, const double *b) {
  double s = 0.0;
  for (int j = 0; j < c; j++)
    s += a[j] * b[j];
  return s;
}
BATCHDIFF double rows_flat(int r, int c, BD_PACKED const double m[r * c],
                           BD_PACKED const double w[c], double x) {
  double s = 0.0;
  for (int i = 0; i < r; i++) {
    const double *row = m + i * c;
    s = s * x + dotc_flat(c, m + i * c, w);
    if (c > 0)
      s += row[c - 1] * m[i * c];
  }
  return s;
}

/* An r x c output, read and written, with a uniform column count. */
BATCHDIFF void outer(int r, BD_UNIFORM int c, const double u[r],
                     BD_UNIFORM const double v[c], double x, double o[r][c]) {
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++)
      o[i][j] = x * u[i] * v[j] + 0.5 * o[i][j] * o[i][j];
}
BATCHDIFF void outer_flat(int r, BD_UNIFORM int c, const double u[r],
                          BD_UNIFORM const double v[c], double x,
                          double o[r * c]) {
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++)
      o[i * c + j] = x * u[i] * v[j] + 0.5 * o[i * c + j] * o[i * c + j];
}

/* Three dimensions: planes of b x c. */
BATCHDIFF double cube(int a, int b, int c, const double t[a][b][c], double x) {
  double s = 0.0;
  for (int p = 0; p < a; p++)
    for (int i = 0; i < b; i++)
      for (int j = 0; j < c; j++)
        s = s * x + t[p][i][j] * t[p][b - 1 - i][j];
  return s;
}
BATCHDIFF double cube_flat(int a, int b, int c, const double t[a * b * c],
                           double x) {
  double s = 0.0;
  for (int p = 0; p < a; p++)
    for (int i = 0; i < b; i++)
      for (int j = 0; j < c; j++)
        s = s * x + t[(p * b + i) * c + j] * t[(p * b + b - 1 - i) * c + j];
  return s;
}

/* A helper's VLA parameter given a static 2-D array; rows told by the
 * loop (`m[][c]`) passed to a helper. */
static double hsum(int r, int c, const double m[r][c], double x) {
  double s = 0.0;
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++)
      s = s * x + m[i][j];
  return s;
}
BATCHDIFF double st4(int r, const double m[r][4], double x) {
  return hsum(r, 4, m, x);
}
BATCHDIFF double vi(int r, int c, const double m[][c], double x) {
  double s = 0.0;
  for (int i = 0; i < r; i++)
    s = s * x + dotc(c, m[i], m[i]);
  return s;
}

enum { MR = 6, MC = 5, SM = MR * MC };

static double *rand_array(rng_t *g, size_t len) {
  double *a = malloc((len + 1) * sizeof(double));
  for (size_t e = 0; e < len; e++)
    a[e] = rng_range(g, -1.0, 1.0);
  return a;
}

/* mv strided, per-lane r and c: batched against the scalar function, grad,
 * jvp and hvp against mv_flat's, grad against central differences. */
static void t_mv(void **state) {
  (void)state;
  rng_t g = {name_seed("vla2d mv")};
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k];
    int *r = calloc(n + 1, sizeof(int)), *c = calloc(n + 1, sizeof(int));
    for (size_t b = 0; b < n; b++)
      r[b] = (int)rng_below(&g, MR + 1), c[b] = (int)rng_below(&g, MC + 1);
    double *m = rand_array(&g, n * SM), *w = rand_array(&g, n * MC);
    double *tm = rand_array(&g, n * SM), *tw = rand_array(&g, n * MC);
    double *got = calloc(n + 1, 8), *want = calloc(n + 1, 8);
    double *dm[2], *dw[2], *hm[2], *hw[2], *jr[2], *jd[2];
    for (int v = 0; v < 2; v++) {
      dm[v] = calloc(n * SM + 1, 8), dw[v] = calloc(n * MC + 1, 8);
      hm[v] = calloc(n * SM + 1, 8), hw[v] = calloc(n * MC + 1, 8);
      jr[v] = calloc(n + 1, 8), jd[v] = calloc(n + 1, 8);
    }
    mv_batched(n, r, c, m, SM, w, MC, got);
    for (size_t b = 0; b < n; b++)
      EXPECT_SAME(got[b],
                  mv(r[b], c[b], (const void *)(m + b * SM), w + b * MC),
                  "mv_batched n=%zu b=%zu", n, b);
    mv_grad(n, r, c, m, SM, w, MC, NULL, NULL, dm[0], SM, dw[0], MC);
    mv_flat_grad(n, r, c, m, SM, w, MC, NULL, NULL, dm[1], SM, dw[1], MC);
    mv_jvp(n, r, c, m, SM, w, MC, tm, SM, tw, MC, jr[0], jd[0]);
    mv_flat_jvp(n, r, c, m, SM, w, MC, tm, SM, tw, MC, jr[1], jd[1]);
    for (int v = 0; v < 2; v++)
      memset(dm[v], 0, (n * SM + 1) * 8), memset(dw[v], 0, (n * MC + 1) * 8);
    mv_hvp(n, r, c, m, SM, w, MC, tm, SM, tw, MC, want, NULL, dm[0], SM, dw[0],
           MC, hm[0], SM, hw[0], MC);
    mv_flat_hvp(n, r, c, m, SM, w, MC, tm, SM, tw, MC, got, NULL, dm[1], SM,
                dw[1], MC, hm[1], SM, hw[1], MC);
    for (size_t b = 0; b < n; b++) {
      EXPECT_SAME(want[b], got[b], "mv_hvp ret n=%zu b=%zu", n, b);
      EXPECT_SAME(jr[0][b], jr[1][b], "mv_jvp ret n=%zu b=%zu", n, b);
      EXPECT_SAME(jd[0][b], jd[1][b], "mv_jvp d_ret n=%zu b=%zu", n, b);
    }
    for (size_t e = 0; e < n * SM; e++) {
      EXPECT_SAME(dm[0][e], dm[1][e], "mv_hvp d_m n=%zu e=%zu", n, e);
      EXPECT_SAME(hm[0][e], hm[1][e], "mv_hvp h_m n=%zu e=%zu", n, e);
      /* nothing outside example b's r x c elements */
      size_t b = e / SM, i = e % SM;
      if (i >= (size_t)(r[b] * c[b]) && (dm[0][e] != 0.0 || hm[0][e] != 0.0)) {
        print_error("mv_hvp n=%zu b=%zu wrote element %zu of %d\n", n, b, i,
                    r[b] * c[b]);
        fail();
      }
    }
    for (size_t e = 0; e < n * MC; e++) {
      EXPECT_SAME(dw[0][e], dw[1][e], "mv_hvp d_w n=%zu e=%zu", n, e);
      EXPECT_SAME(hw[0][e], hw[1][e], "mv_hvp h_w n=%zu e=%zu", n, e);
    }
    /* NAME_grad (dm[] was zeroed: recompute) against central differences */
    memset(dm[0], 0, (n * SM + 1) * 8), memset(dw[0], 0, (n * MC + 1) * 8);
    mv_grad(n, r, c, m, SM, w, MC, NULL, NULL, dm[0], SM, dw[0], MC);
    const double h = 1e-6;
    for (size_t b = 0; b < n && b < 40; b++) {
      double *mb = m + b * SM, *wb = w + b * MC;
      for (int i = 0; i < r[b] * c[b] + c[b]; i++) {
        double *x = i < r[b] * c[b] ? mb + i : wb + (i - r[b] * c[b]), o = *x;
        *x = o + h;
        double up = mv(r[b], c[b], (const void *)mb, wb);
        *x = o - h;
        double fd = (up - mv(r[b], c[b], (const void *)mb, wb)) / (2 * h);
        *x = o;
        double gv = i < r[b] * c[b] ? dm[0][b * SM + (size_t)i]
                                    : dw[0][b * MC + (size_t)(i - r[b] * c[b])];
        if (!close_to(gv, fd, 1e-6)) {
          print_error("mv_grad n=%zu b=%zu i=%d: %g fd %g\n", n, b, i, gv, fd);
          fail();
        }
      }
    }
    for (int v = 0; v < 2; v++)
      free(dm[v]), free(dw[v]), free(hm[v]), free(hw[v]), free(jr[v]),
          free(jd[v]);
    free(r), free(c), free(m), free(w), free(tm), free(tw), free(got),
        free(want);
  }
}

/* rows: BD_PACKED ragged matrices (`m[][c]`, BD_EXTENT(r)) with guard
 * pages, against the scalar function and rows_flat. */
static void t_rows(void **state) {
  (void)state;
  rng_t g = {name_seed("vla2d rows")};
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k];
    int *r = calloc(n + 1, sizeof(int)), *c = calloc(n + 1, sizeof(int));
    int *la = calloc(n + 1, sizeof(int));
    gen_lens(&g, n, r, 9);
    gen_lens(&g, n, c, 7);
    for (size_t b = 0; b < n; b++)
      la[b] = r[b] * c[b];
    double *x = rand_array(&g, n), *got = calloc(n + 1, 8);
    double *want = calloc(n + 1, 8),
           *dx[2] = {calloc(n + 1, 8), calloc(n + 1, 8)};
    pk_t A, V, GA[2], GV[2];
    pk_make(&A, n, la, 1), pk_make(&V, n, c, 1);
    for (int v = 0; v < 2; v++)
      pk_make(&GA[v], n, la, 1), pk_make(&GV[v], n, c, 1);
    fill(&A, n, la, &g), fill(&V, n, c, &g);
    for (int v = 0; v < 2; v++)
      for (size_t b = 0; b < n; b++) {
        for (int i = 0; i < la[b]; i++)
          AT(&GA[v], b, i) = 0.0;
        for (int i = 0; i < c[b]; i++)
          AT(&GV[v], b, i) = 0.0;
      }
    rows_batched(n, r, c, A.base, A.off, V.base, V.off, x, got);
    rows_flat_batched(n, r, c, A.base, A.off, V.base, V.off, x, want);
    rows_grad(n, r, c, A.base, A.off, V.base, V.off, x, NULL, NULL, GA[0].base,
              GV[0].base, dx[0]);
    rows_flat_grad(n, r, c, A.base, A.off, V.base, V.off, x, NULL, NULL,
                   GA[1].base, GV[1].base, dx[1]);
    for (size_t b = 0; b < n; b++) {
      const double *a = &AT(&A, b, 0), *v = &AT(&V, b, 0);
      EXPECT_SAME(got[b], rows(r[b], c[b], (const void *)a, v, x[b]),
                  "rows_batched n=%zu b=%zu", n, b);
      EXPECT_SAME(want[b], got[b], "rows_flat_batched n=%zu b=%zu", n, b);
      EXPECT_SAME(dx[0][b], dx[1][b], "rows_grad d_x n=%zu b=%zu", n, b);
      for (int i = 0; i < la[b]; i++)
        EXPECT_SAME(AT(&GA[0], b, i), AT(&GA[1], b, i),
                    "rows_grad d_m n=%zu b=%zu i=%d", n, b, i);
      for (int i = 0; i < c[b]; i++)
        EXPECT_SAME(AT(&GV[0], b, i), AT(&GV[1], b, i),
                    "rows_grad d_w n=%zu b=%zu i=%d", n, b, i);
    }
    /* d_m against central differences (the inputs are read-only: a copy) */
    const double h = 1e-6;
    for (size_t b = 0; b < n && b < 20; b++) {
      double mc[9 * 7 + 1];
      memcpy(mc, &AT(&A, b, 0), (size_t)la[b] * 8);
      for (int i = 0; i < la[b]; i++) {
        double o = mc[i];
        mc[i] = o + h;
        double up = rows(r[b], c[b], (const void *)mc, &AT(&V, b, 0), x[b]);
        mc[i] = o - h;
        double fd =
            (up - rows(r[b], c[b], (const void *)mc, &AT(&V, b, 0), x[b])) /
            (2 * h);
        mc[i] = o;
        if (!close_to(AT(&GA[0], b, i), fd, 1e-6)) {
          print_error("rows_grad d_m n=%zu b=%zu i=%d: %g fd %g\n", n, b, i,
                      AT(&GA[0], b, i), fd);
          fail();
        }
      }
    }
    pk_check_gaps(&GA[0], n, la, "rows_grad d_m");
    pk_check_gaps(&GV[0], n, c, "rows_grad d_w");
    pk_free(&A), pk_free(&V);
    for (int v = 0; v < 2; v++)
      pk_free(&GA[v]), pk_free(&GV[v]), free(dx[v]);
    free(r), free(c), free(la), free(x), free(got), free(want);
  }
}

/* outer (uniform c, an output array) and cube (three dimensions) against
 * their flat forms, batched and grad. */
static void t_outer_cube(void **state) {
  (void)state;
  rng_t g = {name_seed("vla2d outer cube")};
  enum { CB = 4 * 3 * 4 };
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k];
    int *r = calloc(n + 1, sizeof(int)), *a = calloc(n + 1, sizeof(int));
    int *bb = calloc(n + 1, sizeof(int)), *cc = calloc(n + 1, sizeof(int));
    for (size_t b = 0; b < n; b++) {
      r[b] = (int)rng_below(&g, MR + 1);
      a[b] = (int)rng_below(&g, 5), bb[b] = (int)rng_below(&g, 4);
      cc[b] = (int)rng_below(&g, 5);
    }
    double *u = rand_array(&g, n * MR), *v = rand_array(&g, MC);
    double *x = rand_array(&g, n), *o0 = rand_array(&g, n * SM);
    double *o[2], *du[2], *dv[2], *dx[2], *d_o[2];
    for (int s = 0; s < 2; s++) {
      o[s] = malloc((n * SM + 1) * 8), d_o[s] = malloc((n * SM + 1) * 8);
      memcpy(o[s], o0, n * SM * 8);
      for (size_t e = 0; e < n * SM; e++)
        d_o[s][e] = 0.25 + (double)(e % 7);
      du[s] = calloc(n * MR + 1, 8), dv[s] = calloc(MC + 1, 8);
      dx[s] = calloc(n + 1, 8);
    }
    for (int cu = 0; cu <= MC; cu += MC) {
      outer_batched(n, r, cu, u, MR, v, x, o[0], SM);
      outer_flat_batched(n, r, cu, u, MR, v, x, o[1], SM);
      for (size_t e = 0; e < n * SM; e++)
        EXPECT_SAME(o[0][e], o[1][e], "outer_batched c=%d n=%zu e=%zu", cu, n,
                    e);
      for (size_t b = 0; b < n; b++) {
        double ob[SM];
        memcpy(ob, o0 + b * SM, sizeof ob);
        outer(r[b], cu, u + b * MR, v, x[b], (void *)ob);
        for (int i = 0; i < SM; i++)
          EXPECT_SAME(o[0][b * SM + (size_t)i], ob[i],
                      "outer scalar c=%d n=%zu b=%zu i=%d", cu, n, b, i);
      }
      for (int s = 0; s < 2; s++)
        memcpy(o[s], o0, n * SM * 8);
    }
    outer_grad(n, r, MC, u, MR, v, x, o[0], SM, du[0], MR, dv[0], dx[0], d_o[0],
               SM);
    outer_flat_grad(n, r, MC, u, MR, v, x, o[1], SM, du[1], MR, dv[1], dx[1],
                    d_o[1], SM);
    for (size_t e = 0; e < n * SM; e++) {
      EXPECT_SAME(o[0][e], o[1][e], "outer_grad o n=%zu e=%zu", n, e);
      EXPECT_SAME(d_o[0][e], d_o[1][e], "outer_grad d_o n=%zu e=%zu", n, e);
    }
    for (size_t e = 0; e < n * MR; e++)
      EXPECT_SAME(du[0][e], du[1][e], "outer_grad d_u n=%zu e=%zu", n, e);
    for (size_t e = 0; e < n; e++)
      EXPECT_SAME(dx[0][e], dx[1][e], "outer_grad d_x n=%zu e=%zu", n, e);
    for (size_t e = 0; e < MC; e++)
      EXPECT_CLOSE(dv[0][e], dv[1][e], "outer_grad d_v n=%zu e=%zu", n, e);

    double *t = rand_array(&g, n * CB), *got = calloc(n + 1, 8);
    double *want = calloc(n + 1, 8);
    double *dt[2] = {calloc(n * CB + 1, 8), calloc(n * CB + 1, 8)};
    memset(dx[0], 0, (n + 1) * 8), memset(dx[1], 0, (n + 1) * 8);
    cube_batched(n, a, bb, cc, t, CB, x, got);
    cube_flat_batched(n, a, bb, cc, t, CB, x, want);
    cube_grad(n, a, bb, cc, t, CB, x, NULL, NULL, dt[0], CB, dx[0]);
    cube_flat_grad(n, a, bb, cc, t, CB, x, NULL, NULL, dt[1], CB, dx[1]);
    for (size_t b = 0; b < n; b++) {
      EXPECT_SAME(got[b], cube(a[b], bb[b], cc[b], (void *)(t + b * CB), x[b]),
                  "cube_batched n=%zu b=%zu", n, b);
      EXPECT_SAME(got[b], want[b], "cube_flat_batched n=%zu b=%zu", n, b);
      EXPECT_SAME(dx[0][b], dx[1][b], "cube_grad d_x n=%zu b=%zu", n, b);
    }
    for (size_t e = 0; e < n * CB; e++)
      EXPECT_SAME(dt[0][e], dt[1][e], "cube_grad d_t n=%zu e=%zu", n, e);
    for (int s = 0; s < 2; s++)
      free(o[s]), free(d_o[s]), free(du[s]), free(dv[s]), free(dx[s]),
          free(dt[s]);
    free(r), free(a), free(bb), free(cc), free(u), free(v), free(x), free(o0);
    free(t), free(got), free(want);
  }
}

/* st4 and vi, strided, against the scalar functions and central
 * differences. */
static void t_helpers(void **state) {
  (void)state;
  rng_t g = {name_seed("vla2d helpers")};
  const double h = 1e-6;
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k];
    int *r = calloc(n + 1, sizeof(int)), *c = calloc(n + 1, sizeof(int));
    for (size_t b = 0; b < n; b++)
      r[b] = (int)rng_below(&g, MR + 1), c[b] = (int)rng_below(&g, MC + 1);
    double *m = rand_array(&g, n * SM), *x = rand_array(&g, n);
    double *got = calloc(n + 1, 8), *dm = calloc(n * SM + 1, 8);
    double *dx = calloc(n + 1, 8);
    for (int f = 0; f < 2; f++) {
      memset(dm, 0, (n * SM + 1) * 8), memset(dx, 0, (n + 1) * 8);
      if (f == 0) {
        st4_batched(n, r, m, SM, x, got);
        st4_grad(n, r, m, SM, x, NULL, NULL, dm, SM, dx);
      } else {
        vi_batched(n, r, c, m, SM, x, got);
        vi_grad(n, r, c, m, SM, x, NULL, NULL, dm, SM, dx);
      }
      for (size_t b = 0; b < n; b++) {
        double *mb = m + b * SM;
        int len = f == 0 ? 4 * r[b] : r[b] * c[b];
#define CALL(M, X)                                                             \
  (f == 0 ? st4(r[b], (const void *)(M), X)                                    \
          : vi(r[b], c[b], (const void *)(M), X))
        EXPECT_SAME(got[b], CALL(mb, x[b]), "%s_batched n=%zu b=%zu",
                    f ? "vi" : "st4", n, b);
        if (b >= 30)
          continue;
        double fx = (CALL(mb, x[b] + h) - CALL(mb, x[b] - h)) / (2 * h);
        if (!close_to(dx[b], fx, 1e-6)) {
          print_error("%s_grad d_x n=%zu b=%zu: %g fd %g\n", f ? "vi" : "st4",
                      n, b, dx[b], fx);
          fail();
        }
        for (int i = 0; i < len; i++) {
          double o = mb[i];
          mb[i] = o + h;
          double up = CALL(mb, x[b]);
          mb[i] = o - h;
          double fd = (up - CALL(mb, x[b])) / (2 * h);
          mb[i] = o;
          if (!close_to(dm[b * SM + (size_t)i], fd, 1e-6)) {
            print_error("%s_grad d_m n=%zu b=%zu i=%d: %g fd %g\n",
                        f ? "vi" : "st4", n, b, i, dm[b * SM + (size_t)i], fd);
            fail();
          }
        }
#undef CALL
      }
    }
    free(r), free(c), free(m), free(x), free(got), free(dm), free(dx);
  }
}

/* mvu (uniform r and c, BD_POINTERS m, uniform w) against the scalar
 * function and mv's grad with every example's r and c the same. */
static void t_uniform(void **state) {
  (void)state;
  rng_t g = {name_seed("vla2d uniform")};
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k];
    int r = 1 + (int)rng_below(&g, MR), c = 1 + (int)rng_below(&g, MC);
    int *rs = malloc((n + 1) * sizeof(int)),
        *cs = malloc((n + 1) * sizeof(int));
    for (size_t b = 0; b < n; b++)
      rs[b] = r, cs[b] = c;
    double *m = rand_array(&g, n * SM), *w = rand_array(&g, MC);
    const double **mp = malloc((n + 1) * sizeof(double *));
    double **dp = malloc((n + 1) * sizeof(double *));
    double *dm = calloc(n * SM + 1, 8), *dm0 = calloc(n * SM + 1, 8);
    double *dw0 = calloc(n * MC + 1, 8), dw[MC] = {0};
    for (size_t b = 0; b < n; b++)
      mp[b] = m + b * SM, dp[b] = dm + b * SM;
    double *got = calloc(n + 1, 8);
    mvu_batched(n, r, c, mp, w, got);
    for (size_t b = 0; b < n; b++)
      EXPECT_SAME(got[b], mv(r, c, (const void *)mp[b], w),
                  "mvu_batched n=%zu b=%zu", n, b);
    mvu_grad(n, r, c, mp, w, NULL, NULL, dp, dw);
    mv_grad(n, rs, cs, m, SM, w, 0, NULL, NULL, dm0, SM, dw0, MC);
    for (size_t e = 0; e < n * SM; e++)
      EXPECT_SAME(dm[e], dm0[e], "mvu_grad d_m n=%zu e=%zu", n, e);
    for (int j = 0; j < c; j++) {
      double sum = 0.0;
      for (size_t b = 0; b < n; b++)
        sum += dw0[b * MC + (size_t)j];
      EXPECT_CLOSE(dw[j], sum, "mvu_grad d_w n=%zu j=%d", n, j);
    }
    free(rs), free(cs), free(m), free(w), free(mp), free(dp), free(dm);
    free(dm0), free(dw0), free(got);
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_mv),         cmocka_unit_test(t_rows),
      cmocka_unit_test(t_outer_cube), cmocka_unit_test(t_helpers),
      cmocka_unit_test(t_uniform),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
