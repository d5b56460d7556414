/* (c) divergent branches: piecewise() takes one of three paths (expf /
 * polynomial / logf*sqrtf) per example. With shuffled inputs nearly every
 * vector holds all three paths, so the batched code runs all of them under
 * masks; with sorted inputs a vector takes one path. interp_knots(): a
 * bisection over a file-scope table of 11 knots (3 or 4 steps per example)
 * and a lerp between two of its entries, read at per-lane indices.
 * Usage: bench_divergent [n] [reps] [pool]
 * Each timed run covers the next n examples of a pool (see bench_util.h). */
#include "bench_util.h"
#include "models.h"

typedef struct {
  size_t n, off;
  float *x, *out;
} ctx_t;

#define BD_CTX(v) ctx_t *c = (ctx_t *)(v)
static void loop_pw(void *v) { BD_CTX(v); bd_loop_piecewise(c->n, c->x + c->off, c->out + c->off); }
static void batch_pw(void *v) { BD_CTX(v); piecewise_batched(c->n, c->x + c->off, c->out + c->off); }

typedef struct {
  size_t n, off;
  double *t, *out;
} ictx_t;

#define BD_ICTX(v) ictx_t *c = (ictx_t *)(v)
static void loop_ik(void *v) { BD_ICTX(v); bd_loop_interp_knots(c->n, c->t + c->off, c->out + c->off); }
static void batch_ik(void *v) { BD_ICTX(v); interp_knots_batched(c->n, c->t + c->off, c->out + c->off); }

static int cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  size_t n = 1u << 15, pool = 1u << 20;
  int reps = 51, bad = 0;
  bd_bench_args(argc, argv, &n, &reps, &pool);
  ctx_t c = {pool, 0, bd_bench_alloc(pool, 4), bd_bench_alloc(pool, 4)};
  float *ref = bd_bench_alloc(pool, 4), *res = c.out;
  bd_bench_slices sl = {&c.off, n, pool};
  bd_bench_rng g = {3};
  for (size_t i = 0; i < pool; i++) /* about 1/3 of the examples on each path */
    c.x[i] = (float)bd_bench_uniform(&g, -4.0, 4.0);
  printf("bench_divergent: n = %zu per run (pool %zu), median of %d runs\n",
         n, pool, reps);

  double t[2][2]; /* [shuffled, sorted][loop, batched] */
  for (int sorted = 0; sorted < 2; sorted++) {
    if (sorted) /* sorted within each run's slice: a run sees all 3 paths */
      for (size_t o = 0; o < pool; o += n)
        qsort(c.x + o, n, sizeof c.x[0], cmp_float);
    c.n = pool;
    c.off = 0;
    c.out = ref;
    loop_pw(&c);
    c.out = res;
    batch_pw(&c);
    bad |= bd_bench_check(sorted ? "piecewise (sorted)" : "piecewise (shuffled)",
                          bd_bench_maxrel_f(res, ref, pool, 1.0), 1e-6);
    c.n = n;
    bd_bench_pair(loop_pw, &c, batch_pw, &c, reps, bd_bench_next_slice, &sl,
                  &t[sorted][0], &t[sorted][1]);
  }
  bd_bench_row("c divergent", "piecewise, shuffled (3 paths per vector)",
               t[0][0], t[0][1], n, "-");
  bd_bench_row("c divergent", "piecewise, sorted (1 path per vector)",
               t[1][0], t[1][1], n, "-");
  bd_bench_cost_row("c divergent", "cost: batched shuffled / batched sorted",
                    t[1][1], t[0][1], n, "-");

  ictx_t ic = {pool, 0, bd_bench_alloc(pool, 8), bd_bench_alloc(pool, 8)};
  double *iref = bd_bench_alloc(pool, 8), *ires = ic.out;
  bd_bench_slices isl = {&ic.off, n, pool};
  for (size_t i = 0; i < pool; i++)
    ic.t[i] = bd_bench_uniform(&g, 0.0, 1.0);
  ic.out = iref;
  loop_ik(&ic);
  ic.out = ires;
  batch_ik(&ic);
  bad |= bd_bench_check("interp_knots", bd_bench_maxrel_d(ires, iref, pool, 1.0),
                        0.0);
  ic.n = n;
  double ti[2];
  bd_bench_pair(loop_ik, &ic, batch_ik, &ic, reps, bd_bench_next_slice, &isl,
                &ti[0], &ti[1]);
  bd_bench_row("c divergent", "interp_knots: bisection over a table of 11",
               ti[0], ti[1], n, "-");
  return bad;
}
