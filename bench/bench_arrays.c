/* Per-example arrays of a static extent (docs/performance.md, "Per-example
 * arrays"): least squares over 8 points per example, the points as records
 * (`const struct pt pts[8]`: 16 doubles per example) and as two arrays
 * (`const double xs[8], const double ys[8]`, stride 8; also in floats),
 * and arrays back to back (quad3: `const double A[3][3], const double
 * x[3]` at strides 9 and 3; dot4f: `const float u[4], v[4]` at stride 4),
 * batched and differentiated, against the scalar loop compiled in the
 * models' file (-O3; one call per example, see arrays_models.c). Results
 * are checked bit for bit against the scalar loop, gradients against the
 * closed form. "whole": as compiled by default (the arrays read whole,
 * transposed in registers); "gathers": the same models compiled with
 * -fplugin-arg-batchdiff-dense-arrays=0 (one gather per read, scatter-adds
 * for the shadows), the code before session 50. With pool = n
 * (bench_arrays 2000 31 2000) the data stays in cache.
 * Single-threaded. Usage: bench_arrays [n per run] [reps] [pool]
 * (default 4096 31 65536) */
#include "bench_util.h"

#include <batchdiff/batchdiff_rt.h>

#include <math.h>
#include <string.h>

struct ar_pt {
  double x, y;
};

#define AR_DECL(S)                                                             \
  void ar_fit##S##_batched(size_t n, const struct ar_pt *pts,                  \
                           ptrdiff_t pts_stride, const double *a,              \
                           const double *b, double *ret);                      \
  void ar_fit##S##_grad(                                                       \
      size_t n, const struct ar_pt *pts, ptrdiff_t pts_stride,                 \
      const double *a, const double *b, double *ret, const double *d_ret,      \
      struct ar_pt *d_pts, ptrdiff_t d_pts_stride, double *d_a, double *d_b);  \
  void ar_fit2##S##_batched(size_t n, const double *xs, ptrdiff_t xs_stride,   \
                            const double *ys, ptrdiff_t ys_stride,             \
                            const double *a, const double *b, double *ret);    \
  void ar_fit2##S##_grad(                                                      \
      size_t n, const double *xs, ptrdiff_t xs_stride, const double *ys,       \
      ptrdiff_t ys_stride, const double *a, const double *b, double *ret,      \
      const double *d_ret, double *d_xs, ptrdiff_t d_xs_stride, double *d_ys,  \
      ptrdiff_t d_ys_stride, double *d_a, double *d_b);                        \
  void ar_fit2f##S##_batched(size_t n, const float *xs, ptrdiff_t xs_stride,   \
                             const float *ys, ptrdiff_t ys_stride,             \
                             const float *a, const float *b, float *ret);      \
  void ar_fit2f##S##_grad(                                                     \
      size_t n, const float *xs, ptrdiff_t xs_stride, const float *ys,         \
      ptrdiff_t ys_stride, const float *a, const float *b, float *ret,         \
      const float *d_ret, float *d_xs, ptrdiff_t d_xs_stride, float *d_ys,     \
      ptrdiff_t d_ys_stride, float *d_a, float *d_b);
#define AR_DECL2(S)                                                            \
  void ar_quad3##S##_batched(size_t n, const double *A, ptrdiff_t A_stride,    \
                             const double *x, ptrdiff_t x_stride,              \
                             double *ret);                                     \
  void ar_quad3##S##_grad(size_t n, const double *A, ptrdiff_t A_stride,       \
                          const double *x, ptrdiff_t x_stride, double *ret,    \
                          const double *d_ret, double *d_A,                    \
                          ptrdiff_t d_A_stride, double *d_x,                   \
                          ptrdiff_t d_x_stride);                               \
  void ar_dot4f##S##_batched(size_t n, const float *u, ptrdiff_t u_stride,     \
                             const float *v, ptrdiff_t v_stride, float *ret);  \
  void ar_dot4f##S##_grad(size_t n, const float *u, ptrdiff_t u_stride,        \
                          const float *v, ptrdiff_t v_stride, float *ret,      \
                          const float *d_ret, float *d_u,                      \
                          ptrdiff_t d_u_stride, float *d_v,                    \
                          ptrdiff_t d_v_stride);
AR_DECL()
AR_DECL(_gathers)
AR_DECL2()
AR_DECL2(_gathers)
void ar_quad3_loop(size_t n, const double *A, const double *x, double *ret);
void ar_dot4f_loop(size_t n, const float *u, const float *v, float *ret);
void ar_fit_loop(size_t n, const struct ar_pt *p, const double *a,
                 const double *b, double *ret);
void ar_fit2_loop(size_t n, const double *xs, const double *ys, const double *a,
                  const double *b, double *ret);
void ar_fit2f_loop(size_t n, const float *xs, const float *ys, const float *a,
                   const float *b, float *ret);

typedef struct {
  size_t n, off;
  struct ar_pt *p, *dp;
  double *xs, *ys, *a, *b, *out, *dxs, *dys, *da, *db;
  float *xf, *yf, *af, *bf, *outf, *dxf, *dyf, *daf, *dbf;
  double *qa, *qx, *dqa, *dqx; /* quad3: A[9], x[3] */
  float *fu, *fv, *dfu, *dfv;  /* dot4f: u[4], v[4] */
} ctx;

/* Example e of the current slice. */
#define P (x->p + 8 * x->off)
#define XS (x->xs + 8 * x->off)
#define YS (x->ys + 8 * x->off)
#define XF (x->xf + 8 * x->off)
#define YF (x->yf + 8 * x->off)
#define AA (x->a + x->off)
#define BB (x->b + x->off)
#define AF (x->af + x->off)
#define BF (x->bf + x->off)
#define AR_CASE(nm, body)                                                      \
  static void nm(void *v) {                                                    \
    ctx *x = v;                                                                \
    body;                                                                      \
  }
AR_CASE(fit_loop, ar_fit_loop(x->n, P, AA, BB, x->out))
AR_CASE(fit_bat, ar_fit_batched(x->n, P, 8, AA, BB, x->out))
AR_CASE(fit_grad,
        ar_fit_grad(x->n, P, 8, AA, BB, x->out, NULL, x->dp, 8, x->da, x->db))
AR_CASE(fit2_loop, ar_fit2_loop(x->n, XS, YS, AA, BB, x->out))
AR_CASE(fit2_bat, ar_fit2_batched(x->n, XS, 8, YS, 8, AA, BB, x->out))
AR_CASE(fit2_grad, ar_fit2_grad(x->n, XS, 8, YS, 8, AA, BB, x->out, NULL,
                                x->dxs, 8, x->dys, 8, x->da, x->db))
AR_CASE(fit2f_loop, ar_fit2f_loop(x->n, XF, YF, AF, BF, x->outf))
AR_CASE(fit2f_bat, ar_fit2f_batched(x->n, XF, 8, YF, 8, AF, BF, x->outf))
AR_CASE(fit2f_grad, ar_fit2f_grad(x->n, XF, 8, YF, 8, AF, BF, x->outf, NULL,
                                  x->dxf, 8, x->dyf, 8, x->daf, x->dbf))
AR_CASE(fit_batg, ar_fit_gathers_batched(x->n, P, 8, AA, BB, x->out))
AR_CASE(fit_gradg, ar_fit_gathers_grad(x->n, P, 8, AA, BB, x->out, NULL, x->dp,
                                       8, x->da, x->db))
AR_CASE(fit2_batg, ar_fit2_gathers_batched(x->n, XS, 8, YS, 8, AA, BB, x->out))
AR_CASE(fit2_gradg,
        ar_fit2_gathers_grad(x->n, XS, 8, YS, 8, AA, BB, x->out, NULL, x->dxs,
                             8, x->dys, 8, x->da, x->db))
AR_CASE(fit2f_batg,
        ar_fit2f_gathers_batched(x->n, XF, 8, YF, 8, AF, BF, x->outf))
AR_CASE(fit2f_gradg,
        ar_fit2f_gathers_grad(x->n, XF, 8, YF, 8, AF, BF, x->outf, NULL, x->dxf,
                              8, x->dyf, 8, x->daf, x->dbf))

#define QA (x->qa + 9 * x->off)
#define QX (x->qx + 3 * x->off)
#define FU (x->fu + 4 * x->off)
#define FV (x->fv + 4 * x->off)
AR_CASE(q3_loop, ar_quad3_loop(x->n, QA, QX, x->out))
AR_CASE(q3_bat, ar_quad3_batched(x->n, QA, 9, QX, 3, x->out))
AR_CASE(q3_grad, ar_quad3_grad(x->n, QA, 9, QX, 3, x->out, NULL, x->dqa, 9,
                               x->dqx, 3))
AR_CASE(q3_batg, ar_quad3_gathers_batched(x->n, QA, 9, QX, 3, x->out))
AR_CASE(q3_gradg, ar_quad3_gathers_grad(x->n, QA, 9, QX, 3, x->out, NULL,
                                        x->dqa, 9, x->dqx, 3))
AR_CASE(d4_loop, ar_dot4f_loop(x->n, FU, FV, x->outf))
AR_CASE(d4_bat, ar_dot4f_batched(x->n, FU, 4, FV, 4, x->outf))
AR_CASE(d4_grad, ar_dot4f_grad(x->n, FU, 4, FV, 4, x->outf, NULL, x->dfu, 4,
                               x->dfv, 4))
AR_CASE(d4_batg, ar_dot4f_gathers_batched(x->n, FU, 4, FV, 4, x->outf))
AR_CASE(d4_gradg, ar_dot4f_gathers_grad(x->n, FU, 4, FV, 4, x->outf, NULL,
                                        x->dfu, 4, x->dfv, 4))

/* The gradient of fit2 in closed form, for the checks. */
static void fit2_ref(const double *xs, const double *ys, double a, double b,
                     double *dx, double *dy, double *da, double *db) {
  *da = *db = 0;
  for (int i = 0; i < 8; i++) {
    double r = ys[i] - (a * xs[i] + b);
    dx[i] = -2 * a * r / 8;
    dy[i] = 2 * r / 8;
    *da += -2 * r * xs[i] / 8;
    *db += -2 * r / 8;
  }
}

int main(int argc, char **argv) {
  size_t n = 4096, pool = 65536;
  int reps = 31;
  bd_bench_args(argc, argv, &n, &reps, &pool);
  bd_set_num_threads(1);
  ctx x = {0};
  x.n = n;
  x.p = bd_bench_alloc(8 * pool, sizeof(struct ar_pt));
  x.xs = bd_bench_alloc(8 * pool, 8), x.ys = bd_bench_alloc(8 * pool, 8);
  x.xf = bd_bench_alloc(8 * pool, 4), x.yf = bd_bench_alloc(8 * pool, 4);
  x.a = bd_bench_alloc(pool, 8), x.b = bd_bench_alloc(pool, 8);
  x.af = bd_bench_alloc(pool, 4), x.bf = bd_bench_alloc(pool, 4);
  x.out = bd_bench_alloc(pool, 8), x.outf = bd_bench_alloc(pool, 4);
  x.dp = bd_bench_alloc(8 * pool, sizeof(struct ar_pt));
  x.dxs = bd_bench_alloc(8 * pool, 8), x.dys = bd_bench_alloc(8 * pool, 8);
  x.dxf = bd_bench_alloc(8 * pool, 4), x.dyf = bd_bench_alloc(8 * pool, 4);
  x.da = bd_bench_alloc(pool, 8), x.db = bd_bench_alloc(pool, 8);
  x.daf = bd_bench_alloc(pool, 4), x.dbf = bd_bench_alloc(pool, 4);
  x.qa = bd_bench_alloc(9 * pool, 8), x.qx = bd_bench_alloc(3 * pool, 8);
  x.dqa = bd_bench_alloc(9 * pool, 8), x.dqx = bd_bench_alloc(3 * pool, 8);
  x.fu = bd_bench_alloc(4 * pool, 4), x.fv = bd_bench_alloc(4 * pool, 4);
  x.dfu = bd_bench_alloc(4 * pool, 4), x.dfv = bd_bench_alloc(4 * pool, 4);
  bd_bench_rng g = {42};
  for (size_t k = 0; k < 9 * pool; k++)
    x.qa[k] = bd_bench_uniform(&g, -1, 1);
  for (size_t k = 0; k < 3 * pool; k++)
    x.qx[k] = bd_bench_uniform(&g, -1, 1);
  for (size_t k = 0; k < 4 * pool; k++) {
    x.fu[k] = (float)bd_bench_uniform(&g, -1, 1);
    x.fv[k] = (float)bd_bench_uniform(&g, -1, 1);
  }
  for (size_t k = 0; k < 8 * pool; k++) {
    x.p[k].x = x.xs[k] = bd_bench_uniform(&g, -2, 2);
    x.p[k].y = x.ys[k] = bd_bench_uniform(&g, -2, 2);
    x.xf[k] = (float)x.xs[k], x.yf[k] = (float)x.ys[k];
  }
  for (size_t e = 0; e < pool; e++) {
    x.a[e] = bd_bench_uniform(&g, -1, 1), x.b[e] = bd_bench_uniform(&g, -1, 1);
    x.af[e] = (float)x.a[e], x.bf[e] = (float)x.b[e];
  }

  /* Checks over the whole pool (n + tails: pool - 3 examples). */
  int bad = 0;
  {
    size_t m = pool - 3;
    double *r0 = bd_bench_alloc(pool, 8), *r1 = bd_bench_alloc(pool, 8);
    float *f0 = bd_bench_alloc(pool, 4), *f1 = bd_bench_alloc(pool, 4);
    ar_fit_loop(m, x.p, x.a, x.b, r0);
    ar_fit_batched(m, x.p, 8, x.a, x.b, r1);
    bad |= bd_bench_check("fit (records): batched = scalar loop",
                          memcmp(r0, r1, m * 8) != 0, 0);
    ar_fit2_loop(m, x.xs, x.ys, x.a, x.b, r0);
    ar_fit2_batched(m, x.xs, 8, x.ys, 8, x.a, x.b, r1);
    bad |= bd_bench_check("fit2 (arrays): batched = scalar loop",
                          memcmp(r0, r1, m * 8) != 0, 0);
    ar_fit2f_loop(m, x.xf, x.yf, x.af, x.bf, f0);
    ar_fit2f_batched(m, x.xf, 8, x.yf, 8, x.af, x.bf, f1);
    bad |= bd_bench_check("fit2f (float arrays): batched = scalar loop",
                          memcmp(f0, f1, m * 4) != 0, 0);
    ar_fit2f_gathers_batched(m, x.xf, 8, x.yf, 8, x.af, x.bf, f1);
    bad |= bd_bench_check("fit2f gathers: batched = scalar loop",
                          memcmp(f0, f1, m * 4) != 0, 0);
    /* Gradients: read whole = gathers, bit for bit. */
    {
      double *g[4];
      for (int i = 0; i < 4; i++)
        g[i] = bd_bench_alloc(8 * pool, 8);
      ar_fit2_grad(m, x.xs, 8, x.ys, 8, x.a, x.b, NULL, NULL, g[0], 8, g[1], 8,
                   NULL, NULL);
      ar_fit2_gathers_grad(m, x.xs, 8, x.ys, 8, x.a, x.b, NULL, NULL, g[2], 8,
                           g[3], 8, NULL, NULL);
      bad |= bd_bench_check(
          "fit2_grad: whole = gathers",
          memcmp(g[0], g[2], 8 * m * 8) || memcmp(g[1], g[3], 8 * m * 8), 0);
      for (int i = 0; i < 4; i++)
        free(g[i]);
    }
    ar_fit2_grad(m, x.xs, 8, x.ys, 8, x.a, x.b, NULL, NULL, x.dxs, 8, x.dys, 8,
                 x.da, x.db);
    memset(r0, 0, m * 8), memset(r1, 0, m * 8);
    ar_fit_grad(m, x.p, 8, x.a, x.b, NULL, NULL, x.dp, 8, r0, r1);
    double err = 0;
    for (size_t e = 0; e < m; e++) {
      double dx[8], dy[8], da, db;
      fit2_ref(x.xs + 8 * e, x.ys + 8 * e, x.a[e], x.b[e], dx, dy, &da, &db);
      double d[4] = {fabs(da - x.da[e]), fabs(db - x.db[e]), fabs(da - r0[e]),
                     fabs(db - r1[e])};
      for (int i = 0; i < 8; i++) {
        double u = fmax(fabs(dx[i] - x.dxs[8 * e + i]),
                        fabs(dy[i] - x.dys[8 * e + i]));
        u = fmax(u, fmax(fabs(dx[i] - x.dp[8 * e + i].x),
                         fabs(dy[i] - x.dp[8 * e + i].y)));
        err = fmax(err, u);
      }
      for (int i = 0; i < 4; i++)
        err = fmax(err, d[i]);
    }
    bad |= bd_bench_check("fit_grad, fit2_grad: closed form", err, 1e-12);
    ar_quad3_loop(m, x.qa, x.qx, r0);
    ar_quad3_batched(m, x.qa, 9, x.qx, 3, r1);
    bad |= bd_bench_check("quad3: batched = scalar loop",
                          memcmp(r0, r1, m * 8) != 0, 0);
    ar_dot4f_loop(m, x.fu, x.fv, f0);
    ar_dot4f_batched(m, x.fu, 4, x.fv, 4, f1);
    bad |= bd_bench_check("dot4f: batched = scalar loop",
                          memcmp(f0, f1, m * 4) != 0, 0);
    {
      double *g[4];
      for (int i = 0; i < 4; i++)
        g[i] = calloc(9 * pool, 8);
      ar_quad3_grad(m, x.qa, 9, x.qx, 3, NULL, NULL, g[0], 9, g[1], 3);
      ar_quad3_gathers_grad(m, x.qa, 9, x.qx, 3, NULL, NULL, g[2], 9, g[3], 3);
      bad |= bd_bench_check(
          "quad3_grad: whole = gathers",
          memcmp(g[0], g[2], 9 * m * 8) || memcmp(g[1], g[3], 3 * m * 8), 0);
      for (int i = 0; i < 4; i++)
        free(g[i]);
    }
    memset(x.dp, 0, 8 * pool * sizeof *x.dp);
    memset(x.dxs, 0, 8 * pool * 8), memset(x.dys, 0, 8 * pool * 8);
    memset(x.da, 0, pool * 8), memset(x.db, 0, pool * 8);
    free(r0), free(r1), free(f0), free(f1);
  }

  bd_bench_slices sl = {&x.off, n, pool};
  struct {
    const char *name;
    void (*loop)(void *), (*bat)(void *), (*grad)(void *), (*batg)(void *),
        (*gradg)(void *);
  } cs[] = {{"fit 8 records", fit_loop, fit_bat, fit_grad, fit_batg, fit_gradg},
            {"fit2 8+8 doubles", fit2_loop, fit2_bat, fit2_grad, fit2_batg,
             fit2_gradg},
            {"fit2f 8+8 floats", fit2f_loop, fit2f_bat, fit2f_grad, fit2f_batg,
             fit2f_gradg},
            {"quad3 A[3][3] x[3]", q3_loop, q3_bat, q3_grad, q3_batg,
             q3_gradg},
            {"dot4f u[4] v[4] floats", d4_loop, d4_bat, d4_grad, d4_batg,
             d4_gradg}};
  for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
    char nm[96];
    double ta, tb;
    bd_bench_pair(cs[k].loop, &x, cs[k].bat, &x, reps, bd_bench_next_slice, &sl,
                  &ta, &tb);
    snprintf(nm, sizeof nm, "%s: batched vs scalar loop", cs[k].name);
    bd_bench_row("arrays", nm, ta, tb, n, "");
    bd_bench_pair(cs[k].loop, &x, cs[k].grad, &x, reps, bd_bench_next_slice,
                  &sl, &ta, &tb);
    snprintf(nm, sizeof nm, "%s: grad cost vs scalar loop", cs[k].name);
    bd_bench_cost_row("arrays", nm, ta, tb, n, "");
    bd_bench_pair(cs[k].loop, &x, cs[k].batg, &x, reps, bd_bench_next_slice,
                  &sl, &ta, &tb);
    snprintf(nm, sizeof nm, "%s: gathers vs scalar loop", cs[k].name);
    bd_bench_row("arrays", nm, ta, tb, n, "");
    bd_bench_pair(cs[k].batg, &x, cs[k].bat, &x, reps, bd_bench_next_slice, &sl,
                  &ta, &tb);
    snprintf(nm, sizeof nm, "%s: whole vs gathers", cs[k].name);
    bd_bench_row("arrays", nm, ta, tb, n, "");
    bd_bench_pair(cs[k].gradg, &x, cs[k].grad, &x, reps, bd_bench_next_slice,
                  &sl, &ta, &tb);
    snprintf(nm, sizeof nm, "%s: grad whole vs gathers", cs[k].name);
    bd_bench_row("arrays", nm, ta, tb, n, "");
  }
  return bad;
}
