/* The functions the benchmarks measure (bench/models.c, compiled with the
 * batchdiff plugin at -O3 -march=native), their generated batched and
 * gradient versions, and the baselines compiled in the same file: the plain
 * loop a user would write over the scalar function, and scalar forward mode
 * with hand-written dual numbers. */
#ifndef BD_BENCH_MODELS_H
#define BD_BENCH_MODELS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- float, math-heavy ---- */
float logistic_loss(float z, float y); /* expf, log1pf */
void logistic_loss_batched(size_t n, const float *z, const float *y,
                           float *ret);
void logistic_loss_grad(size_t n, const float *z, const float *y, float *ret,
                        const float *d_ret, float *d_z, float *d_y);
float gelu(float x); /* tanhf */
void gelu_batched(size_t n, const float *x, float *ret);
void gelu_grad(size_t n, const float *x, float *ret, const float *d_ret,
               float *d_x);
float softplus(float x); /* expf, log1pf, a rarely divergent branch */
void softplus_batched(size_t n, const float *x, float *ret);
void softplus_grad(size_t n, const float *x, float *ret, const float *d_ret,
                   float *d_x);
/* three paths (expf / polynomial / logf*sqrtf) chosen per example */
float piecewise(float x);
void piecewise_batched(size_t n, const float *x, float *ret);
void piecewise_grad(size_t n, const float *x, float *ret, const float *d_ret,
                    float *d_x);

/* ---- double ---- */
/* bisection over a small file-scope table of knots, then a lerp */
double interp_knots(double t);
void interp_knots_batched(size_t n, const double *t, double *ret);
void interp_knots_grad(size_t n, const double *t, double *ret,
                       const double *d_ret, double *d_t);
double bs_call(double S, double K, double r, double sigma, double T);
void bs_call_batched(size_t n, const double *S, double K, double r,
                     const double *sigma, const double *T, double *ret);
void bs_call_grad(size_t n, const double *S, double K, double r,
                  const double *sigma, const double *T, double *ret,
                  const double *d_ret, double *d_S, double *d_K, double *d_r,
                  double *d_sigma, double *d_T);
void bs_call_hvp(size_t n, const double *S, double K, double r,
                 const double *sigma, const double *T, const double *t_S,
                 const double *t_K, const double *t_r, const double *t_sigma,
                 const double *t_T, double *ret, const double *d_ret,
                 double *d_S, double *d_K, double *d_r, double *d_sigma,
                 double *d_T, double *h_S, double *h_K, double *h_r,
                 double *h_sigma, double *h_T);
/* reprojection residual, 9 inputs; with NAME_jvp (forward mode) */
double reproj(double a0, double a1, double a2, double t0, double t1, double t2,
              double X, double Y, double Z, double f, double k1);
void reproj_batched(size_t n, const double *a0, const double *a1,
                    const double *a2, const double *t0, const double *t1,
                    const double *t2, const double *X, const double *Y,
                    const double *Z, double f, double k1, double *ret);
void reproj_grad(size_t n, const double *a0, const double *a1,
                 const double *a2, const double *t0, const double *t1,
                 const double *t2, const double *X, const double *Y,
                 const double *Z, double f, double k1, double *ret,
                 const double *d_ret, double *d_a0, double *d_a1, double *d_a2,
                 double *d_t0, double *d_t1, double *d_t2, double *d_X,
                 double *d_Y, double *d_Z);
void reproj_jvp(size_t n, const double *a0, const double *a1, const double *a2,
                const double *t0, const double *t1, const double *t2,
                const double *X, const double *Y, const double *Z, double f,
                double k1, const double *t_a0, const double *t_a1,
                const double *t_a2, const double *t_t0, const double *t_t1,
                const double *t_t2, const double *t_X, const double *t_Y,
                const double *t_Z, double *ret, double *d_ret);
void reproj_hvp(size_t n, const double *a0, const double *a1, const double *a2,
                const double *t0, const double *t1, const double *t2,
                const double *X, const double *Y, const double *Z, double f,
                double k1, const double *t_a0, const double *t_a1,
                const double *t_a2, const double *t_t0, const double *t_t1,
                const double *t_t2, const double *t_X, const double *t_Y,
                const double *t_Z, double *ret, const double *d_ret,
                double *d_a0, double *d_a1, double *d_a2, double *d_t0,
                double *d_t1, double *d_t2, double *d_X, double *d_Y,
                double *d_Z, double *h_a0, double *h_a1, double *h_a2,
                double *h_t0, double *h_t1, double *h_t2, double *h_X,
                double *h_Y, double *h_Z);
double softplus_d(double x); /* exp, log1p, a rarely divergent branch */
void softplus_d_batched(size_t n, const double *x, double *ret);
void softplus_d_grad(size_t n, const double *x, double *ret,
                     const double *d_ret, double *d_x);
double lognormal_nll(double x, double mu, double sigma); /* log, log */
void lognormal_nll_batched(size_t n, const double *x, const double *mu,
                           const double *sigma, double *ret);
void lognormal_nll_grad(size_t n, const double *x, const double *mu,
                        const double *sigma, double *ret, const double *d_ret,
                        double *d_x, double *d_mu, double *d_sigma);

/* ---- ragged: example b runs n[b] tanhf steps over its own x ---- */
float rnn_ragged(const float *x, int n, float w, float u);
void rnn_ragged_batched(size_t n_, const float *x, ptrdiff_t x_stride,
                        const int *n, float w, float u, float *ret);
void rnn_ragged_grad(size_t n_, const float *x, ptrdiff_t x_stride,
                     const int *n, float w, float u, float *ret,
                     const float *d_ret, float *d_x, ptrdiff_t d_x_stride,
                     float *d_w, float *d_u);
void rnn_ragged_hvp(size_t n_, const float *x, ptrdiff_t x_stride,
                    const int *n, float w, float u, const float *t_x,
                    ptrdiff_t t_x_stride, const float *t_w, const float *t_u,
                    float *ret, const float *d_ret, float *d_x,
                    ptrdiff_t d_x_stride, float *d_w, float *d_u, float *h_x,
                    ptrdiff_t h_x_stride, float *h_w, float *h_u);

/* ---- bench_chains: divergent exits and Newton loops ---- */
float ray_sphere(float ox, float oy, float oz, float dx, float dy, float dz,
                 float r);
void ray_sphere_batched(size_t n, const float *ox, const float *oy,
                        const float *oz, const float *dx, const float *dy,
                        const float *dz, float r, float *ret);
double ncbrt(double a);
void ncbrt_batched(size_t n, const double *a, double *ret);
void ncbrt_grad(size_t n, const double *a, double *ret, const double *d_ret,
                double *d_a);
double implied_vol(double price, double S, double K, double r, double T);
void implied_vol_batched(size_t n, const double *price, const double *S,
                         double K, double r, const double *T, double *ret);

/* ---- baselines: plain loops over the scalar functions ---- */
void bd_loop_ray_sphere(size_t n, const float *ox, const float *oy,
                        const float *oz, const float *dx, const float *dy,
                        const float *dz, float r, float *ret);
void bd_loop_ncbrt(size_t n, const double *a, double *ret);
void bd_loop_implied_vol(size_t n, const double *price, const double *S,
                         double K, double r, const double *T, double *ret);
void bd_loop_rnn_ragged(size_t nb, const float *x, ptrdiff_t x_stride,
                        const int *n, float w, float u, float *ret);
/* The Black-Scholes price implied_vol inverts (for making inputs). */
double bd_bs_price_scalar(double S, double K, double r, double sig, double T);
void bd_loop_logistic_loss(size_t n, const float *z, const float *y,
                           float *ret);
void bd_loop_gelu(size_t n, const float *x, float *ret);
void bd_loop_softplus(size_t n, const float *x, float *ret);
void bd_loop_piecewise(size_t n, const float *x, float *ret);
void bd_loop_interp_knots(size_t n, const double *t, double *ret);
void bd_loop_bs_call(size_t n, const double *S, double K, double r,
                     const double *sigma, const double *T, double *ret);
void bd_loop_lognormal_nll(size_t n, const double *x, const double *mu,
                           const double *sigma, double *ret);
void bd_loop_softplus_d(size_t n, const double *x, double *ret);
double pow_d(double x, double y); /* pow */
float pow_f(float x, float y);    /* powf */
void pow_f_batched(size_t n, const float *x, const float *y, float *ret);
void bd_loop_pow_f(size_t n, const float *x, const float *y, float *ret);
void pow_d_batched(size_t n, const double *x, const double *y, double *ret);
/* binomial tree, two pows per node */
double amer_put(double S, double K, double r, double sigma, double T,
                int steps);
void amer_put_batched(size_t n, const double *S, double K, double r,
                      const double *sigma, const double *T, int steps,
                      double *ret);
void bd_loop_pow_d(size_t n, const double *x, const double *y, double *ret);
void bd_loop_amer_put(size_t n, const double *S, double K, double r,
                      const double *sigma, const double *T, int steps,
                      double *ret);

/* ---- references for the double kernels (models_ref.c, models_libmvec.c) --
 * bd_hand_*: hand-written with the runtime's vectors and inline math, every
 * lane through the whole formula (the limit for the generated code);
 * bd_libmvec_*: the scalar loops built with -fveclib=libmvec. */
void bd_hand_bs_call(size_t n, const double *S, double K, double r,
                     const double *sigma, const double *T, double *ret);
void bd_hand_lognormal_nll(size_t n, const double *x, const double *mu,
                           const double *sigma, double *ret);
void bd_libmvec_bs_call(size_t n, const double *S, double K, double r,
                        const double *sigma, const double *T, double *ret);
void bd_libmvec_lognormal_nll(size_t n, const double *x, const double *mu,
                              const double *sigma, double *ret);

/* ---- baselines: value + gradient with scalar dual numbers ----
 * Same outputs as the _grad functions with ret (d_K, d_r: batch sums), but
 * shadows are assigned, not incremented. */
void bd_dual_bs_call(size_t n, const double *S, double K, double r,
                     const double *sigma, const double *T, double *ret,
                     double *d_S, double *d_K, double *d_r, double *d_sigma,
                     double *d_T);
void bd_dual_lognormal_nll(size_t n, const double *x, const double *mu,
                           const double *sigma, double *ret, double *d_x,
                           double *d_mu, double *d_sigma);

#ifdef __cplusplus
}
#endif

#endif /* BD_BENCH_MODELS_H */
