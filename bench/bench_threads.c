/* Thread scaling (issue 9): NAME_batched and NAME_grad on 1 thread against
 * k threads (bd_set_num_threads), same inputs, timed alternately (median).
 * Usage: bench_threads [n] [reps] [k]     defaults: 1000000 11 2
 * Rows: ROW|threads k|<case>|<1-thread ns/ex>|<k-thread ns/ex>|<speedup>|
 * and a sweep of softplus_batched over n around BD_PARALLEL_MIN_N (the
 * threshold below which calls stay on one thread). Each case also checks
 * that 1 and k threads give the same bits; exit status 1 if not.
 * Run it on more cores with a larger k, e.g. bench_threads 10000000 11 16. */
#include "bench_util.h"
#include "models.h"

#include <batchdiff/parallel.h>
#include <string.h>

enum { STEPS = 16 };

typedef struct {
  size_t n;
  int threads;
  float *fx, *fout, *fdx, *xs, *dxs, dw, du;
  double *S, *sig, *T, *out, *dS, *dsig, *dT, dK, dr;
  int *k;
} ctx_t;

#define C ctx_t *c = (ctx_t *)v; bd_set_num_threads(c->threads)
static void sp_b(void *v) { C; softplus_batched(c->n, c->fx, c->fout); }
static void sp_g(void *v) { C; softplus_grad(c->n, c->fx, NULL, NULL, c->fdx); }
static void bs_b(void *v) {
  C;
  bs_call_batched(c->n, c->S, 100.0, 0.03, c->sig, c->T, c->out);
}
static void bs_g(void *v) {
  C;
  c->dK = c->dr = 0;
  bs_call_grad(c->n, c->S, 100.0, 0.03, c->sig, c->T, NULL, NULL, c->dS, &c->dK,
               &c->dr, c->dsig, c->dT);
}
static void rn_b(void *v) {
  C;
  rnn_ragged_batched(c->n, c->xs, STEPS, c->k, 0.9f, 0.6f, c->fout);
}
static void rn_g(void *v) {
  C;
  c->dw = c->du = 0;
  rnn_ragged_grad(c->n, c->xs, STEPS, c->k, 0.9f, 0.6f, NULL, NULL, c->dxs,
                  STEPS, &c->dw, &c->du);
}

typedef struct {
  const char *name;
  void (*fn)(void *);
} case_t;

/* Snapshot of every output, to compare 1 and k threads bit for bit. */
static void snap(const ctx_t *c, unsigned char *buf) {
  size_t n = c->n, o = 0;
#define PUT(p, bytes) (memcpy(buf + o, (p), (bytes)), o += (bytes))
  PUT(c->fout, n * 4);
  PUT(c->fdx, n * 4);
  PUT(c->dxs, n * STEPS * 4);
  PUT(&c->dw, 4);
  PUT(&c->du, 4);
  PUT(c->out, n * 8);
  PUT(c->dS, n * 8);
  PUT(c->dsig, n * 8);
  PUT(c->dT, n * 8);
  PUT(&c->dK, 8);
  PUT(&c->dr, 8);
#undef PUT
}
static size_t snap_bytes(size_t n) { return n * (12 + 4 * STEPS + 32) + 24; }

int main(int argc, char **argv) {
  size_t n = 1000000, pool = 0;
  int reps = 11, k = 2, bad = 0;
  if (argc > 3) {
    k = atoi(argv[3]);
    argc = 3;
  }
  bd_bench_args(argc, argv, &n, &reps, &pool);
  if (k < 2)
    k = 2;
  ctx_t c1, ck;
  memset(&c1, 0, sizeof c1);
  c1.n = n;
  float **fv[] = {&c1.fx, &c1.fout, &c1.fdx};
  double **dv[] = {&c1.S, &c1.sig, &c1.T, &c1.out, &c1.dS, &c1.dsig, &c1.dT};
  for (size_t i = 0; i < sizeof fv / sizeof *fv; i++)
    *fv[i] = bd_bench_alloc(n, 4);
  for (size_t i = 0; i < sizeof dv / sizeof *dv; i++)
    *dv[i] = bd_bench_alloc(n, 8);
  c1.xs = bd_bench_alloc(n * STEPS, 4);
  c1.dxs = bd_bench_alloc(n * STEPS, 4);
  c1.k = bd_bench_alloc(n, sizeof(int));
  bd_bench_rng g = {7};
  for (size_t i = 0; i < n; i++) {
    c1.fx[i] = (float)bd_bench_uniform(&g, -4.0, 4.0);
    c1.S[i] = bd_bench_uniform(&g, 40.0, 160.0);
    c1.sig[i] = bd_bench_uniform(&g, 0.05, 0.6);
    c1.T[i] = bd_bench_uniform(&g, -0.06, 2.0);
    c1.k[i] = (int)bd_bench_uniform(&g, 1.0, STEPS + 0.999);
    for (int j = 0; j < STEPS; j++)
      c1.xs[i * STEPS + j] = (float)bd_bench_uniform(&g, -1.0, 1.0);
  }
  ck = c1;
  c1.threads = 1;
  ck.threads = k;
  printf("bench_threads: n = %zu, median of %d runs, 1 vs %d threads "
         "(threshold %d examples, chunks of %d)\n",
         n, reps, k, BD_PARALLEL_MIN_N, BD_CHUNK);

  static const case_t cases[] = {
      {"softplus_batched", sp_b}, {"softplus_grad", sp_g},
      {"bs_call_batched", bs_b},  {"bs_call_grad", bs_g},
      {"rnn_ragged_batched", rn_b}, {"rnn_ragged_grad", rn_g}};
  unsigned char *s1 = malloc(snap_bytes(n)), *sk = malloc(snap_bytes(n));
  char group[32];
  snprintf(group, sizeof group, "threads %d", k);
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    /* Same bits: run on 1 thread, snapshot, on k threads, compare. */
    memset(c1.fdx, 0, n * 4);
    memset(c1.dxs, 0, n * STEPS * 4);
    memset(c1.dS, 0, n * 8), memset(c1.dsig, 0, n * 8), memset(c1.dT, 0, n * 8);
    cases[i].fn(&c1);
    snap(&c1, s1);
    memset(c1.fdx, 0, n * 4);
    memset(c1.dxs, 0, n * STEPS * 4);
    memset(c1.dS, 0, n * 8), memset(c1.dsig, 0, n * 8), memset(c1.dT, 0, n * 8);
    cases[i].fn(&ck);
    snap(&ck, sk);
    if (memcmp(s1, sk, snap_bytes(n))) {
      printf("FAIL: %s differs between 1 and %d threads\n", cases[i].name, k);
      bad = 1;
    }
    double t1, tk;
    bd_bench_pair(cases[i].fn, &c1, cases[i].fn, &ck, reps, NULL, NULL, &t1,
                  &tk);
    bd_bench_row(group, cases[i].name, t1, tk, n, ">= 1.8x");
  }
  /* The threshold: softplus_batched, the cheapest kernel, around it. */
  for (size_t m = 4096; m <= 262144 && m <= n; m *= 2) {
    char name[64];
    snprintf(name, sizeof name, "softplus_batched n=%zu", m);
    c1.n = ck.n = m;
    double t1, tk;
    bd_bench_pair(sp_b, &c1, sp_b, &ck, reps * 20 + 1, NULL, NULL, &t1, &tk);
    bd_bench_row(group, name, t1, tk, m,
                 m < BD_PARALLEL_MIN_N ? "one thread" : "");
  }
  bd_set_num_threads(0);
  return bad;
}
