/* (h) second order: NAME_hvp (gradient and Hessian-vector product per
 * example, forward over reverse) against NAME_grad (the gradient alone) on
 * the same inputs, for a straight-line double model with branches
 * (bs_call, 5 inputs, 2 uniform: their gradient and H v summed), a
 * residual with 9 inputs (reproj) and a float loop with per-example trip
 * counts (rnn_ragged: the tape holds each step's tangents too). Cost rows:
 * time of _hvp over time of _grad (target <= 4x). Before timing: _hvp's
 * gradient equals _grad's, and its H v agrees with central differences of
 * _grad along the direction.
 * Usage: bench_hvp [n] [reps] [pool]; each run covers the next n examples
 * of the pool (bench_util.h). */
#include "bench_util.h"
#include "models.h"

#include <math.h>
#include <string.h>

#define NR 9  /* reproj inputs */
#define RL 32 /* rnn_ragged: row stride; lengths 1..32 */

typedef struct {
  size_t n, off;
  double *in[NR], *v[NR], *ret, *D[NR], *H[NR];
  double dK, dr, hK, hr; /* bs_call's uniform shadows */
  float *x, *tx, *fret, *dx, *hx, w, u, tw, tu, dw, du, hw, hu;
  int *len;
} ctx_t;

#define BD_CTX(p) ctx_t *c = (ctx_t *)(p)
#define IN(j) (c->in[j] + c->off)
#define V(j) (c->v[j] + c->off)
#define DD(j) (c->D[j] + c->off)
#define HH(j) (c->H[j] + c->off)

static const double K = 100.0, R = 0.03, F = 800.0, K1 = -0.05;
static const double TK = 0.5, TR = -0.2;

static void bs_grad(void *p) {
  BD_CTX(p);
  bs_call_grad(c->n, IN(0), K, R, IN(1), IN(2), c->ret, NULL, DD(0), &c->dK,
               &c->dr, DD(1), DD(2));
}
static void bs_hvp(void *p) {
  BD_CTX(p);
  bs_call_hvp(c->n, IN(0), K, R, IN(1), IN(2), V(0), &TK, &TR, V(1), V(2),
              c->ret, NULL, DD(0), &c->dK, &c->dr, DD(1), DD(2), HH(0), &c->hK,
              &c->hr, HH(1), HH(2));
}
static void rp_grad(void *p) {
  BD_CTX(p);
  reproj_grad(c->n, IN(0), IN(1), IN(2), IN(3), IN(4), IN(5), IN(6), IN(7),
              IN(8), F, K1, c->ret, NULL, DD(0), DD(1), DD(2), DD(3), DD(4),
              DD(5), DD(6), DD(7), DD(8));
}
static void rp_hvp(void *p) {
  BD_CTX(p);
  reproj_hvp(c->n, IN(0), IN(1), IN(2), IN(3), IN(4), IN(5), IN(6), IN(7),
             IN(8), F, K1, V(0), V(1), V(2), V(3), V(4), V(5), V(6), V(7), V(8),
             c->ret, NULL, DD(0), DD(1), DD(2), DD(3), DD(4), DD(5), DD(6),
             DD(7), DD(8), HH(0), HH(1), HH(2), HH(3), HH(4), HH(5), HH(6),
             HH(7), HH(8));
}
static void rnn_grad(void *p) {
  BD_CTX(p);
  rnn_ragged_grad(c->n, c->x + c->off * RL, RL, c->len + c->off, c->w, c->u,
                  c->fret, NULL, c->dx + c->off * RL, RL, &c->dw, &c->du);
}
static void rnn_hvp(void *p) {
  BD_CTX(p);
  rnn_ragged_hvp(c->n, c->x + c->off * RL, RL, c->len + c->off, c->w, c->u,
                 c->tx + c->off * RL, RL, &c->tw, &c->tu, c->fret, NULL,
                 c->dx + c->off * RL, RL, &c->dw, &c->du, c->hx + c->off * RL,
                 RL, &c->hw, &c->hu);
}

/* Both sides advance through the pool together. */
typedef struct {
  ctx_t *a, *b;
  size_t n, pool;
} slices2_t;
static void next2(void *p) {
  slices2_t *s = (slices2_t *)p;
  size_t off = s->a->off + s->n;
  if (off + s->n > s->pool)
    off = 0;
  s->a->off = s->b->off = off;
}

static void row(const char *name, void (*fg)(void *), ctx_t *g,
                void (*fh)(void *), ctx_t *h, size_t n, size_t pool, int reps) {
  slices2_t sl = {h, g, n, pool};
  double tg, th;
  h->n = g->n = n;
  h->off = g->off = 0;
  bd_bench_pair(fg, g, fh, h, reps, next2, &sl, &tg, &th);
  bd_bench_cost_row("h second order", name, tg, th, n, "<=4");
}

static void alloc_ctx(ctx_t *c, size_t pool) {
  for (int j = 0; j < NR; j++) {
    c->D[j] = bd_bench_alloc(pool, 8);
    c->H[j] = bd_bench_alloc(pool, 8);
    memset(c->D[j], 0, pool * 8);
    memset(c->H[j], 0, pool * 8);
  }
  c->ret = bd_bench_alloc(pool, 8);
  c->fret = bd_bench_alloc(pool, 4);
  c->dx = bd_bench_alloc(pool * RL, 4);
  c->hx = bd_bench_alloc(pool * RL, 4);
  memset(c->dx, 0, pool * RL * 4);
  memset(c->hx, 0, pool * RL * 4);
}

/* H v of reproj at example i by central differences of _grad. */
static double fd_reproj(ctx_t *c, size_t i, int j) {
  double h = 1e-5, g[2];
  for (int s = 0; s < 2; s++) {
    double a[NR], d[NR] = {0};
    for (int k = 0; k < NR; k++)
      a[k] = c->in[k][i] + (s ? -h : h) * c->v[k][i];
    reproj_grad(1, &a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &a[6], &a[7],
                &a[8], F, K1, NULL, NULL, &d[0], &d[1], &d[2], &d[3], &d[4],
                &d[5], &d[6], &d[7], &d[8]);
    g[s] = d[j];
  }
  return (g[0] - g[1]) / (2 * h);
}

int main(int argc, char **argv) {
  size_t n = 1u << 12, pool = 1u << 15;
  int reps = 51, bad = 0;
  bd_bench_args(argc, argv, &n, &reps, &pool);
  ctx_t a, b;
  memset(&a, 0, sizeof a);
  bd_bench_rng g = {2026};
  for (int j = 0; j < NR; j++) {
    a.in[j] = bd_bench_alloc(pool, 8);
    a.v[j] = bd_bench_alloc(pool, 8);
  }
  a.x = bd_bench_alloc(pool * RL, 4);
  a.tx = bd_bench_alloc(pool * RL, 4);
  a.len = bd_bench_alloc(pool, 4);
  for (size_t i = 0; i < pool; i++) {
    int still = i % 64 == 7; /* reproj's th2 <= 1e-12 branch */
    for (int j = 0; j < 3; j++)
      a.in[j][i] = still ? 0.0 : bd_bench_uniform(&g, -0.3, 0.3);
    a.in[3][i] = bd_bench_uniform(&g, -0.5, 0.5);
    a.in[4][i] = bd_bench_uniform(&g, -0.5, 0.5);
    a.in[5][i] = bd_bench_uniform(&g, 3.0, 5.0);
    a.in[6][i] = bd_bench_uniform(&g, -1.0, 1.0);
    a.in[7][i] = bd_bench_uniform(&g, -1.0, 1.0);
    a.in[8][i] = bd_bench_uniform(&g, 3.0, 6.0);
    for (int j = 0; j < NR; j++)
      a.v[j][i] = bd_bench_uniform(&g, -1.0, 1.0);
    a.len[i] = 1 + (int)bd_bench_uniform(&g, 0, RL - 0.5);
    for (int k = 0; k < RL; k++) {
      a.x[i * RL + k] = (float)bd_bench_uniform(&g, -1.0, 1.0);
      a.tx[i * RL + k] = (float)bd_bench_uniform(&g, -1.0, 1.0);
    }
  }
  /* bs_call reads in[0..2] as S, sigma, T: in[5] and in[8] are positive. */
  double *bsS = bd_bench_alloc(pool, 8), *bsSig = bd_bench_alloc(pool, 8),
         *bsT = bd_bench_alloc(pool, 8);
  for (size_t i = 0; i < pool; i++) {
    bsS[i] = 80.0 + 10.0 * a.in[5][i];
    bsSig[i] = 0.1 + 0.05 * a.in[8][i];
    bsT[i] = i % 97 == 3 ? 0.0 : 0.25 * a.in[5][i];
  }
  a.w = 0.9f;
  a.u = 0.7f;
  a.tw = 0.3f;
  a.tu = -0.6f;
  b = a;
  alloc_ctx(&a, pool);
  alloc_ctx(&b, pool);
  printf("bench_hvp: n = %zu per run (pool %zu), median of %d runs\n", n, pool,
         reps);

  /* Checks on the whole pool: _hvp's gradient is _grad's, H v vs FD. */
  a.n = b.n = pool;
  rp_hvp(&a);
  rp_grad(&b);
  double e = 0;
  for (int j = 0; j < NR; j++)
    e = fmax(e, bd_bench_maxrel_d(a.D[j], b.D[j], pool, 1.0));
  bad |= bd_bench_check("reproj _hvp gradient vs _grad", e, 0.0);
  e = 0;
  for (size_t i = 0; i < pool; i += 97)
    for (int j = 0; j < NR && i % 64 != 7; j++) { /* not at the kink */
      double fd = fd_reproj(&a, i, j);
      e = fmax(e, fabs(fd - a.H[j][i]) / (fabs(fd) + 1.0));
    }
  bad |= bd_bench_check("reproj H v vs central differences of _grad", e, 1e-5);

  ctx_t bs_a = a, bs_b = b;
  bs_a.in[0] = bs_b.in[0] = bsS;
  bs_a.in[1] = bs_b.in[1] = bsSig;
  bs_a.in[2] = bs_b.in[2] = bsT;
  bs_a.v[0] = a.v[0];
  row("bs_call _hvp cost vs _grad", bs_grad, &bs_b, bs_hvp, &bs_a, n, pool,
      reps);
  row("reproj _hvp cost vs _grad", rp_grad, &b, rp_hvp, &a, n, pool, reps);
  row("rnn_ragged _hvp cost vs _grad (lengths 1..32)", rnn_grad, &b, rnn_hvp,
      &a, n, pool, reps);
  return bad;
}
