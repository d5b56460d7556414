/* (e) value + gradient per example: NAME_grad (with ret) against the same
 * computation with scalar forward mode (hand-written dual numbers, Ceres
 * jets, ADOL-C tapeless) and with ADOL-C's tape (reverse mode), each in a
 * plain loop over the examples. Peers that were not found at configure time
 * are left out (BD_HAVE_CERES, BD_HAVE_ADOLC, BD_HAVE_ADTL).
 * Usage: bench_peers [n] [reps] [pool]
 * Each timed run covers the next n examples of a pool (see bench_util.h). */
#include "bench_util.h"
#include "models.h"
#include "peers.h"

#include <math.h>
#include <string.h>

typedef void (*bs_fn)(size_t, const double *, double, double, const double *,
                      const double *, double *, double *, double *, double *,
                      double *, double *);
typedef void (*ln_fn)(size_t, const double *, const double *, const double *,
                      double *, double *, double *, double *);

typedef struct {
  size_t n, off;
  double K, r, dK, dr;
  double *in[3], *ret, *d[3];
  bs_fn bs;
  ln_fn ln;
} ctx_t;

#define BD_CTX(v) ctx_t *c = (ctx_t *)(v)
#define IN(j) (c->in[j] + c->off)
#define D(j) (c->d[j] + c->off)
#define RET (c->ret + c->off)
static void ours_bs(void *v) {
  BD_CTX(v);
  c->dK = c->dr = 0.0; /* batchdiff increments shadows */
  bs_call_grad(c->n, IN(0), c->K, c->r, IN(1), IN(2), RET, NULL, D(0), &c->dK,
               &c->dr, D(1), D(2));
}
static void peer_bs(void *v) {
  BD_CTX(v);
  c->bs(c->n, IN(0), c->K, c->r, IN(1), IN(2), RET, D(0), &c->dK, &c->dr, D(1),
        D(2));
}
static void ours_ln(void *v) {
  BD_CTX(v);
  lognormal_nll_grad(c->n, IN(0), IN(1), IN(2), RET, NULL, D(0), D(1), D(2));
}
static void peer_ln(void *v) {
  BD_CTX(v);
  c->ln(c->n, IN(0), IN(1), IN(2), RET, D(0), D(1), D(2));
}

/* Both sides advance through the pool together. */
typedef struct {
  ctx_t *a, *b;
  size_t n, pool;
} slices2_t;
static void next2(void *v) {
  slices2_t *s = (slices2_t *)v;
  size_t off = s->a->off + s->n;
  if (off + s->n > s->pool)
    off = 0;
  s->a->off = s->b->off = off;
}

typedef struct {
  const char *name;
  bs_fn bs;
  ln_fn ln;
} peer_t;

/* Largest difference between the outputs of two runs (relative to
 * max(|value|, scale)). */
static double diff(const ctx_t *a, const ctx_t *b, double scale) {
  double e = bd_bench_maxrel_d(a->ret, b->ret, a->n, scale);
  for (int j = 0; j < 3; j++)
    e = fmax(e, bd_bench_maxrel_d(a->d[j], b->d[j], a->n, scale));
  return e;
}

int main(int argc, char **argv) {
  size_t n = 1u << 12, pool = 1u << 17;
  int reps = 51, bad = 0;
  bd_bench_args(argc, argv, &n, &reps, &pool);
  peer_t peers[] = {
      {"C dual numbers", bd_dual_bs_call, bd_dual_lognormal_nll},
#ifdef BD_HAVE_CERES
      {"Ceres Jet<double,N>", bd_ceres_bs_call, bd_ceres_lognormal_nll},
#endif
#ifdef BD_HAVE_ADTL
      {"ADOL-C tapeless", bd_adtl_bs_call, bd_adtl_lognormal_nll},
#endif
#ifdef BD_HAVE_ADOLC
      {"ADOL-C tape (reverse)", bd_adolc_bs_call, bd_adolc_lognormal_nll},
#endif
  };
  size_t np = sizeof peers / sizeof peers[0];
  ctx_t ours, peer, ref;
  memset(&ours, 0, sizeof ours);
  ours.n = pool; /* checks run on the whole pool */
  ours.K = 100.0;
  ours.r = 0.03;
  for (int j = 0; j < 3; j++) {
    ours.in[j] = bd_bench_alloc(pool, 8);
    ours.d[j] = bd_bench_alloc(pool, 8);
  }
  ours.ret = bd_bench_alloc(pool, 8);
  peer = ref = ours;
  peer.ret = bd_bench_alloc(pool, 8);
  ref.ret = bd_bench_alloc(pool, 8);
  for (int j = 0; j < 3; j++) {
    peer.d[j] = bd_bench_alloc(pool, 8);
    ref.d[j] = bd_bench_alloc(pool, 8);
  }
  printf("bench_peers: n = %zu per run (pool %zu), median of %d runs, %zu "
         "peer(s)\n", n, pool, reps, np);

  for (int model = 0; model < 2; model++) {
    bd_bench_rng g = {99};
    for (size_t i = 0; i < pool; i++) {
      if (model == 0) { /* S, sigma, T */
        ours.in[0][i] = bd_bench_uniform(&g, 40.0, 160.0);
        ours.in[1][i] = bd_bench_uniform(&g, 0.05, 0.6);
        ours.in[2][i] = bd_bench_uniform(&g, -0.06, 2.0);
      } else { /* x, mu, sigma */
        ours.in[0][i] = bd_bench_uniform(&g, 0.01, 50.0);
        ours.in[1][i] = bd_bench_uniform(&g, -1.0, 2.0);
        ours.in[2][i] = bd_bench_uniform(&g, 0.2, 3.0);
      }
    }
    void (*ours_fn)(void *) = model == 0 ? ours_bs : ours_ln;
    const char *mname = model == 0 ? "bs_call" : "lognormal_nll";
    /* batchdiff's results, kept in ref (shadows are incremented, so the
     * timed runs below keep adding to ours.d) */
    ours.n = peer.n = pool;
    ours.off = peer.off = 0;
    for (int j = 0; j < 3; j++)
      memset(ours.d[j], 0, pool * 8);
    ours_fn(&ours);
    memcpy(ref.ret, ours.ret, pool * 8);
    for (int j = 0; j < 3; j++)
      memcpy(ref.d[j], ours.d[j], pool * 8);
    ref.dK = ours.dK;
    ref.dr = ours.dr;
    for (size_t p = 0; p < np; p++) {
      peer.bs = peers[p].bs;
      peer.ln = peers[p].ln;
      void (*peer_fn)(void *) = model == 0 ? peer_bs : peer_ln;
      peer.n = ours.n = pool;
      peer.off = ours.off = 0;
      peer_fn(&peer);
      /* N(x) via erf in ADOL-C (no erfc) loses ~1e-16 absolute; prices and
       * gradients are compared relative to max(|value|, 100). */
      char what[96];
      snprintf(what, sizeof what, "%s vs %s", mname, peers[p].name);
      bad |= bd_bench_check(what, diff(&ref, &peer, model == 0 ? 100.0 : 1.0),
                            1e-11);
      if (model == 0)
        bad |= bd_bench_check("  uniform sums d_K, d_r",
                              fmax(fabs(ref.dK - peer.dK) / (fabs(peer.dK) + pool),
                                   fabs(ref.dr - peer.dr) / (fabs(peer.dr) + 100.0 * pool)),
                              1e-11);
      double t_peer, t_ours;
      slices2_t sl = {&peer, &ours, n, pool};
      peer.n = ours.n = n;
      bd_bench_pair(peer_fn, &peer, ours_fn, &ours, reps, next2, &sl, &t_peer,
                    &t_ours);
      char name[96];
      snprintf(name, sizeof name, "%s value+grad vs %s", mname, peers[p].name);
      bd_bench_row("e peers", name, t_peer, t_ours, n, "-");
    }
  }
  return bad;
}
