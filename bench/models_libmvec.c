/* The scalar loops of models.c as clang vectorizes them with glibc's vector
 * math: -O3 -march=native -fveclib=libmvec -fno-math-errno, linked with
 * -lmvec. Same source as models.c's loops (the functions are copied here
 * without annotations). clang 19 maps log and exp to libmvec but not erfc,
 * and a call it cannot vectorize keeps the whole loop scalar: the bs_call
 * loop stays scalar (with -fno-math-errno); lognormal_nll's is vectorized
 * (_ZGVdN4v_log with AVX2). */
#include "models.h"

#include <math.h>

static double mv_bs_call(double S, double K, double r, double sigma, double T) {
  if (T <= 0.0)
    return fmax(S - K, 0.0);
  double vol = sigma * sqrt(T);
  double d1 = (log(S / K) + (r + 0.5 * sigma * sigma) * T) / vol;
  if (d1 < -9.0)
    return 0.0;
  double d2 = d1 - vol;
  double nd1 = 0.5 * erfc(-d1 * 0.70710678118654752);
  double nd2 = 0.5 * erfc(-d2 * 0.70710678118654752);
  return S * nd1 - K * exp(-r * T) * nd2;
}

static double mv_lognormal_nll(double x, double mu, double sigma) {
  double t = (log(x) - mu) / sigma;
  return 0.5 * t * t + log(sigma * x) + 0.91893853320467274;
}

void bd_libmvec_bs_call(size_t n, const double *S, double K, double r,
                        const double *sigma, const double *T, double *ret) {
  for (size_t i = 0; i < n; i++)
    ret[i] = mv_bs_call(S[i], K, r, sigma[i], T[i]);
}

void bd_libmvec_lognormal_nll(size_t n, const double *x, const double *mu,
                              const double *sigma, double *ret) {
  for (size_t i = 0; i < n; i++)
    ret[i] = mv_lognormal_nll(x[i], mu[i], sigma[i]);
}
