/* Black-Scholes European calls with batchdiff: one annotated scalar function,
 * and the plugin adds bs_call_batched (SIMD over scenarios) and bs_call_grad
 * (batched reverse-mode gradient) to this object file.
 *
 * Usage: blackscholes [n]     (n scenarios, default 1048576)
 *
 * The program checks the generated functions against the scalar function,
 * against a hand-written forward-mode (dual number) version, against central
 * finite differences and against the closed-form delta N(d1); it prints the
 * largest errors, writes price and delta against the spot for four
 * maturities to blackscholes.dat (`gnuplot plot.gp` draws blackscholes.png),
 * then a table of speed ratios measured in this process, on one thread and
 * on all. It exits with status 1 if any check fails. Timings are medians of
 * several repetitions; they are printed, never checked. */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <batchdiff.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- the model: ordinary C ----------------------------------------------- */

/* Price of a European call on spot S, strike K, rate r, volatility sigma,
 * time to expiry T (years). K and r are the same for the whole batch. */
__attribute__((batch, diff)) double bs_call(double S, BD_UNIFORM double K,
                                            BD_UNIFORM double r, double sigma,
                                            double T) {
  if (T <= 0.0) /* expired: intrinsic value */
    return fmax(S - K, 0.0);
  double vol = sigma * sqrt(T);
  double d1 = (log(S / K) + (r + 0.5 * sigma * sigma) * T) / vol;
  if (d1 < -9.0) /* deep out of the money: N(d1) < 1e-19 */
    return 0.0;
  double d2 = d1 - vol;
  double nd1 = 0.5 * erfc(-d1 * 0.70710678118654752);
  double nd2 = 0.5 * erfc(-d2 * 0.70710678118654752);
  return S * nd1 - K * exp(-r * T) * nd2;
}

/* A float loss: logistic loss of a margin z against a label y in {0, 1},
 * softplus written the numerically stable way (expf + log1pf per example). */
__attribute__((batch, diff)) float logistic_loss(float z, float y) {
  float m = z > 0.0f ? z : 0.0f;
  return m + log1pf(expf(-fabsf(z))) - y * z;
}

/* ---- which path an example takes (to keep finite differences off kinks) -- */

static int bd_path(double S, double K, double r, double sigma, double T) {
  if (T <= 0.0)
    return 0;
  double vol = sigma * sqrt(T);
  double d1 = (log(S / K) + (r + 0.5 * sigma * sigma) * T) / vol;
  return d1 < -9.0 ? 1 : 2;
}

/* ---- the peer: scalar forward mode with dual numbers --------------------- */

/* A value and its partials with respect to (S, K, r, sigma, T). */
enum { BD_ND = 5 };
typedef struct {
  double v, d[BD_ND];
} bd_dual;

static inline bd_dual bd_dconst(double v) {
  bd_dual r = {v, {0}};
  return r;
}
static inline bd_dual bd_dvar(double v, int i) {
  bd_dual r = bd_dconst(v);
  r.d[i] = 1.0;
  return r;
}
static inline bd_dual bd_dadd(bd_dual a, bd_dual b) {
  for (int i = 0; i < BD_ND; i++)
    a.d[i] += b.d[i];
  a.v += b.v;
  return a;
}
static inline bd_dual bd_dsub(bd_dual a, bd_dual b) {
  for (int i = 0; i < BD_ND; i++)
    a.d[i] -= b.d[i];
  a.v -= b.v;
  return a;
}
static inline bd_dual bd_dmul(bd_dual a, bd_dual b) {
  bd_dual r;
  r.v = a.v * b.v;
  for (int i = 0; i < BD_ND; i++)
    r.d[i] = a.d[i] * b.v + a.v * b.d[i];
  return r;
}
static inline bd_dual bd_ddiv(bd_dual a, bd_dual b) {
  bd_dual r;
  r.v = a.v / b.v;
  for (int i = 0; i < BD_ND; i++)
    r.d[i] = (a.d[i] - r.v * b.d[i]) / b.v;
  return r;
}
static inline bd_dual bd_dscale(bd_dual a, double s) {
  a.v *= s;
  for (int i = 0; i < BD_ND; i++)
    a.d[i] *= s;
  return a;
}
/* f(a) with f'(a) = df */
static inline bd_dual bd_dchain(bd_dual a, double f, double df) {
  a.v = f;
  for (int i = 0; i < BD_ND; i++)
    a.d[i] *= df;
  return a;
}
static inline bd_dual bd_dlog(bd_dual a) {
  return bd_dchain(a, log(a.v), 1.0 / a.v);
}
static inline bd_dual bd_dexp(bd_dual a) {
  double e = exp(a.v);
  return bd_dchain(a, e, e);
}
static inline bd_dual bd_dsqrt(bd_dual a) {
  double s = sqrt(a.v);
  return bd_dchain(a, s, 0.5 / s);
}
static inline bd_dual bd_derfc(bd_dual a) {
  return bd_dchain(a, erfc(a.v),
                   -1.1283791670955126 * exp(-a.v * a.v)); /* -2/sqrt(pi) */
}

/* bs_call in dual numbers: the code a user writes for value + gradient
 * without a tool. */
static bd_dual bd_bs_call_dual(double S_, double K_, double r_, double sigma_,
                               double T_) {
  bd_dual S = bd_dvar(S_, 0), K = bd_dvar(K_, 1), r = bd_dvar(r_, 2);
  bd_dual sigma = bd_dvar(sigma_, 3), T = bd_dvar(T_, 4);
  if (T.v <= 0.0) {
    bd_dual x = bd_dsub(S, K);
    return x.v > 0.0 ? x : bd_dconst(0.0);
  }
  bd_dual vol = bd_dmul(sigma, bd_dsqrt(T));
  bd_dual d1 = bd_ddiv(
      bd_dadd(bd_dlog(bd_ddiv(S, K)),
              bd_dmul(bd_dadd(r, bd_dscale(bd_dmul(sigma, sigma), 0.5)), T)),
      vol);
  if (d1.v < -9.0)
    return bd_dconst(0.0);
  bd_dual d2 = bd_dsub(d1, vol);
  bd_dual nd1 = bd_dscale(bd_derfc(bd_dscale(d1, -0.70710678118654752)), 0.5);
  bd_dual nd2 = bd_dscale(bd_derfc(bd_dscale(d2, -0.70710678118654752)), 0.5);
  bd_dual disc = bd_dexp(bd_dscale(bd_dmul(r, T), -1.0));
  return bd_dsub(bd_dmul(S, nd1), bd_dmul(bd_dmul(K, disc), nd2));
}

/* ---- scenarios --------------------------------------------------------- */

typedef struct {
  uint64_t s;
} bd_rng;

static double bd_uniform(bd_rng *g, double lo, double hi) {
  /* splitmix64 */
  uint64_t z = (g->s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return lo + (hi - lo) * (double)(z >> 11) * 0x1p-53;
}

typedef struct {
  size_t n;
  double K, r;
  double *S, *sigma, *T;          /* inputs */
  double *price, *ref;            /* batched and scalar results */
  double *dS, *dsigma, *dT;       /* gradient shadows */
  double *vS, *vsigma, *vT, *val; /* forward-mode results */
  float *z, *y, *loss, *lref, *dz;
} bd_scen;

static void *bd_alloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) {
    fprintf(stderr, "blackscholes: out of memory\n");
    exit(2);
  }
  return p;
}

static void bd_scen_init(bd_scen *c, size_t n) {
  double **d[] = {&c->S,      &c->sigma, &c->T,  &c->price,  &c->ref, &c->dS,
                  &c->dsigma, &c->dT,    &c->vS, &c->vsigma, &c->vT,  &c->val};
  float **f[] = {&c->z, &c->y, &c->loss, &c->lref, &c->dz};
  c->n = n;
  for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
    *d[i] = bd_alloc(n, sizeof(double));
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
    *f[i] = bd_alloc(n, sizeof(float));
  c->K = 100.0;
  c->r = 0.03;
  bd_rng g = {20240917};
  for (size_t i = 0; i < n; i++) {
    c->S[i] = bd_uniform(&g, 40.0, 160.0);
    c->sigma[i] = bd_uniform(&g, 0.05, 0.6);
    /* about 3% expired (T <= 0), a few % deep out of the money */
    c->T[i] = bd_uniform(&g, -0.06, 2.0);
    c->z[i] = (float)bd_uniform(&g, -12.0, 12.0);
    c->y[i] = bd_uniform(&g, 0.0, 1.0) < 0.5 ? 0.0f : 1.0f;
  }
}

static void bd_scen_free(bd_scen *c) {
  double *d[] = {c->S,      c->sigma, c->T,  c->price,  c->ref, c->dS,
                 c->dsigma, c->dT,    c->vS, c->vsigma, c->vT,  c->val};
  float *f[] = {c->z, c->y, c->loss, c->lref, c->dz};
  for (size_t i = 0; i < sizeof d / sizeof d[0]; i++)
    free(d[i]);
  for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
    free(f[i]);
}

/* ---- the loops a user would write (baselines) ---------------------------- */
/* Plain loops calling the scalar functions, compiled in this file with the
 * same flags; clang may inline and vectorize them if it can. noinline only
 * keeps each timed call a real call with real stores. */

__attribute__((noinline)) static void bd_loop_bs(const bd_scen *c,
                                                 double *out) {
  for (size_t i = 0; i < c->n; i++)
    out[i] = bs_call(c->S[i], c->K, c->r, c->sigma[i], c->T[i]);
}

__attribute__((noinline)) static void bd_loop_dual(const bd_scen *c, double *dK,
                                                   double *dr) {
  double sk = 0.0, sr = 0.0;
  for (size_t i = 0; i < c->n; i++) {
    bd_dual p = bd_bs_call_dual(c->S[i], c->K, c->r, c->sigma[i], c->T[i]);
    c->val[i] = p.v;
    c->vS[i] = p.d[0];
    sk += p.d[1];
    sr += p.d[2];
    c->vsigma[i] = p.d[3];
    c->vT[i] = p.d[4];
  }
  *dK = sk;
  *dr = sr;
}

__attribute__((noinline)) static void bd_loop_loss(const bd_scen *c,
                                                   float *out) {
  for (size_t i = 0; i < c->n; i++)
    out[i] = logistic_loss(c->z[i], c->y[i]);
}

/* ---- timing -------------------------------------------------------------- */

enum { BD_REPS = 7 };

static double bd_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int bd_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double bd_median(double *t, int k) {
  qsort(t, (size_t)k, sizeof t[0], bd_cmp_double);
  return t[k / 2];
}

typedef enum {
  BD_T_SCALAR,
  BD_T_BATCHED,
  BD_T_GRAD,
  BD_T_VALGRAD,
  BD_T_DUAL,
  BD_T_FSCALAR,
  BD_T_FBATCHED,
  BD_T_FGRAD,
  BD_T_COUNT
} bd_timer;

/* One run of the timed operation `which` on scenarios c. */
static void bd_run(bd_scen *c, bd_timer which) {
  size_t n = c->n;
  double dK = 0.0, dr = 0.0;
  switch (which) {
  case BD_T_SCALAR:
    bd_loop_bs(c, c->ref);
    break;
  case BD_T_BATCHED:
    bs_call_batched(n, c->S, c->K, c->r, c->sigma, c->T, c->price);
    break;
  case BD_T_GRAD:
    bs_call_grad(n, c->S, c->K, c->r, c->sigma, c->T, NULL, NULL, c->dS, &dK,
                 &dr, c->dsigma, c->dT);
    break;
  case BD_T_VALGRAD:
    bs_call_grad(n, c->S, c->K, c->r, c->sigma, c->T, c->price, NULL, c->dS,
                 &dK, &dr, c->dsigma, c->dT);
    break;
  case BD_T_DUAL:
    bd_loop_dual(c, &dK, &dr);
    break;
  case BD_T_FSCALAR:
    bd_loop_loss(c, c->lref);
    break;
  case BD_T_FBATCHED:
    logistic_loss_batched(n, c->z, c->y, c->loss);
    break;
  case BD_T_FGRAD:
    logistic_loss_grad(n, c->z, c->y, NULL, NULL, c->dz, NULL);
    break;
  default:
    break;
  }
}

/* Median seconds of BD_REPS runs; shadows are zeroed outside the clock. */
static double bd_time(bd_scen *c, bd_timer which) {
  double t[BD_REPS];
  for (int k = 0; k < BD_REPS; k++) {
    memset(c->dS, 0, c->n * sizeof(double));
    memset(c->dsigma, 0, c->n * sizeof(double));
    memset(c->dT, 0, c->n * sizeof(double));
    memset(c->dz, 0, c->n * sizeof(float));
    double t0 = bd_now();
    bd_run(c, which);
    t[k] = bd_now() - t0;
  }
  return bd_median(t, BD_REPS);
}

/* ---- checks -------------------------------------------------------------- */

static double bd_rel(double a, double b, double scale) {
  return fabs(a - b) / (fabs(b) + scale);
}

/* Largest error of each kind; a check fails when one exceeds its tolerance. */
typedef struct {
  double price, fwd, fd, delta, uniform, loss, dloss;
} bd_errs;

static int bd_check(bd_scen *c, bd_errs *e) {
  size_t n = c->n;
  memset(e, 0, sizeof *e);
  bs_call_batched(n, c->S, c->K, c->r, c->sigma, c->T, c->price);
  bd_loop_bs(c, c->ref);
  for (size_t i = 0; i < n; i++) /* prices are O(S): relative to S */
    e->price = fmax(e->price, bd_rel(c->price[i], c->ref[i], c->S[i]));

  /* the gradient exactly as an application calls it */
  double dK = 0.0, dr = 0.0, fK, fr;
  memset(c->dS, 0, n * sizeof(double));
  memset(c->dsigma, 0, n * sizeof(double));
  memset(c->dT, 0, n * sizeof(double));
  bs_call_grad(n, c->S, c->K, c->r, c->sigma, c->T, NULL, NULL, c->dS, &dK, &dr,
               c->dsigma, c->dT);
  bd_loop_dual(c, &fK, &fr);
  for (size_t i = 0; i < n; i++) {
    e->fwd = fmax(e->fwd, bd_rel(c->dS[i], c->vS[i], 1.0));
    e->fwd = fmax(e->fwd, bd_rel(c->dsigma[i], c->vsigma[i], c->S[i]));
    e->fwd = fmax(e->fwd, bd_rel(c->dT[i], c->vT[i], c->S[i]));
  }
  /* uniform shadows hold sums over the batch */
  e->uniform = fmax(bd_rel(dK, fK, (double)n), bd_rel(dr, fr, 100.0 * n));

  /* central differences on a sample, away from the branch points */
  size_t step = n / 2000 + 1;
  int nfd = 0;
  for (size_t i = 0; i < n; i += step) {
    double x[5] = {c->S[i], c->K, c->r, c->sigma[i], c->T[i]};
    double g[5] = {c->dS[i], fK, fr, c->dsigma[i], c->dT[i]};
    double sc[5] = {1.0, 1.0, c->S[i], c->S[i], c->S[i]};
    int p = bd_path(x[0], x[1], x[2], x[3], x[4]);
    for (int j = 0; j < 5; j++) {
      if (j == 1 || j == 2) /* uniform: per-example partial from dual */
        g[j] = bd_bs_call_dual(x[0], x[1], x[2], x[3], x[4]).d[j];
      double h = 1e-6 * fmax(fabs(x[j]), 1e-2), xp[5], xm[5];
      memcpy(xp, x, sizeof x);
      memcpy(xm, x, sizeof x);
      xp[j] += h;
      xm[j] -= h;
      if (bd_path(xp[0], xp[1], xp[2], xp[3], xp[4]) != p ||
          bd_path(xm[0], xm[1], xm[2], xm[3], xm[4]) != p ||
          (p == 0 && fabs(x[0] - x[1]) < 2 * h))
        continue;
      double fd = (bs_call(xp[0], xp[1], xp[2], xp[3], xp[4]) -
                   bs_call(xm[0], xm[1], xm[2], xm[3], xm[4])) /
                  (xp[j] - xm[j]);
      e->fd = fmax(e->fd, bd_rel(g[j], fd, sc[j]));
      nfd++;
    }
    if (p == 2) { /* closed form: delta = N(d1) */
      double vol = x[3] * sqrt(x[4]);
      double d1 = (log(x[0] / x[1]) + (x[2] + 0.5 * x[3] * x[3]) * x[4]) / vol;
      double nd1 = 0.5 * erfc(-d1 / sqrt(2.0));
      e->delta = fmax(e->delta, fabs(c->dS[i] - nd1));
    }
  }

  /* the float loss: batched against scalar, gradient against its formula
   * d/dz = sigmoid(z) - y */
  logistic_loss_batched(n, c->z, c->y, c->loss);
  bd_loop_loss(c, c->lref);
  memset(c->dz, 0, n * sizeof(float));
  logistic_loss_grad(n, c->z, c->y, NULL, NULL, c->dz, NULL);
  for (size_t i = 0; i < n; i++) {
    e->loss = fmax(e->loss, bd_rel(c->loss[i], c->lref[i], 1.0));
    double want = 1.0 / (1.0 + exp(-(double)c->z[i])) - c->y[i];
    e->dloss = fmax(e->dloss, fabs(c->dz[i] - want));
  }
  return nfd;
}

/* ---- price and delta against spot, for the picture ----------------------- */
/* One bs_call_grad call for all curves: example b is (S_b, sigma, T_b);
 * ret receives the prices, d_S the deltas (d_ret NULL: seed 1). Columns:
 * S, then price and delta for each maturity. Returns 1 if the deltas are
 * not monotone in S or the prices not convex-ish (a sanity check that can
 * fail), 0 otherwise. */
enum { BD_CURVE_S = 241, BD_CURVE_T = 4 };

static int bd_write_curves(const char *path, double K, double r) {
  static const double mat[BD_CURVE_T] = {0.0, 0.1, 0.5, 2.0};
  enum { N = BD_CURVE_S * BD_CURVE_T };
  double S[N], sigma[N], T[N], price[N], delta[N];
  for (int t = 0; t < BD_CURVE_T; t++)
    for (int i = 0; i < BD_CURVE_S; i++) {
      int b = t * BD_CURVE_S + i;
      S[b] = 40.0 + 0.5 * i;
      sigma[b] = 0.3;
      T[b] = mat[t];
      delta[b] = 0.0;
    }
  bs_call_grad(N, S, K, r, sigma, T, price, NULL, delta, NULL, NULL, NULL,
               NULL);
  int bad = 0;
  for (int b = 1; b < N; b++)
    if (b % BD_CURVE_S &&
        (delta[b] < delta[b - 1] - 1e-12 || price[b] < price[b - 1] - 1e-12))
      bad = 1; /* a call's price and delta rise with the spot */
  FILE *f = fopen(path, "w");
  if (!f) {
    fprintf(stderr, "blackscholes: cannot write %s\n", path);
    return 1;
  }
  fprintf(f, "# K = %g, r = %g, sigma = 0.3; per maturity T:", K, r);
  for (int t = 0; t < BD_CURVE_T; t++)
    fprintf(f, " %g", mat[t]);
  fprintf(f, "\n# S then (price, delta from bs_call_grad) per maturity\n");
  for (int i = 0; i < BD_CURVE_S; i++) {
    fprintf(f, "%g", S[i]);
    for (int t = 0; t < BD_CURVE_T; t++)
      fprintf(f, " %.12g %.12g", price[t * BD_CURVE_S + i],
              delta[t * BD_CURVE_S + i]);
    fprintf(f, "\n");
  }
  fclose(f);
  printf("\nprice and delta against spot (%d maturities, one bs_call_grad "
         "call): %s, wrote %s\n",
         BD_CURVE_T, bad ? "FAIL (not monotone)" : "monotone, ok", path);
  return bad;
}

/* ---- the speed table ----------------------------------------------------- */

static void bd_print_table(size_t n, int threads, const double *t1,
                           const double *tk) {
  static const struct {
    const char *what;
    bd_timer t, base;
  } row[] = {
      {"bs_call, scalar loop", BD_T_SCALAR, BD_T_SCALAR},
      {"bs_call_batched", BD_T_BATCHED, BD_T_SCALAR},
      {"bs_call_grad (gradient only)", BD_T_GRAD, BD_T_SCALAR},
      {"bs_call_grad (value + gradient)", BD_T_VALGRAD, BD_T_SCALAR},
      {"dual-number loop (value + gradient)", BD_T_DUAL, BD_T_SCALAR},
      {"logistic_loss (float), scalar loop", BD_T_FSCALAR, BD_T_FSCALAR},
      {"logistic_loss_batched", BD_T_FBATCHED, BD_T_FSCALAR},
      {"logistic_loss_grad", BD_T_FGRAD, BD_T_FSCALAR},
  };
  double ns = 1e9 / (double)n;
  printf("\ntimings: ns per example, median of %d runs of %zu examples; "
         "x = scalar loop / this\n",
         BD_REPS, n);
  char thr[32];
  snprintf(thr, sizeof thr, "%d thread%s", threads, threads == 1 ? "" : "s");
  printf("  %-38s %19s %19s\n", "", "1 thread", thr);
  printf("  %-38s %10s %8s %10s %8s\n", "", "ns", "speedup", "ns", "speedup");
  for (size_t i = 0; i < sizeof row / sizeof row[0]; i++) {
    bd_timer t = row[i].t, b = row[i].base;
    int serial = t == BD_T_SCALAR || t == BD_T_DUAL || t == BD_T_FSCALAR;
    printf("  %-38s %10.2f %7.2fx", row[i].what, t1[t] * ns, t1[b] / t1[t]);
    if (serial)
      printf(" %10s %8s\n", "-", "-");
    else
      printf(" %10.2f %7.2fx\n", tk[t] * ns, t1[b] / tk[t]);
  }
  printf("  gradient cost / batched cost (1 thread): bs_call %.2fx, "
         "logistic_loss %.2fx\n",
         t1[BD_T_GRAD] / t1[BD_T_BATCHED], t1[BD_T_FGRAD] / t1[BD_T_FBATCHED]);
  printf("  value + gradient, speedup over dual numbers (1 thread): %.2fx\n",
         t1[BD_T_DUAL] / t1[BD_T_VALGRAD]);
}

/* ---- main ---------------------------------------------------------------- */

int main(int argc, char **argv) {
  size_t n = 1u << 20;
  if (argc > 1) {
    char *end;
    unsigned long long v = strtoull(argv[1], &end, 10);
    if (*end || v == 0) {
      fprintf(stderr, "usage: %s [n]   (n > 0 scenarios)\n", argv[0]);
      return 2;
    }
    n = (size_t)v;
  }
  bd_scen c;
  bd_scen_init(&c, n);

  size_t counts[3] = {0, 0, 0};
  for (size_t i = 0; i < n; i++)
    counts[bd_path(c.S[i], c.K, c.r, c.sigma[i], c.T[i])]++;
  printf("batchdiff Black-Scholes demo: %zu scenarios, K = %g, r = %g\n", n,
         c.K, c.r);
  printf("paths: %zu expired (T <= 0), %zu deep out of the money, %zu priced"
         "\n\n",
         counts[0], counts[1], counts[2]);

  bd_errs e;
  int nfd = bd_check(&c, &e);

  printf("%8s %8s %6s %6s  %-12s %-12s  %-10s %-10s\n", "S", "sigma", "T",
         "path", "bs_call", "_batched", "dS (grad)", "N(d1)");
  for (size_t i = 0; i < n && i < 6; i++) {
    int p = bd_path(c.S[i], c.K, c.r, c.sigma[i], c.T[i]);
    double vol = c.sigma[i] * sqrt(c.T[i]);
    double d1 =
        (log(c.S[i] / c.K) + (c.r + 0.5 * c.sigma[i] * c.sigma[i]) * c.T[i]) /
        vol;
    printf("%8.3f %8.4f %6.3f %6s  %-12.6f %-12.6f  %-10.6f ", c.S[i],
           c.sigma[i], c.T[i],
           p == 0   ? "exp"
           : p == 1 ? "otm"
                    : "bs",
           c.ref[i], c.price[i], c.dS[i]);
    if (p == 2)
      printf("%-10.6f\n", 0.5 * erfc(-d1 / sqrt(2.0)));
    else
      printf("%-10s\n", "-");
  }

  /* Tolerances: the vector math (SLEEF) is within 1-1.5 ULP of libm per call;
   * a price goes through a handful of calls and a cancellation of O(S)
   * terms, hence errors relative to S. Finite differences with h = 1e-6|x|
   * are good to ~1e-7. */
  struct {
    const char *what;
    double err, tol;
  } chk[] = {
      {"bs_call_batched vs bs_call          (rel. to S)", e.price, 1e-13},
      {"bs_call_grad vs forward-mode duals  (rel.)", e.fwd, 1e-11},
      {"bs_call_grad dK, dr (batch sums) vs duals", e.uniform, 1e-11},
      {"bs_call_grad vs central differences (rel.)", e.fd, 1e-5},
      {"bs_call_grad dS vs closed-form N(d1) (abs.)", e.delta, 1e-12},
      {"logistic_loss_batched vs scalar     (rel.)", e.loss, 1e-6},
      {"logistic_loss_grad vs sigmoid(z)-y  (abs.)", e.dloss, 1e-6},
  };
  int bad = 0;
  printf("\nchecks (%d finite-difference partials):\n", nfd);
  for (size_t k = 0; k < sizeof chk / sizeof chk[0]; k++) {
    int ok = chk[k].err <= chk[k].tol; /* NaN fails */
    bad += !ok;
    printf("  %-48s max err %.2e  (tol %.0e)  %s\n", chk[k].what, chk[k].err,
           chk[k].tol, ok ? "ok" : "FAIL");
  }

  if (bd_write_curves("blackscholes.dat", c.K, c.r))
    bad++;

  /* The scalar and dual-number loops run on one thread; the generated
   * functions cut batches of 32768 or more into chunks on a thread pool
   * (docs/abi.md, "Threads"). The table shows them on one thread (the SIMD
   * speedup) and on every thread the process may use. */
  double t1[BD_T_COUNT], tk[BD_T_COUNT];
  int threads = bd_get_num_threads();
  bd_set_num_threads(1);
  for (int k = 0; k < BD_T_COUNT; k++)
    t1[k] = bd_time(&c, (bd_timer)k);
  bd_set_num_threads(0);
  for (int k = 0; k < BD_T_COUNT; k++)
    tk[k] = k == BD_T_SCALAR || k == BD_T_DUAL || k == BD_T_FSCALAR
                ? t1[k]
                : bd_time(&c, (bd_timer)k);
  bd_print_table(n, threads, t1, tk);
  if (n < 100000)
    printf("(n = %zu is small: timings are noisy)\n", n);

  bd_scen_free(&c);
  printf("\n%s\n", bad ? "FAILED: results disagree beyond tolerance"
                       : "all checks passed");
  return bad ? 1 : 0;
}
