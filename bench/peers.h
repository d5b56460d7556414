/* Value + gradient per example with the operator-overloading peers
 * (bench/peers_*.cpp). Same outputs as bd_dual_* of models.h: shadows are
 * assigned; for bs_call, d_K and d_r are sums over the batch. */
#ifndef BD_BENCH_PEERS_H
#define BD_BENCH_PEERS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BD_PEER_DECLS(P)                                                       \
  void bd_##P##_bs_call(size_t n, const double *S, double K, double r,         \
                        const double *sigma, const double *T, double *ret,     \
                        double *d_S, double *d_K, double *d_r,                 \
                        double *d_sigma, double *d_T);                         \
  void bd_##P##_lognormal_nll(size_t n, const double *x, const double *mu,     \
                              const double *sigma, double *ret, double *d_x,   \
                              double *d_mu, double *d_sigma);
BD_PEER_DECLS(ceres) /* ceres::Jet<double, N>, forward mode */
BD_PEER_DECLS(adolc) /* ADOL-C tape: zos_forward + fos_reverse per example */
BD_PEER_DECLS(adtl)  /* ADOL-C tapeless forward mode (adtl::adouble) */
#undef BD_PEER_DECLS

#ifdef __cplusplus
}
#endif

#endif
