/* Latency-bound and divergent kernels of issue 7's target table:
 *   ray_sphere  (float, three early exits: mixed in nearly every vector)
 *   ncbrt       (double Newton loop, 3 to ~40 trips per example)
 *   implied_vol (double, erfc inside a Newton loop)
 *   rnn_ragged  (float tanhf recurrence over 1..16 steps per example,
 *                uniform weights)
 * each against the plain loop over the scalar function, plus the gradient
 * cost of the two loops.
 * Usage: bench_chains [n] [reps] [pool]
 * Each timed run covers the next n examples of a pool (see bench_util.h). */
#include "bench_util.h"
#include "models.h"

#include <math.h>

enum { STEPS = 16 };

typedef struct {
  size_t n, off;
  float *o[3], *d[3], *fout, *xs, *dxs;
  int *len;
  double *a, *price, *S, *T, *out, *da;
} ctx_t;

#define BD_CTX(v) ctx_t *c = (ctx_t *)(v)
#define O(p) (c->p + c->off)
static void loop_ray(void *v) {
  BD_CTX(v);
  bd_loop_ray_sphere(c->n, O(o[0]), O(o[1]), O(o[2]), O(d[0]), O(d[1]), O(d[2]),
                     1.0f, O(fout));
}
static void batch_ray(void *v) {
  BD_CTX(v);
  ray_sphere_batched(c->n, O(o[0]), O(o[1]), O(o[2]), O(d[0]), O(d[1]), O(d[2]),
                     1.0f, O(fout));
}
static void loop_cbrt(void *v) {
  BD_CTX(v);
  bd_loop_ncbrt(c->n, O(a), O(out));
}
static void batch_cbrt(void *v) {
  BD_CTX(v);
  ncbrt_batched(c->n, O(a), O(out));
}
static void grad_cbrt(void *v) {
  BD_CTX(v);
  ncbrt_grad(c->n, O(a), O(out), NULL, O(da));
}
static void loop_iv(void *v) {
  BD_CTX(v);
  bd_loop_implied_vol(c->n, O(price), O(S), 100.0, 0.02, O(T), O(out));
}
static void batch_iv(void *v) {
  BD_CTX(v);
  implied_vol_batched(c->n, O(price), O(S), 100.0, 0.02, O(T), O(out));
}
static void loop_rnn(void *v) {
  BD_CTX(v);
  bd_loop_rnn_ragged(c->n, c->xs + c->off * STEPS, STEPS, O(len), 0.9f, 0.6f,
                     O(fout));
}
static void batch_rnn(void *v) {
  BD_CTX(v);
  rnn_ragged_batched(c->n, c->xs + c->off * STEPS, STEPS, O(len), 0.9f, 0.6f,
                     O(fout));
}
static void grad_rnn(void *v) {
  BD_CTX(v);
  float dw = 0, du = 0;
  rnn_ragged_grad(c->n, c->xs + c->off * STEPS, STEPS, O(len), 0.9f, 0.6f, NULL,
                  NULL, c->dxs + c->off * STEPS, STEPS, &dw, &du);
}

/* Runs base on the whole pool into ref, ours into res, compares. */
static int check(const char *what, ctx_t *c, void (*base)(void *),
                 void (*ours)(void *), void *ref, void *res, int dbl,
                 size_t pool, double tol) {
  c->n = pool;
  c->off = 0;
  if (dbl)
    c->out = ref;
  else
    c->fout = ref;
  base(c);
  if (dbl)
    c->out = res;
  else
    c->fout = res;
  ours(c);
  double e = dbl ? bd_bench_maxrel_d(res, ref, pool, 1e-300)
                 : bd_bench_maxrel_f(res, ref, pool, 1.0);
  return bd_bench_check(what, e, tol);
}

int main(int argc, char **argv) {
  size_t n = 1u << 14, pool = 1u << 18;
  int reps = 51, bad = 0;
  bd_bench_args(argc, argv, &n, &reps, &pool);
  ctx_t c = {0};
  for (int k = 0; k < 3; k++) {
    c.o[k] = bd_bench_alloc(pool, 4);
    c.d[k] = bd_bench_alloc(pool, 4);
  }
  float *fref = bd_bench_alloc(pool, 4), *fres = bd_bench_alloc(pool, 4);
  double *ref = bd_bench_alloc(pool, 8), *res = bd_bench_alloc(pool, 8);
  c.xs = bd_bench_alloc(pool * STEPS, 4);
  c.dxs = bd_bench_alloc(pool * STEPS, 4);
  c.len = bd_bench_alloc(pool, sizeof(int));
  c.a = bd_bench_alloc(pool, 8);
  c.price = bd_bench_alloc(pool, 8);
  c.S = bd_bench_alloc(pool, 8);
  c.T = bd_bench_alloc(pool, 8);
  c.da = bd_bench_alloc(pool, 8);
  bd_bench_rng g = {7};
  for (size_t i = 0; i < pool; i++) {
    /* Origins in [-3, 3]^3, unit directions: about a third each miss, point
     * away, hit from outside; a few start inside. */
    double dx = bd_bench_uniform(&g, -1, 1), dy = bd_bench_uniform(&g, -1, 1),
           dz = bd_bench_uniform(&g, -1, 1);
    double l = sqrt(dx * dx + dy * dy + dz * dz) + 1e-9;
    c.d[0][i] = (float)(dx / l);
    c.d[1][i] = (float)(dy / l);
    c.d[2][i] = (float)(dz / l);
    for (int k = 0; k < 3; k++)
      c.o[k][i] = (float)bd_bench_uniform(&g, -3, 3);
    c.a[i] = exp(bd_bench_uniform(&g, log(1e-3), log(1e6)));
    /* examples/implied_vol's scenarios */
    c.S[i] = bd_bench_uniform(&g, 80, 120);
    c.T[i] = bd_bench_uniform(&g, 0.25, 2.0);
    c.price[i] = bd_bs_price_scalar(c.S[i], 100.0, 0.02,
                                    bd_bench_uniform(&g, 0.1, 0.6), c.T[i]);
    c.len[i] = 1 + (int)bd_bench_uniform(&g, 0, STEPS - 0.001);
    for (int s = 0; s < STEPS; s++)
      c.xs[i * STEPS + s] = (float)bd_bench_uniform(&g, -1, 1);
  }
  printf("bench_chains: n = %zu per run (pool %zu), median of %d runs\n", n,
         pool, reps);
  bad |=
      check("ray_sphere", &c, loop_ray, batch_ray, fref, fres, 0, pool, 1e-6);
  bad |= check("ncbrt", &c, loop_cbrt, batch_cbrt, ref, res, 1, pool, 1e-15);
  bad |= check("implied_vol", &c, loop_iv, batch_iv, ref, res, 1, pool, 1e-9);
  bad |=
      check("rnn_ragged", &c, loop_rnn, batch_rnn, fref, fres, 0, pool, 1e-6);
  /* d cbrt(a)/da = 1 / (3 cbrt(a)^2), where Newton converged. */
  c.n = pool;
  c.off = 0;
  c.out = res;
  grad_cbrt(&c);
  double e = 0;
  for (size_t i = 0; i < pool; i++) {
    double want = 1.0 / (3.0 * res[i] * res[i]);
    double r = fabs(c.da[i] - want) / want;
    e = r > e ? r : e;
  }
  bad |= bd_bench_check("ncbrt_grad vs 1/(3 cbrt(a)^2)", e, 1e-6);

  bd_bench_slices sl = {&c.off, n, pool};
  double tb, to, tg;
  c.n = n;
  c.fout = fres;
  c.out = res;
  bd_bench_pair(loop_ray, &c, batch_ray, &c, reps, bd_bench_next_slice, &sl,
                &tb, &to);
  bd_bench_row("c divergent", "ray_sphere (float, 3 exits, mixed vectors)", tb,
               to, n, ">= 7x / 10x");
  bd_bench_pair(loop_cbrt, &c, batch_cbrt, &c, reps, bd_bench_next_slice, &sl,
                &tb, &to);
  bd_bench_row("f loops", "ncbrt (double Newton loop)", tb, to, n,
               ">= 4x / 5x");
  bd_bench_pair(batch_cbrt, &c, grad_cbrt, &c, reps, bd_bench_next_slice, &sl,
                &to, &tg);
  bd_bench_cost_row("d gradient", "ncbrt (double loop): _grad / _batched", to,
                    tg, n, "<= 4x (cost)");
  bd_bench_pair(loop_iv, &c, batch_iv, &c, reps, bd_bench_next_slice, &sl, &tb,
                &to);
  bd_bench_row("f loops", "implied_vol (erfc in a Newton loop)", tb, to, n,
               ">= 3x / 4x");
  bd_bench_pair(loop_rnn, &c, batch_rnn, &c, reps, bd_bench_next_slice, &sl,
                &tb, &to);
  bd_bench_row("f loops", "rnn_ragged (tanhf, 1..16 steps, uniform w, u)", tb,
               to, n, ">= 8x / 10x");
  bd_bench_pair(batch_rnn, &c, grad_rnn, &c, reps, bd_bench_next_slice, &sl,
                &to, &tg);
  bd_bench_cost_row("d gradient", "rnn_ragged (float loop): _grad / _batched",
                    to, tg, n, "<= 4x (cost)");
  return bad;
}
