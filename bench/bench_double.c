/* (b) double, math-heavy: NAME_batched against the plain scalar loop.
 * Usage: bench_double [n] [reps] [pool]    Target: >= 5x with AVX2 (4 lanes).
 * Each timed run covers the next n examples of a pool (see bench_util.h). */
#include "bench_util.h"
#include "models.h"

typedef struct {
  size_t n, off;
  double K, r;
  double *a, *b, *c, *out;
} ctx_t;

#define BD_CTX(v) ctx_t *c = (ctx_t *)(v)
#define A (c->a + c->off)
#define B (c->b + c->off)
#define C (c->c + c->off)
#define OUT (c->out + c->off)
static void loop_bs(void *v) { BD_CTX(v); bd_loop_bs_call(c->n, A, c->K, c->r, B, C, OUT); }
static void batch_bs(void *v) { BD_CTX(v); bs_call_batched(c->n, A, c->K, c->r, B, C, OUT); }
static void hand_bs(void *v) { BD_CTX(v); bd_hand_bs_call(c->n, A, c->K, c->r, B, C, OUT); }
static void mvec_bs(void *v) { BD_CTX(v); bd_libmvec_bs_call(c->n, A, c->K, c->r, B, C, OUT); }
static void loop_ln(void *v) { BD_CTX(v); bd_loop_lognormal_nll(c->n, A, B, C, OUT); }
static void batch_ln(void *v) { BD_CTX(v); lognormal_nll_batched(c->n, A, B, C, OUT); }
static void hand_ln(void *v) { BD_CTX(v); bd_hand_lognormal_nll(c->n, A, B, C, OUT); }
static void mvec_ln(void *v) { BD_CTX(v); bd_libmvec_lognormal_nll(c->n, A, B, C, OUT); }
static void loop_sp(void *v) {
  BD_CTX(v);
  bd_loop_softplus_d(c->n, A, OUT);
}
static void batch_sp(void *v) {
  BD_CTX(v);
  softplus_d_batched(c->n, A, OUT);
}
static void loop_pw(void *v) {
  BD_CTX(v);
  bd_loop_pow_d(c->n, A, B, OUT);
}
static void batch_pw(void *v) {
  BD_CTX(v);
  pow_d_batched(c->n, A, B, OUT);
}
#define AMER_STEPS 32
static void loop_am(void *v) {
  BD_CTX(v);
  bd_loop_amer_put(c->n, A, c->K, c->r, B, C, AMER_STEPS, OUT);
}
static void batch_am(void *v) {
  BD_CTX(v);
  amer_put_batched(c->n, A, c->K, c->r, B, C, AMER_STEPS, OUT);
}

/* Checks the references against the scalar loop (ref, pool examples), then
 * prints the rows: scalar loop with -fveclib=libmvec, hand-written vectors
 * (the limit), and the generated function's cost against the limit. */
static int ref_rows(const char *name, void (*loop)(void *),
                    void (*mvec)(void *), void (*hand)(void *),
                    void (*batch)(void *), ctx_t *c, const double *ref,
                    double tol, int reps, bd_bench_slices *sl) {
  char label[96];
  double tl, tm, th, tb;
  size_t n = c->n;
  int bad = 0;
  c->n = sl->pool;
  c->off = 0;
  mvec(c);
  snprintf(label, sizeof label, "%s libmvec loop", name);
  bad |= bd_bench_check(label, bd_bench_maxrel_d(c->out, ref, sl->pool, 1.0), tol);
  hand(c);
  snprintf(label, sizeof label, "%s hand-written", name);
  bad |= bd_bench_check(label, bd_bench_maxrel_d(c->out, ref, sl->pool, 1.0), tol);
  c->n = n;
  bd_bench_pair(loop, c, mvec, c, reps, bd_bench_next_slice, sl, &tl, &tm);
  snprintf(label, sizeof label, "%s: loop with -fveclib=libmvec", name);
  bd_bench_row("b double", label, tl, tm, n, "-");
  bd_bench_pair(loop, c, hand, c, reps, bd_bench_next_slice, sl, &tl, &th);
  snprintf(label, sizeof label, "%s: hand-written vectors (limit)", name);
  bd_bench_row("b double", label, tl, th, n, "-");
  bd_bench_pair(hand, c, batch, c, reps, bd_bench_next_slice, sl, &th, &tb);
  snprintf(label, sizeof label, "%s cost: _batched / hand-written", name);
  bd_bench_cost_row("b double", label, th, tb, n, "-");
  return bad;
}

int main(int argc, char **argv) {
  size_t n = 1u << 14, pool = 1u << 19;
  int reps = 51, bad = 0;
  bd_bench_args(argc, argv, &n, &reps, &pool);
  double *ref = bd_bench_alloc(pool, 8), *res = bd_bench_alloc(pool, 8);
  ctx_t c = {pool, 0, 100.0, 0.03, bd_bench_alloc(pool, 8),
             bd_bench_alloc(pool, 8), bd_bench_alloc(pool, 8), res};
  bd_bench_slices sl = {&c.off, n, pool};
  bd_bench_rng g = {7};
  double tl, tb;
  printf("bench_double: n = %zu per run (pool %zu), median of %d runs\n", n,
         pool, reps);

  /* Black-Scholes: S, sigma, T (about 3% expired, some deep OTM) */
  for (size_t i = 0; i < pool; i++) {
    c.a[i] = bd_bench_uniform(&g, 40.0, 160.0);
    c.b[i] = bd_bench_uniform(&g, 0.05, 0.6);
    c.c[i] = bd_bench_uniform(&g, -0.06, 2.0);
  }
  c.out = ref;
  loop_bs(&c);
  c.out = res;
  batch_bs(&c);
  bad |= bd_bench_check("bs_call", bd_bench_maxrel_d(res, ref, pool, 1.0), 1e-13);
  c.n = n;
  bd_bench_pair(loop_bs, &c, batch_bs, &c, reps, bd_bench_next_slice, &sl, &tl, &tb);
  bd_bench_row("b double", "bs_call (erfc x2, exp, log, sqrt)", tl, tb, n, ">= 5x / 6x");
  bad |= ref_rows("bs_call", loop_bs, mvec_bs, hand_bs, batch_bs, &c, ref, 1e-13,
                  reps, &sl);

  /* log-normal negative log-likelihood: x, mu, sigma */
  for (size_t i = 0; i < pool; i++) {
    c.a[i] = bd_bench_uniform(&g, 0.01, 50.0);
    c.b[i] = bd_bench_uniform(&g, -1.0, 2.0);
    c.c[i] = bd_bench_uniform(&g, 0.2, 3.0);
  }
  c.n = pool;
  c.off = 0;
  c.out = ref;
  loop_ln(&c);
  c.out = res;
  batch_ln(&c);
  bad |= bd_bench_check("lognormal_nll", bd_bench_maxrel_d(res, ref, pool, 1.0), 1e-14);
  c.n = n;
  bd_bench_pair(loop_ln, &c, batch_ln, &c, reps, bd_bench_next_slice, &sl, &tl, &tb);
  bd_bench_row("b double", "lognormal_nll (log x2)", tl, tb, n, ">= 5x / 6x");
  bad |= ref_rows("lognormal_nll", loop_ln, mvec_ln, hand_ln, batch_ln, &c, ref,
                  1e-14, reps, &sl);

  /* double softplus: x (exp(x) from 2e-9 to 1e13; as in bench_float, the
   * branch is never taken) */
  for (size_t i = 0; i < pool; i++)
    c.a[i] = bd_bench_uniform(&g, -20.0, 30.0);
  c.n = pool;
  c.off = 0;
  c.out = ref;
  loop_sp(&c);
  c.out = res;
  batch_sp(&c);
  bad |= bd_bench_check("softplus_d", bd_bench_maxrel_d(res, ref, pool, 1.0),
                        1e-15);
  c.n = n;
  bd_bench_pair(loop_sp, &c, batch_sp, &c, reps, bd_bench_next_slice, &sl, &tl,
                &tb);
  bd_bench_row("b double", "softplus_d (exp, log1p, ?:)", tl, tb, n, "-");

  /* pow alone: x in [0.5, 2], y in [-30, 30] */
  for (size_t i = 0; i < pool; i++) {
    c.a[i] = bd_bench_uniform(&g, 0.5, 2.0);
    c.b[i] = bd_bench_uniform(&g, -30.0, 30.0);
  }
  c.n = pool;
  c.off = 0;
  c.out = ref;
  loop_pw(&c);
  c.out = res;
  batch_pw(&c);
  bad |= bd_bench_check("pow_d", bd_bench_maxrel_d(res, ref, pool, 1.0), 1e-15);
  c.n = n;
  bd_bench_pair(loop_pw, &c, batch_pw, &c, reps, bd_bench_next_slice, &sl, &tl,
                &tb);
  bd_bench_row("b double", "pow_d (pow)", tl, tb, n, "-");

  /* American put, binomial tree of 32 steps: S, sigma, T (n / 64 examples:
   * each is 1,088 pows) */
  for (size_t i = 0; i < pool; i++) {
    c.a[i] = bd_bench_uniform(&g, 60.0, 140.0);
    c.b[i] = bd_bench_uniform(&g, 0.1, 0.6);
    c.c[i] = bd_bench_uniform(&g, 0.1, 2.0);
  }
  c.n = pool / 64;
  c.off = 0;
  c.out = ref;
  loop_am(&c);
  c.out = res;
  batch_am(&c);
  bad |= bd_bench_check("amer_put", bd_bench_maxrel_d(res, ref, pool / 64, 1.0),
                        1e-13);
  c.n = n / 64;
  sl.n = n / 64;
  bd_bench_pair(loop_am, &c, batch_am, &c, reps, bd_bench_next_slice, &sl, &tl,
                &tb);
  bd_bench_row("b double", "amer_put (binomial tree, 2 pows a node)", tl, tb,
               n / 64, "-");
  return bad;
}
