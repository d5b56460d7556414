/* (a) float, math-heavy: NAME_batched against the plain scalar loop.
 * Usage: bench_float [n] [reps] [pool]    Target: >= 12x with AVX2 (8 lanes).
 * Each timed run covers the next n examples of a pool (see bench_util.h). */
#include "bench_util.h"
#include "models.h"

typedef struct {
  size_t n, off;
  float *x, *y, *out;
} ctx_t;

#define BD_CTX(v) ctx_t *c = (ctx_t *)(v)
#define X (c->x + c->off)
#define Y (c->y + c->off)
#define OUT (c->out + c->off)
static void loop_logistic(void *v) { BD_CTX(v); bd_loop_logistic_loss(c->n, X, Y, OUT); }
static void batch_logistic(void *v) { BD_CTX(v); logistic_loss_batched(c->n, X, Y, OUT); }
static void loop_gelu(void *v) { BD_CTX(v); bd_loop_gelu(c->n, X, OUT); }
static void batch_gelu(void *v) { BD_CTX(v); gelu_batched(c->n, X, OUT); }
static void loop_softplus(void *v) { BD_CTX(v); bd_loop_softplus(c->n, X, OUT); }
static void batch_softplus(void *v) { BD_CTX(v); softplus_batched(c->n, X, OUT); }
static void loop_powf(void *v) {
  BD_CTX(v);
  bd_loop_pow_f(c->n, X, Y, OUT);
}
static void batch_powf(void *v) {
  BD_CTX(v);
  pow_f_batched(c->n, X, Y, OUT);
}

typedef struct {
  const char *name;
  void (*loop)(void *), (*batch)(void *);
} bench_t;

int main(int argc, char **argv) {
  size_t n = 1u << 15, pool = 1u << 20;
  int reps = 51, bad = 0;
  bd_bench_args(argc, argv, &n, &reps, &pool);
  ctx_t c = {pool, 0, bd_bench_alloc(pool, 4), bd_bench_alloc(pool, 4),
             bd_bench_alloc(pool, 4)};
  float *res = c.out, *ref = bd_bench_alloc(pool, 4);
  bd_bench_slices sl = {&c.off, n, pool};
  bd_bench_rng g = {42};
  for (size_t i = 0; i < pool; i++) {
    c.x[i] = (float)bd_bench_uniform(&g, -8.0, 8.0);
    c.y[i] = bd_bench_uniform(&g, 0.0, 1.0) < 0.5 ? 0.0f : 1.0f;
  }
  bench_t b[] = {{"logistic_loss (expf, log1pf)", loop_logistic, batch_logistic},
                 {"gelu (tanhf)", loop_gelu, batch_gelu},
                 {"softplus (expf, log1pf, ?:)", loop_softplus, batch_softplus}};
  printf("bench_float: n = %zu per run (pool %zu), median of %d runs\n", n,
         pool, reps);
  for (size_t k = 0; k < sizeof b / sizeof b[0]; k++) {
    c.n = pool; /* check on the whole pool */
    c.off = 0;
    c.out = ref;
    b[k].loop(&c);
    c.out = res;
    b[k].batch(&c);
    /* Vector math is within a few ULP of libm per call; near the zeros of
     * these functions cancellation magnifies that, so errors are relative
     * to max(|value|, 1). */
    bad |= bd_bench_check(b[k].name, bd_bench_maxrel_f(res, ref, pool, 1.0), 1e-6);
    c.n = n;
    double tl, tb;
    bd_bench_pair(b[k].loop, &c, b[k].batch, &c, reps, bd_bench_next_slice, &sl, &tl, &tb);
    bd_bench_row("a float", b[k].name, tl, tb, n, ">= 12x / 18x");
  }
  /* powf alone: x in [0.5, 2], y in [-30, 30] */
  for (size_t i = 0; i < pool; i++) {
    c.x[i] = (float)bd_bench_uniform(&g, 0.5, 2.0);
    c.y[i] = (float)bd_bench_uniform(&g, -30.0, 30.0);
  }
  c.n = pool;
  c.off = 0;
  c.out = ref;
  loop_powf(&c);
  c.out = res;
  batch_powf(&c);
  bad |= bd_bench_check("pow_f", bd_bench_maxrel_f(res, ref, pool, 1.0), 1e-6);
  c.n = n;
  double tl, tb;
  bd_bench_pair(loop_powf, &c, batch_powf, &c, reps, bd_bench_next_slice, &sl,
                &tl, &tb);
  bd_bench_row("a float", "pow_f (powf)", tl, tb, n, "-");
  return bad;
}
