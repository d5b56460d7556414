#pragma clang system_header
/* batchdiff vector math with the rare lanes' test deferred: bd_dfr_<fn>_<T>
 * for fn in exp, log, log1p, erfc and T in f32n, f32d, f64d.
 *
 *   bd_dfr_<fn>_<T>(careful, bad, x)
 *
 * careful != 0: bd_<fn>_<T>(x). careful == 0: the inline fast path's result
 * for every lane, without its test and out-of-line fix; where a lane needs
 * the fix, *bad is set to 1 and the result is not bd_<fn>_<T>(x) (else it
 * is, bit for bit). Generated kernels without side effects (loop-free
 * gradients, docs/abi.md) run a step with careful = 0 and, when *bad was
 * set, the whole step again with careful = 1: the results are those of
 * bd_<fn>_<T> either way, and the common step has no branch and no call per
 * math call (the out-of-line fixes' calls cost registers around them).
 * Functions and builds whose plain form has no rare-lane test (SLEEF, no
 * FMA) ignore careful and bad. Included by <batchdiff/vmath.h>. */
#ifndef BATCHDIFF_VMATH_DEFER_H
#define BATCHDIFF_VMATH_DEFER_H
#include <batchdiff/macro_shield.h> /* hides the user's macros until its end */

#include <batchdiff/vmath.h>

/* The plain function: no deferred form. */
#define BD__DFR_PLAIN(fn, T)                                                   \
  BD_INL bd_##T bd_dfr_##fn##_##T(int careful, int *bad, bd_##T x) {           \
    (void)careful;                                                             \
    (void)bad;                                                                 \
    return bd_##fn##_##T(x);                                                   \
  }

#if defined(__FMA__)
/* Float exp, log, log1p: vmath_fast.h's tests, made only to set *bad. */
#define BD__DFR_FLOAT(T, IT)                                                   \
  BD_INL bd_##T bd_dfr_exp_##T(int careful, int *bad, bd_##T x) {              \
    if (careful)                                                               \
      return bd_exp_##T(x);                                                    \
    *bad |= __builtin_reduce_or(~(IT)(x * x <= 7482.25f)) != 0;                \
    return bd__fexpf_##T(x);                                                   \
  }                                                                            \
  BD_INL bd_##T bd_dfr_log_##T(int careful, int *bad, bd_##T x) {              \
    if (careful)                                                               \
      return bd_log_##T(x);                                                    \
    *bad |= __builtin_reduce_or(bd__flogf_special_##T(x)) != 0;                \
    return bd__flogf_##T(x, (bd_##T){0});                                      \
  }                                                                            \
  BD_INL bd_##T bd_dfr_log1p_##T(int careful, int *bad, bd_##T x) {            \
    if (careful)                                                               \
      return bd_log1p_##T(x);                                                  \
    *bad |= __builtin_reduce_or(bd__flog1pf_special_##T(x)) != 0;              \
    return bd__flog1pf_##T(x, (bd_##T){0});                                    \
  }
BD__DFR_FLOAT(f32n, bd_i32n)
BD__DFR_FLOAT(f32d, bd_i32d)
#undef BD__DFR_FLOAT

/* Double exp, log, erfc (and log1p at 64 bytes): the tests of
 * vmath_fast_body.h, vmath_log.h and vmath_erf.h. */
BD_INL bd_f64d bd_dfr_exp_f64d(int careful, int *bad, bd_f64d x) {
  if (careful)
    return bd_exp_f64d(x);
  *bad |= __builtin_reduce_or(
              (bd_i64d)(__builtin_elementwise_abs(x) > 708.0)) != 0;
  return bd__expfma_dd(x);
}
BD_INL bd_f64d bd_dfr_log_f64d(int careful, int *bad, bd_f64d x) {
  if (careful)
    return bd_log_f64d(x);
  *bad |= bd__logfma_any_special_dd(x);
  return bd__logfmak_dd(x, 0.0);
}
BD_INL bd_f64d bd_dfr_erfc_f64d(int careful, int *bad, bd_f64d x) {
  if (careful)
    return bd_erfc_f64d(x);
  *bad |= __builtin_reduce_or((bd_i64d)(x > 8.0)) != 0;
  return bd__erfc8_dd(x, __builtin_elementwise_abs(x));
}
#if BD__LOG_TABLE
/* Double log1p at 64 bytes (vmath_log.h's table kernel); fdlibm's kernel
 * of the other builds has no rare-lane test. */
BD_INL bd_f64d bd_dfr_log1p_f64d(int careful, int *bad, bd_f64d x) {
  if (careful)
    return bd_log1p_f64d(x);
  bd_f64d u = 1.0 + x;
  *bad |= __builtin_reduce_or(bd__log1pt_special_dd(u)) != 0;
  return bd__log1ptk_dd(x, u);
}
#else
BD__DFR_PLAIN(log1p, f64d)
#endif
#else
BD__DFR_PLAIN(exp, f32n)
BD__DFR_PLAIN(exp, f32d)
BD__DFR_PLAIN(log, f32n)
BD__DFR_PLAIN(log, f32d)
BD__DFR_PLAIN(log1p, f32n)
BD__DFR_PLAIN(log1p, f32d)
BD__DFR_PLAIN(exp, f64d)
BD__DFR_PLAIN(log, f64d)
BD__DFR_PLAIN(erfc, f64d)
BD__DFR_PLAIN(log1p, f64d)
#endif
BD__DFR_PLAIN(erfc, f32n)
BD__DFR_PLAIN(erfc, f32d)
#undef BD__DFR_PLAIN

#include <batchdiff/macro_shield.h>
#endif /* BATCHDIFF_VMATH_DEFER_H */
