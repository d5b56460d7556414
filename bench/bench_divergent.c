/* (c) divergent branches: piecewise() takes one of three paths (expf /
 * polynomial / logf*sqrtf) per example. With shuffled inputs nearly every
 * vector holds all three paths, so the batched code runs all of them under
 * masks; with sorted inputs a vector takes one path.
 * Usage: bench_divergent [n] [reps] */
#include "bench_util.h"
#include "models.h"

#include <string.h>

typedef struct {
  size_t n;
  float *x, *out;
} ctx_t;

#define BD_CTX(v) ctx_t *c = (ctx_t *)(v)
static void loop_pw(void *v) { BD_CTX(v); bd_loop_piecewise(c->n, c->x, c->out); }
static void batch_pw(void *v) { BD_CTX(v); piecewise_batched(c->n, c->x, c->out); }

static int cmp_float(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  size_t n = 1u << 20;
  int reps = 11, bad = 0;
  bd_bench_args(argc, argv, &n, &reps);
  ctx_t c = {n, bd_bench_alloc(n, 4), bd_bench_alloc(n, 4)};
  float *ref = bd_bench_alloc(n, 4);
  bd_bench_rng g = {3};
  for (size_t i = 0; i < n; i++) /* about 1/3 of the examples on each path */
    c.x[i] = (float)bd_bench_uniform(&g, -4.0, 4.0);
  printf("bench_divergent: n = %zu, median of %d runs\n", n, reps);

  double t[2][2]; /* [shuffled, sorted][loop, batched] */
  for (int sorted = 0; sorted < 2; sorted++) {
    if (sorted)
      qsort(c.x, n, sizeof c.x[0], cmp_float);
    float *out = c.out;
    c.out = ref;
    loop_pw(&c);
    c.out = out;
    batch_pw(&c);
    bad |= bd_bench_check(sorted ? "piecewise (sorted)" : "piecewise (shuffled)",
                          bd_bench_maxrel_f(c.out, ref, n, 1.0), 1e-6);
    t[sorted][0] = bd_bench_time(loop_pw, &c, reps);
    t[sorted][1] = bd_bench_time(batch_pw, &c, reps);
  }
  bd_bench_row("c divergent", "piecewise, shuffled (3 paths per vector)",
               t[0][0], t[0][1], n, "-");
  bd_bench_row("c divergent", "piecewise, sorted (1 path per vector)",
               t[1][0], t[1][1], n, "-");
  bd_bench_cost_row("c divergent", "cost: batched shuffled / batched sorted",
                    t[1][1], t[0][1], n, "-");
  return bad;
}
