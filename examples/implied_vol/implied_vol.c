/* Implied volatility by Newton's method: a loop whose trip count differs per
 * scenario, batched with execution masks and differentiated through the
 * iterations (d sigma / d price should equal 1 / vega at the solution).
 *
 * Usage: implied_vol [n]      (default 200000 scenarios) */
#define _POSIX_C_SOURCE 199309L /* clock_gettime */
#include <batchdiff.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static inline double bd_ncdf(double x) {
  return 0.5 * erfc(-x * 0.70710678118654752);
}

static inline double bd_price(double S, double K, double r, double sig,
                              double T) {
  double vol = sig * sqrt(T);
  double d1 = (log(S / K) + (r + 0.5 * sig * sig) * T) / vol;
  return S * bd_ncdf(d1) - K * exp(-r * T) * bd_ncdf(d1 - vol);
}

/* The volatility at which the Black-Scholes call price equals `price`. */
__attribute__((batch, diff)) double implied_vol(double price, double S,
                                                BD_UNIFORM double K,
                                                BD_UNIFORM double r, double T) {
  double sig = 0.3;
  for (int it = 0; it < 40; it++) {
    double diff = bd_price(S, K, r, sig, T) - price;
    if (fabs(diff) < 1e-13 * price)
      break;
    double vol = sig * sqrt(T);
    double d1 = (log(S / K) + (r + 0.5 * sig * sig) * T) / vol;
    double vega = S * sqrt(T) * exp(-0.5 * d1 * d1) * 0.39894228040143268;
    sig -= diff / vega;
    if (sig < 0.01)
      sig = 0.01;
  }
  return sig;
}

/* Iterations the scalar solver takes, to show the divergence. */
static int bd_iterations(double price, double S, double K, double r, double T) {
  double sig = 0.3;
  int it;
  for (it = 0; it < 40; it++) {
    double diff = bd_price(S, K, r, sig, T) - price;
    if (fabs(diff) < 1e-13 * price)
      break;
    double vol = sig * sqrt(T);
    double d1 = (log(S / K) + (r + 0.5 * sig * sig) * T) / vol;
    sig -= diff / (S * sqrt(T) * exp(-0.5 * d1 * d1) * 0.39894228040143268);
    if (sig < 0.01)
      sig = 0.01;
  }
  return it;
}

static double bd_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static int bd_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double bd_uniform(unsigned long long *s, double lo, double hi) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return lo + (hi - lo) * ((*s >> 11) * 0x1.0p-53);
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? (size_t)strtoull(argv[1], NULL, 10) : 200000;
  const double K = 100.0, r = 0.02;
  double *price = malloc(n * sizeof *price), *S = malloc(n * sizeof *S);
  double *T = malloc(n * sizeof *T), *sig = malloc(n * sizeof *sig);
  double *ref = malloc(n * sizeof *ref), *dp = calloc(n, sizeof *dp);
  double *out = malloc(n * sizeof *out), *dS = calloc(n, sizeof *dS);
  unsigned long long seed = 42;
  int hist[41] = {0};
  for (size_t i = 0; i < n; i++) {
    S[i] = bd_uniform(&seed, 80, 120);
    T[i] = bd_uniform(&seed, 0.25, 2.0);
    double true_sig = bd_uniform(&seed, 0.1, 0.6);
    price[i] = bd_price(S[i], K, r, true_sig, T[i]);
    hist[bd_iterations(price[i], S[i], K, r, T[i])]++;
  }
  printf("implied volatility by Newton's method, %zu scenarios\n", n);
  printf("iterations per scenario:");
  for (int k = 0; k <= 40; k++)
    if (hist[k])
      printf("  %d:%d", k, hist[k]);
  printf("\n");

  implied_vol_batched(n, price, S, K, r, T, sig);
  double maxerr = 0;
  for (size_t i = 0; i < n; i++) {
    ref[i] = implied_vol(price[i], S[i], K, r, T[i]);
    double e = fabs(sig[i] - ref[i]) / ref[i];
    maxerr = e > maxerr ? e : maxerr;
  }
  double dK = 0, dr = 0;
  implied_vol_grad(n, price, S, K, r, T, out, NULL, dp, dS, &dK, &dr, NULL);
  /* d sigma / d price = 1 / vega at the solution (implicit function). */
  double gerr = 0, fderr = 0;
  for (size_t i = 0; i < n; i++) {
    double vol = ref[i] * sqrt(T[i]);
    double d1 = (log(S[i] / K) + (r + 0.5 * ref[i] * ref[i]) * T[i]) / vol;
    double vega = S[i] * sqrt(T[i]) * exp(-0.5 * d1 * d1) * 0.39894228040143268;
    double e = fabs(dp[i] * vega - 1.0);
    gerr = e > gerr ? e : gerr;
    if (i < 2000) {
      double h = 1e-6 * price[i];
      double fd = (implied_vol(price[i] + h, S[i], K, r, T[i]) -
                   implied_vol(price[i] - h, S[i], K, r, T[i])) /
                  (2 * h);
      double e2 = fabs(fd - dp[i]) / (fabs(fd) + 1e-12);
      fderr = e2 > fderr ? e2 : fderr;
    }
  }
  printf("checks:\n");
  /* Vector math may differ from libm by an ulp, so a lane may stop one
   * Newton step earlier or later than the scalar loop: equal to the
   * solver's tolerance, not bit for bit. */
  printf("  implied_vol_batched vs scalar (rel.)          max %.2e  %s\n",
         maxerr, maxerr < 1e-9 ? "ok" : "FAIL");
  printf("  d sigma/d price vs 1/vega (rel.)              max %.2e  %s\n", gerr,
         gerr < 1e-6 ? "ok" : "FAIL");
  printf("  d sigma/d price vs central differences (rel.) max %.2e  %s\n",
         fderr, fderr < 1e-5 ? "ok" : "FAIL");

  enum { REPS = 7 };
  double ts[3][REPS];
  /* The scalar loop runs on one thread: so do the generated functions here
   * (from 32768 examples on they would use every CPU; docs/abi.md). */
  bd_set_num_threads(1);
  for (int k = 0; k < REPS; k++) {
    double t0 = bd_now();
    for (size_t i = 0; i < n; i++)
      ref[i] = implied_vol(price[i], S[i], K, r, T[i]);
    double t1 = bd_now();
    implied_vol_batched(n, price, S, K, r, T, sig);
    double t2 = bd_now();
    implied_vol_grad(n, price, S, K, r, T, out, NULL, dp, dS, &dK, &dr, NULL);
    double t3 = bd_now();
    ts[0][k] = t1 - t0;
    ts[1][k] = t2 - t1;
    ts[2][k] = t3 - t2;
  }
  for (int j = 0; j < 3; j++)
    qsort(ts[j], REPS, sizeof(double), bd_cmp);
  double ns = 1e9 / (double)n;
  printf("timings (1 thread, median of %d, ns per scenario): scalar loop %.1f, "
         "_batched %.1f, _grad %.1f\n",
         REPS, ts[0][REPS / 2] * ns, ts[1][REPS / 2] * ns,
         ts[2][REPS / 2] * ns);
  printf("  divergent-loop speedup over the scalar loop   %.2fx\n",
         ts[0][REPS / 2] / ts[1][REPS / 2]);
  printf("  gradient cost / batched cost                  %.2fx\n",
         ts[2][REPS / 2] / ts[1][REPS / 2]);
  int ok = maxerr < 1e-9 && gerr < 1e-6 && fderr < 1e-5;
  printf(ok ? "all checks passed\n" : "CHECKS FAILED\n");
  free(price), free(S), free(T), free(sig), free(ref), free(dp), free(out),
      free(dS);
  return ok ? 0 : 1;
}
