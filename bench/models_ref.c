/* Reference points for the double kernels (issue 7): the limit a hand
 * writer reaches with the same runtime (bd_ vectors and inline math, every
 * lane through the whole formula, results blended at the end), and the
 * scalar loop as clang vectorizes it with glibc's libmvec
 * (models_libmvec.c). Compiled without the plugin, -O3 -march=native. */
#include "models.h"

#include <batchdiff/batchdiff_rt.h>
#include <math.h>

/* bs_call for all lanes of one vector: log, sqrt, two erfc, exp for every
 * lane, then the two early returns as blends (sqrt and log of the lanes
 * that return early give NaNs that the blends discard). */
static inline __attribute__((always_inline)) bd_f64d
hand_bs_vec(bd_f64d s, double K, double r, bd_f64d sg, bd_f64d t) {
  const double c = 0.70710678118654752;
  bd_f64d vol = sg * bd_sqrt_f64d(t);
  bd_f64d d1 =
      (bd_log_f64d(s / K) + (r + 0.5 * sg * sg) * t) / vol; /* as in C */
  bd_f64d d2 = d1 - vol;
  bd_f64d nd1 = 0.5 * bd_erfc_f64d(-d1 * c);
  bd_f64d nd2 = 0.5 * bd_erfc_f64d(-d2 * c);
  bd_f64d v = s * nd1 - K * bd_exp_f64d(-r * t) * nd2;
  v = bd_select_f64d(bd_cmplt_f64d(d1, bd_splat_f64d(-9.0)), bd_splat_f64d(0.0),
                     v);
  bd_f64d ex = bd_fmax_f64d(s - K, bd_splat_f64d(0.0));
  return bd_select_f64d(bd_cmple_f64d(t, bd_splat_f64d(0.0)), ex, v);
}

/* One inlined body per vector, the last one partial (as the generated
 * wrappers do). */
#define BD_HAND_LD(p) (full ? bd_load_f64d((p) + i) : bd_loadn_f64d((p) + i, k))

void bd_hand_bs_call(size_t n, const double *S, double K, double r,
                     const double *sigma, const double *T, double *ret) {
  for (size_t i = 0; i < n; i += BD_WD) {
    size_t k = n - i < BD_WD ? n - i : BD_WD;
    int full = k == BD_WD;
    bd_f64d v =
        hand_bs_vec(BD_HAND_LD(S), K, r, BD_HAND_LD(sigma), BD_HAND_LD(T));
    if (full)
      bd_store_f64d(ret + i, v);
    else
      bd_storen_f64d(ret + i, v, k);
  }
}

static inline __attribute__((always_inline)) bd_f64d
hand_ln_vec(bd_f64d x, bd_f64d mu, bd_f64d sg) {
  bd_f64d t = (bd_log_f64d(x) - mu) / sg;
  return 0.5 * t * t + bd_log_f64d(sg * x) + 0.91893853320467274;
}

void bd_hand_lognormal_nll(size_t n, const double *x, const double *mu,
                           const double *sigma, double *ret) {
  for (size_t i = 0; i < n; i += BD_WD) {
    size_t k = n - i < BD_WD ? n - i : BD_WD;
    int full = k == BD_WD;
    bd_f64d v = hand_ln_vec(BD_HAND_LD(x), BD_HAND_LD(mu), BD_HAND_LD(sigma));
    if (full)
      bd_store_f64d(ret + i, v);
    else
      bd_storen_f64d(ret + i, v, k);
  }
}
