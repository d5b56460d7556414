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

/* The reprojection residual (bench_jvp) with Ceres jets: in[0..8] are the
 * nine inputs (n values each). jvp: one Jet<double, 1> pass per example
 * along the direction v[0..8], d_ret[i] its derivative. jac: one
 * Jet<double, 9> pass per example, J[j][i] = d ret / d input j. */
void bd_ceres_reproj_jvp(size_t n, const double *const *in, double f,
                         double k1, const double *const *v, double *ret,
                         double *d_ret);
void bd_ceres_reproj_jac(size_t n, const double *const *in, double f,
                         double k1, double *ret, double *const *J);

#ifdef __cplusplus
}
#endif

#endif
