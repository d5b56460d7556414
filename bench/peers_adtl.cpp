// Peer: ADOL-C's tapeless forward mode (adtl::adouble), all partials in one
// pass; the number of directions is a process-wide setting in adtl.
#include "peers.h"

#include <adolc/adtl.h>

// adtl::adouble has erf but no erfc.
static adtl::adouble bd_adtl_ncdf(const adtl::adouble &x) {
  return 0.5 * (1.0 + erf(x * 0.70710678118654752));
}
#define bd_ncdf bd_adtl_ncdf
#include "peers_models.hpp"
#undef bd_ncdf

namespace {
adtl::adouble var(double v, int dir) {
  adtl::adouble a(v);
  a.setADValue(dir, 1.0);
  return a;
}
} // namespace

extern "C" void bd_adtl_bs_call(size_t n, const double *S, double K, double r,
                                const double *sigma, const double *T,
                                double *ret, double *d_S, double *d_K,
                                double *d_r, double *d_sigma, double *d_T) {
  adtl::setNumDir(5);
  double sk = 0.0, sr = 0.0;
  for (size_t i = 0; i < n; i++) {
    adtl::adouble p = bd_bs_call(var(S[i], 0), var(K, 1), var(r, 2),
                                 var(sigma[i], 3), var(T[i], 4));
    ret[i] = p.getValue();
    d_S[i] = p.getADValue(0);
    sk += p.getADValue(1);
    sr += p.getADValue(2);
    d_sigma[i] = p.getADValue(3);
    d_T[i] = p.getADValue(4);
  }
  *d_K = sk;
  *d_r = sr;
}

extern "C" void bd_adtl_lognormal_nll(size_t n, const double *x,
                                      const double *mu, const double *sigma,
                                      double *ret, double *d_x, double *d_mu,
                                      double *d_sigma) {
  adtl::setNumDir(3);
  for (size_t i = 0; i < n; i++) {
    adtl::adouble p =
        bd_lognormal_nll(var(x[i], 0), var(mu[i], 1), var(sigma[i], 2));
    ret[i] = p.getValue();
    d_x[i] = p.getADValue(0);
    d_mu[i] = p.getADValue(1);
    d_sigma[i] = p.getADValue(2);
  }
}
