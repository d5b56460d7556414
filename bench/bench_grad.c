/* (d) gradient cost: NAME_grad (ret = NULL, d_ret = NULL, every shadow)
 * against NAME_batched on the same inputs. Target: <= 3x.
 * Gradients are checked against scalar dual numbers (double models) and
 * central differences of the scalar function (float models).
 * Usage: bench_grad [n] [reps] [pool]
 * Each timed run covers the next n examples of a pool (see bench_util.h). */
#include "bench_util.h"
#include "models.h"

#include <math.h>
#include <string.h>

typedef struct {
  size_t n, off;
  double K, r;
  float *fx, *fy, *fout, *fdx, *fdy;
  double *a, *b, *c, *out, *da, *db, *dc, *ea, *eb, *ec, dK, dr;
} ctx_t;

#define BD_CTX(v) ctx_t *c = (ctx_t *)(v)
#define O(p) (c->p + c->off)
static void p_logistic(void *v) { BD_CTX(v); logistic_loss_batched(c->n, O(fx), O(fy), O(fout)); }
static void g_logistic(void *v) { BD_CTX(v); logistic_loss_grad(c->n, O(fx), O(fy), NULL, NULL, O(fdx), O(fdy)); }
static void p_gelu(void *v) { BD_CTX(v); gelu_batched(c->n, O(fx), O(fout)); }
static void g_gelu(void *v) { BD_CTX(v); gelu_grad(c->n, O(fx), NULL, NULL, O(fdx)); }
static void p_softplus(void *v) { BD_CTX(v); softplus_batched(c->n, O(fx), O(fout)); }
static void g_softplus(void *v) { BD_CTX(v); softplus_grad(c->n, O(fx), NULL, NULL, O(fdx)); }
static void p_piecewise(void *v) { BD_CTX(v); piecewise_batched(c->n, O(fx), O(fout)); }
static void g_piecewise(void *v) { BD_CTX(v); piecewise_grad(c->n, O(fx), NULL, NULL, O(fdx)); }
static void p_bs(void *v) { BD_CTX(v); bs_call_batched(c->n, O(a), c->K, c->r, O(b), O(c), O(out)); }
static void g_bs(void *v) {
  BD_CTX(v);
  bs_call_grad(c->n, O(a), c->K, c->r, O(b), O(c), NULL, NULL, O(da), &c->dK, &c->dr, O(db), O(dc));
}
static void p_ln(void *v) { BD_CTX(v); lognormal_nll_batched(c->n, O(ea), O(eb), O(ec), O(out)); }
static void g_ln(void *v) { BD_CTX(v); lognormal_nll_grad(c->n, O(ea), O(eb), O(ec), NULL, NULL, O(da), O(db), O(dc)); }

typedef struct {
  const char *name;
  void (*primal)(void *), (*grad)(void *);
  float (*f)(float); /* float models of one argument: checked by differences */
} bench_t;

static void zero(ctx_t *c) {
  memset(c->fdx, 0, c->n * 4);
  memset(c->fdy, 0, c->n * 4);
  memset(c->da, 0, c->n * 8);
  memset(c->db, 0, c->n * 8);
  memset(c->dc, 0, c->n * 8);
  c->dK = c->dr = 0.0;
}

/* Central differences of a float function, evaluated at h = 1e-3: good to
 * about 1e-4 relative, enough to catch a wrong derivative. Points where the
 * one-sided differences disagree (a jump or kink inside the stencil) are
 * skipped. */
static double fd_err(float (*f)(float), const float *x, const float *g,
                     size_t n) {
  double m = 0.0;
  for (size_t i = 0; i < n; i += n / 1000 + 1) {
    float h = 1e-3f;
    double f0 = f(x[i]), fp = f(x[i] + h), fm = f(x[i] - h);
    double fwd = (fp - f0) / h, bwd = (f0 - fm) / h, fd = 0.5 * (fwd + bwd);
    if (fabs(fwd - bwd) > 0.01 * (fabs(fd) + 1.0))
      continue;
    double e = fabs(fd - g[i]) / (fabs(fd) + 1.0);
    if (!(e <= m))
      m = e;
  }
  return m;
}

int main(int argc, char **argv) {
  size_t n = 1u << 14, pool = 1u << 19;
  int reps = 51, bad = 0;
  bd_bench_args(argc, argv, &n, &reps, &pool);
  ctx_t c;
  memset(&c, 0, sizeof c);
  c.n = pool; /* checks run on the whole pool */
  bd_bench_slices sl = {&c.off, n, pool};
  c.K = 100.0;
  c.r = 0.03;
  float **fv[] = {&c.fx, &c.fy, &c.fout, &c.fdx, &c.fdy};
  double **dv[] = {&c.a, &c.b, &c.c, &c.out, &c.da, &c.db, &c.dc, &c.ea, &c.eb, &c.ec};
  for (size_t i = 0; i < sizeof fv / sizeof fv[0]; i++)
    *fv[i] = bd_bench_alloc(pool, 4);
  for (size_t i = 0; i < sizeof dv / sizeof dv[0]; i++)
    *dv[i] = bd_bench_alloc(pool, 8);
  bd_bench_rng g = {11};
  for (size_t i = 0; i < pool; i++) {
    c.fx[i] = (float)bd_bench_uniform(&g, -4.0, 4.0);
    c.fy[i] = bd_bench_uniform(&g, 0.0, 1.0) < 0.5 ? 0.0f : 1.0f;
    c.a[i] = bd_bench_uniform(&g, 40.0, 160.0);
    c.b[i] = bd_bench_uniform(&g, 0.05, 0.6);
    c.c[i] = bd_bench_uniform(&g, -0.06, 2.0);
    c.ea[i] = bd_bench_uniform(&g, 0.01, 50.0);
    c.eb[i] = bd_bench_uniform(&g, -1.0, 2.0);
    c.ec[i] = bd_bench_uniform(&g, 0.2, 3.0);
  }
  printf("bench_grad: n = %zu per run (pool %zu), median of %d runs\n", n,
         pool, reps);

  /* checks, on the whole pool */
  {
    size_t n = pool;
    double *r = bd_bench_alloc(n, 8), *x = bd_bench_alloc(n, 8),
           *y = bd_bench_alloc(n, 8), *z = bd_bench_alloc(n, 8), k, q;
    zero(&c);
    g_bs(&c);
    bd_dual_bs_call(n, c.a, c.K, c.r, c.b, c.c, r, x, &k, &q, y, z);
    double e = bd_bench_maxrel_d(c.da, x, n, 1.0);
    e = fmax(e, bd_bench_maxrel_d(c.db, y, n, 100.0));
    e = fmax(e, bd_bench_maxrel_d(c.dc, z, n, 100.0));
    e = fmax(e, fabs(c.dK - k) / (fabs(k) + (double)n));
    e = fmax(e, fabs(c.dr - q) / (fabs(q) + 100.0 * (double)n));
    bad |= bd_bench_check("bs_call_grad vs dual numbers", e, 1e-11);
    zero(&c);
    g_ln(&c);
    bd_dual_lognormal_nll(n, c.ea, c.eb, c.ec, r, x, y, z);
    e = bd_bench_maxrel_d(c.da, x, n, 1.0);
    e = fmax(e, bd_bench_maxrel_d(c.db, y, n, 1.0));
    e = fmax(e, bd_bench_maxrel_d(c.dc, z, n, 1.0));
    bad |= bd_bench_check("lognormal_nll_grad vs dual numbers", e, 1e-12);
    free(r), free(x), free(y), free(z);
    zero(&c);
    g_logistic(&c);
    e = 0.0;
    for (size_t i = 0; i < n; i++) {
      double s = 1.0 / (1.0 + exp(-(double)c.fx[i]));
      e = fmax(e, fabs(c.fdx[i] - (s - c.fy[i])) + fabs(c.fdy[i] + c.fx[i]));
    }
    bad |= bd_bench_check("logistic_loss_grad vs sigmoid(z)-y, -z", e, 1e-6);
  }

  bench_t b[] = {
      {"logistic_loss (float)", p_logistic, g_logistic, NULL},
      {"gelu (float)", p_gelu, g_gelu, gelu},
      {"softplus (float)", p_softplus, g_softplus, softplus},
      {"piecewise, shuffled (float)", p_piecewise, g_piecewise, piecewise},
      {"bs_call (double)", p_bs, g_bs, NULL},
      {"lognormal_nll (double)", p_ln, g_ln, NULL},
  };
  for (size_t k = 0; k < sizeof b / sizeof b[0]; k++) {
    c.n = pool;
    c.off = 0;
    if (b[k].f) {
      zero(&c);
      b[k].grad(&c);
      char what[96];
      snprintf(what, sizeof what, "%s grad vs differences", b[k].name);
      bad |= bd_bench_check(what, fd_err(b[k].f, c.fx, c.fdx, pool), 1e-2);
    }
    c.n = n;
    c.off = 0;
    double tp, tg; /* (shadows keep adding up: only timed here) */
    bd_bench_pair(b[k].primal, &c, b[k].grad, &c, reps, bd_bench_next_slice,
                  &sl, &tp, &tg);
    bd_bench_cost_row("d gradient", b[k].name, tp, tg, n, "<= 3x (cost)");
  }
  return bad;
}
