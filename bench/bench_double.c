/* (b) double, math-heavy: NAME_batched against the plain scalar loop.
 * Usage: bench_double [n] [reps]     Target: >= 5x with AVX2 (4 lanes). */
#include "bench_util.h"
#include "models.h"

typedef struct {
  size_t n;
  double K, r;
  double *a, *b, *c, *out;
} ctx_t;

#define BD_CTX(v) ctx_t *c = (ctx_t *)(v)
static void loop_bs(void *v) { BD_CTX(v); bd_loop_bs_call(c->n, c->a, c->K, c->r, c->b, c->c, c->out); }
static void batch_bs(void *v) { BD_CTX(v); bs_call_batched(c->n, c->a, c->K, c->r, c->b, c->c, c->out); }
static void loop_ln(void *v) { BD_CTX(v); bd_loop_lognormal_nll(c->n, c->a, c->b, c->c, c->out); }
static void batch_ln(void *v) { BD_CTX(v); lognormal_nll_batched(c->n, c->a, c->b, c->c, c->out); }

int main(int argc, char **argv) {
  size_t n = 1u << 20;
  int reps = 11, bad = 0;
  bd_bench_args(argc, argv, &n, &reps);
  double *ref = bd_bench_alloc(n, 8);
  ctx_t c = {n, 100.0, 0.03, bd_bench_alloc(n, 8), bd_bench_alloc(n, 8),
             bd_bench_alloc(n, 8), bd_bench_alloc(n, 8)};
  bd_bench_rng g = {7};
  printf("bench_double: n = %zu, median of %d runs\n", n, reps);

  /* Black-Scholes: S, sigma, T (about 3% expired, some deep OTM) */
  for (size_t i = 0; i < n; i++) {
    c.a[i] = bd_bench_uniform(&g, 40.0, 160.0);
    c.b[i] = bd_bench_uniform(&g, 0.05, 0.6);
    c.c[i] = bd_bench_uniform(&g, -0.06, 2.0);
  }
  c.out = ref;
  loop_bs(&c);
  c.out = bd_bench_alloc(n, 8);
  batch_bs(&c);
  bad |= bd_bench_check("bs_call", bd_bench_maxrel_d(c.out, ref, n, 1.0), 1e-13);
  bd_bench_row("b double", "bs_call (erfc x2, exp, log, sqrt)",
               bd_bench_time(loop_bs, &c, reps), bd_bench_time(batch_bs, &c, reps), n, ">= 5x");

  /* log-normal negative log-likelihood: x, mu, sigma */
  for (size_t i = 0; i < n; i++) {
    c.a[i] = bd_bench_uniform(&g, 0.01, 50.0);
    c.b[i] = bd_bench_uniform(&g, -1.0, 2.0);
    c.c[i] = bd_bench_uniform(&g, 0.2, 3.0);
  }
  double *out = c.out;
  c.out = ref;
  loop_ln(&c);
  c.out = out;
  batch_ln(&c);
  bad |= bd_bench_check("lognormal_nll", bd_bench_maxrel_d(c.out, ref, n, 1.0), 1e-14);
  bd_bench_row("b double", "lognormal_nll (log x2)",
               bd_bench_time(loop_ln, &c, reps), bd_bench_time(batch_ln, &c, reps), n, ">= 5x");
  return bad;
}
