// Peer: Ceres Solver's jets (ceres/jet.h, header only): scalar forward mode
// with all partials in one pass, the usual way to use them.
#include "peers.h"
#include "peers_models.hpp"

#include <ceres/jet.h>

extern "C" void bd_ceres_bs_call(size_t n, const double *S, double K, double r,
                                 const double *sigma, const double *T,
                                 double *ret, double *d_S, double *d_K,
                                 double *d_r, double *d_sigma, double *d_T) {
  using J = ceres::Jet<double, 5>;
  double sk = 0.0, sr = 0.0;
  for (size_t i = 0; i < n; i++) {
    J p = bd_bs_call(J(S[i], 0), J(K, 1), J(r, 2), J(sigma[i], 3), J(T[i], 4));
    ret[i] = p.a;
    d_S[i] = p.v[0];
    sk += p.v[1];
    sr += p.v[2];
    d_sigma[i] = p.v[3];
    d_T[i] = p.v[4];
  }
  *d_K = sk;
  *d_r = sr;
}

extern "C" void bd_ceres_lognormal_nll(size_t n, const double *x,
                                       const double *mu, const double *sigma,
                                       double *ret, double *d_x, double *d_mu,
                                       double *d_sigma) {
  using J = ceres::Jet<double, 3>;
  for (size_t i = 0; i < n; i++) {
    J p = bd_lognormal_nll(J(x[i], 0), J(mu[i], 1), J(sigma[i], 2));
    ret[i] = p.a;
    d_x[i] = p.v[0];
    d_mu[i] = p.v[1];
    d_sigma[i] = p.v[2];
  }
}

extern "C" void bd_ceres_reproj_jvp(size_t n, const double *const *in,
                                    double f, double k1,
                                    const double *const *v, double *ret,
                                    double *d_ret) {
  using J = ceres::Jet<double, 1>;
  for (size_t i = 0; i < n; i++) {
    J x[9];
    for (int j = 0; j < 9; j++) {
      x[j].a = in[j][i];
      x[j].v[0] = v[j][i];
    }
    J p = bd_reproj(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], f,
                    k1);
    ret[i] = p.a;
    d_ret[i] = p.v[0];
  }
}

extern "C" void bd_ceres_reproj_jac(size_t n, const double *const *in,
                                    double f, double k1, double *ret,
                                    double *const *Jac) {
  using J = ceres::Jet<double, 9>;
  for (size_t i = 0; i < n; i++) {
    J x[9];
    for (int j = 0; j < 9; j++)
      x[j] = J(in[j][i], j);
    J p = bd_reproj(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], f,
                    k1);
    ret[i] = p.a;
    for (int j = 0; j < 9; j++)
      Jac[j][i] = p.v[j];
  }
}
