/* (j) forward mode: NAME_jvp of a small residual (bundle adjustment's
 * reprojection residual, nine inputs: models.c reproj) against Ceres jets,
 * the usual way to get Jacobians of such residuals in Gauss-Newton and
 * Levenberg-Marquardt solvers.
 *   - one directional derivative per example: reproj_jvp vs a loop of
 *     ceres::Jet<double, 1> (target >= 5x);
 *   - the whole Jacobian row per example: nine reproj_jvp calls (unit
 *     tangent in one input, NULL for the others), and reproj_grad (one
 *     reverse sweep; shadows zeroed first, in the timing), vs a loop of
 *     ceres::Jet<double, 9>;
 *   - cost rows: reproj_jvp and reproj_grad over reproj_batched.
 * Without Ceres (libceres-dev) only the cost rows are printed.
 * Usage: bench_jvp [n] [reps] [pool]; each run covers the next n examples
 * of the pool (bench_util.h). */
#include "bench_util.h"
#include "models.h"
#include "peers.h"

#include <math.h>
#include <string.h>

#define NIN 9
static const double F = 800.0, K1 = -0.05;

typedef struct {
  size_t n, off;
  double *in[NIN], *v[NIN], *ones, *ret, *dret, *J[NIN];
} ctx_t;

#define BD_CTX(v) ctx_t *c = (ctx_t *)(v)
#define IN(j) (c->in[j] + c->off)
#define V(j) (c->v[j] + c->off)

static void ours_batched(void *p) {
  BD_CTX(p);
  reproj_batched(c->n, IN(0), IN(1), IN(2), IN(3), IN(4), IN(5), IN(6), IN(7),
                 IN(8), F, K1, c->ret);
}
static void ours_jvp(void *p) {
  BD_CTX(p);
  reproj_jvp(c->n, IN(0), IN(1), IN(2), IN(3), IN(4), IN(5), IN(6), IN(7),
             IN(8), F, K1, V(0), V(1), V(2), V(3), V(4), V(5), V(6), V(7),
             V(8), c->ret, c->dret);
}
/* Column j of the Jacobian: unit tangent in input j, NULL elsewhere. */
static void ours_jac(void *p) {
  BD_CTX(p);
  for (int j = 0; j < NIN; j++) {
    const double *t[NIN] = {0};
    t[j] = c->ones;
    reproj_jvp(c->n, IN(0), IN(1), IN(2), IN(3), IN(4), IN(5), IN(6), IN(7),
               IN(8), F, K1, t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7],
               t[8], j == 0 ? c->ret : NULL, c->J[j]);
  }
}
static void ours_grad(void *p) {
  BD_CTX(p);
  for (int j = 0; j < NIN; j++)
    memset(c->J[j], 0, c->n * sizeof(double));
  reproj_grad(c->n, IN(0), IN(1), IN(2), IN(3), IN(4), IN(5), IN(6), IN(7),
              IN(8), F, K1, c->ret, NULL, c->J[0], c->J[1], c->J[2], c->J[3],
              c->J[4], c->J[5], c->J[6], c->J[7], c->J[8]);
}
#ifdef BD_HAVE_CERES
static void ceres_jvp(void *p) {
  BD_CTX(p);
  const double *in[NIN], *v[NIN];
  for (int j = 0; j < NIN; j++) {
    in[j] = IN(j);
    v[j] = V(j);
  }
  bd_ceres_reproj_jvp(c->n, in, F, K1, v, c->ret, c->dret);
}
static void ceres_jac(void *p) {
  BD_CTX(p);
  const double *in[NIN];
  for (int j = 0; j < NIN; j++)
    in[j] = IN(j);
  bd_ceres_reproj_jac(c->n, in, F, K1, c->ret, c->J);
}
#endif

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

static void outputs(ctx_t *c, size_t n) {
  c->ret = bd_bench_alloc(n, 8);
  c->dret = bd_bench_alloc(n, 8);
  for (int j = 0; j < NIN; j++)
    c->J[j] = bd_bench_alloc(n, 8);
}

/* Times a against b over slices of the pool; prints one row. */
static void row(const char *name, void (*fb)(void *), ctx_t *b,
                void (*fa)(void *), ctx_t *a, size_t n, size_t pool, int reps,
                int cost, const char *target) {
  slices2_t sl = {a, b, n, pool};
  double tb, ta;
  a->n = b->n = n;
  a->off = b->off = 0;
  bd_bench_pair(fb, b, fa, a, reps, next2, &sl, &tb, &ta);
  if (cost)
    bd_bench_cost_row("j forward", name, tb, ta, n, target);
  else
    bd_bench_row("j forward", name, tb, ta, n, target);
}

int main(int argc, char **argv) {
  size_t n = 1u << 12, pool = 1u << 16;
  int reps = 51, bad = 0;
  bd_bench_args(argc, argv, &n, &reps, &pool);
  ctx_t ours, ref;
  memset(&ours, 0, sizeof ours);
  bd_bench_rng g = {2024};
  for (int j = 0; j < NIN; j++) {
    ours.in[j] = bd_bench_alloc(pool, 8);
    ours.v[j] = bd_bench_alloc(pool, 8);
  }
  ours.ones = bd_bench_alloc(pool, 8);
  for (size_t i = 0; i < pool; i++) {
    /* One example in 64 without rotation: the th2 <= 1e-12 branch. */
    int still = i % 64 == 7;
    for (int j = 0; j < 3; j++)
      ours.in[j][i] = still ? 0.0 : bd_bench_uniform(&g, -0.3, 0.3);
    ours.in[3][i] = bd_bench_uniform(&g, -0.5, 0.5);
    ours.in[4][i] = bd_bench_uniform(&g, -0.5, 0.5);
    ours.in[5][i] = bd_bench_uniform(&g, 3.0, 5.0);
    ours.in[6][i] = bd_bench_uniform(&g, -1.0, 1.0);
    ours.in[7][i] = bd_bench_uniform(&g, -1.0, 1.0);
    ours.in[8][i] = bd_bench_uniform(&g, 3.0, 6.0);
    for (int j = 0; j < NIN; j++)
      ours.v[j][i] = bd_bench_uniform(&g, -1.0, 1.0);
    ours.ones[i] = 1.0;
  }
  ref = ours;
  outputs(&ours, pool);
  outputs(&ref, pool);
  printf("bench_jvp: reproj (9 inputs), n = %zu per run (pool %zu), median "
         "of %d runs\n",
         n, pool, reps);

  /* Checks on the whole pool: jvp against dot(Jacobian row, v) from
   * _grad, the 9-jvp Jacobian against _grad's (and Ceres's). */
  ours.n = ref.n = pool;
  ours_jvp(&ours);
  ours_grad(&ref);
  double e = 0;
  for (size_t i = 0; i < pool; i++) {
    double dot = 0, mag = 0;
    for (int j = 0; j < NIN; j++) {
      dot += ref.J[j][i] * ours.v[j][i];
      mag += fabs(ref.J[j][i] * ours.v[j][i]);
    }
    e = fmax(e, fabs(ours.dret[i] - dot) / (mag + 1e-300));
  }
  bad |= bd_bench_check("jvp vs dot(_grad, v) (rel. to sum |g v|)", e, 1e-13);
  ours_jac(&ours);
  e = 0;
  for (int j = 0; j < NIN; j++)
    e = fmax(e, bd_bench_maxrel_d(ours.J[j], ref.J[j], pool, 1.0));
  bad |= bd_bench_check("9 x jvp Jacobian vs _grad", e, 1e-12);
#ifdef BD_HAVE_CERES
  ceres_jac(&ref);
  e = 0;
  for (int j = 0; j < NIN; j++)
    e = fmax(e, bd_bench_maxrel_d(ours.J[j], ref.J[j], pool, 1.0));
  e = fmax(e, bd_bench_maxrel_d(ours.ret, ref.ret, pool, 1.0));
  bad |= bd_bench_check("9 x jvp Jacobian vs Ceres Jet<double,9>", e, 1e-12);
  ceres_jvp(&ref);
  ours_jvp(&ours);
  bad |= bd_bench_check("jvp vs Ceres Jet<double,1>",
                        bd_bench_maxrel_d(ours.dret, ref.dret, pool, 1.0),
                        1e-12);

  row("reproj jvp (1 direction) vs Ceres Jet<double,1>", ceres_jvp, &ref,
      ours_jvp, &ours, n, pool, reps, 0, ">=5");
  row("reproj Jacobian row: 9 x _jvp vs Ceres Jet<double,9>", ceres_jac, &ref,
      ours_jac, &ours, n, pool, reps, 0, "-");
  row("reproj Jacobian row: _grad vs Ceres Jet<double,9>", ceres_jac, &ref,
      ours_grad, &ours, n, pool, reps, 0, "-");
#else
  printf("bench_jvp: Ceres jets not found at configure time (libceres-dev): "
         "cost rows only\n");
#endif
  row("reproj _jvp cost vs _batched", ours_batched, &ref, ours_jvp, &ours, n,
      pool, reps, 1, "-");
  row("reproj _grad cost vs _batched", ours_batched, &ref, ours_grad, &ours, n,
      pool, reps, 1, "-");
  return bad;
}
