#pragma clang system_header
/* batchdiff vector math, the <math.h> functions whose result is exactly
 * defined: ldexp/scalbn, ilogb, logb, nextafter, fdim, rint, nearbyint,
 * lrint/llrint, lround/llround, remainder. Each lane is what glibc's scalar
 * function returns, bit for bit (NaN results are NaN; the payload is not
 * promised), in the default rounding mode; out-of-range lrint/lround give
 * LONG_MIN like glibc on x86-64.
 *
 * Written over vector extensions only, so every width (BD_VBYTES 16, 32,
 * 64) gets the same code. Included by vmath.h (remainder uses bd_fmod_*). */
#ifndef BATCHDIFF_VMATH_BITS_H
#define BATCHDIFF_VMATH_BITS_H
#include <batchdiff/macro_shield.h> /* hides the user's macros until its end */

#include <math.h>

/* Lanes of a where the integer mask m is set, else b. */
#define BD__BSEL(m, a, b) (((a) & (m)) | ((b) & ~(m)))

/* T: float vector; E: its element; SI/UI: signed/unsigned integers of the
 * element's width; NI: int (32-bit) vector with T's lanes; MB: mantissa bits;
 * EM: the all-ones exponent; BIAS; SB: bits by which a subnormal is scaled
 * up exactly (glibc's two54 / two25); SMIN: the sign bit. */
#define BD__EXACT_BITS(T, E, SI, UI, NI, MB, EM, BIAS, SB, SMIN)               \
  /* The exponent field, with subnormals (and 0) scaled by 2^SB first. */      \
  BD_INL SI bd__expo_##T(bd_##T x, SI *bits) {                                 \
    SI k = ((SI)x >> MB) & EM;                                                 \
    SI sub = (SI)(k == 0);                                                     \
    bd_##T xs = x * (E)(1ull << SB);                                           \
    SI ix = BD__BSEL(sub, (SI)xs, (SI)x);                                      \
    *bits = ix;                                                                \
    return ((ix >> MB) & EM) - (sub & SB);                                     \
  }                                                                            \
  /* x * 2^n rounded once: the exponent field set directly, or set SB higher   \
   * and multiplied by 2^-SB for a subnormal result (glibc's scalbn). */       \
  BD_INL bd_##T bd_ldexp_##T(bd_##T x, NI n) {                                 \
    SI ix, nn = __builtin_convertvector(n, SI);                                \
    SI k = ((SI)x >> MB) & EM;                                                 \
    /* Past +-50000 every finite x over- or underflows; clamping keeps k + n   \
     * in range. */                                                            \
    nn = BD__BSEL((SI)(nn < -50001), (SI){0} - 50001, nn);                     \
    nn = BD__BSEL((SI)(nn > 50001), (SI){0} + 50001, nn);                      \
    SI kk = bd__expo_##T(x, &ix) + nn;                                         \
    UI keep = (UI)ix & ~(((UI){0} + EM) << MB); /* sign and mantissa */        \
    SI sign = (SI)x & SMIN;                                                    \
    SI normal = (SI)(keep | ((UI)kk << MB));                                   \
    bd_##T subn = (bd_##T)(keep | ((UI)(kk + SB) << MB)) *                     \
                  (E)(1.0 / (double)(1ull << SB));                             \
    SI r = BD__BSEL((SI)(kk > 0), normal, (SI)subn);                           \
    r = BD__BSEL((SI)(kk >= EM), sign | (((SI){0} + EM) << MB), r);            \
    r = BD__BSEL((SI)(kk <= -SB), sign, r);                                    \
    r = BD__BSEL((SI)(x == 0), (SI)x, r);                                      \
    return (bd_##T)BD__BSEL((SI)(k == EM), (SI)(x + x), r);                    \
  }                                                                            \
  BD_INL bd_##T bd_scalbn_##T(bd_##T x, NI n) { return bd_ldexp_##T(x, n); }   \
  BD_INL NI bd_ilogb_##T(bd_##T x) {                                           \
    SI ix, k = ((SI)x >> MB) & EM;                                             \
    SI r = bd__expo_##T(x, &ix) - BIAS;                                        \
    SI mant = (SI)x & (((SI){0} + 1) << MB) - 1;                               \
    SI nan =                                                                   \
        BD__BSEL((SI)(mant != 0), (SI){0} + FP_ILOGBNAN, (SI){0} + INT32_MAX); \
    r = BD__BSEL((SI)(x == 0), (SI){0} + FP_ILOGB0, r);                        \
    r = BD__BSEL((SI)(k == EM), nan, r);                                       \
    return __builtin_convertvector(r, NI);                                     \
  }                                                                            \
  /* glibc: -1/|x| at zero, x*x for Inf and NaN. */                            \
  BD_INL bd_##T bd_logb_##T(bd_##T x) {                                        \
    SI ix, k = ((SI)x >> MB) & EM;                                             \
    bd_##T r = __builtin_convertvector(bd__expo_##T(x, &ix) - BIAS, bd_##T);   \
    r = (bd_##T)BD__BSEL((SI)(x == 0), (SI)((bd_##T){0} - (E)__builtin_inf()), \
                         (SI)r);                                               \
    return (bd_##T)BD__BSEL((SI)(k == EM), (SI)(x * x), (SI)r);                \
  }                                                                            \
  /* One step of the representation: away from zero is +1 on the bits. */      \
  BD_INL bd_##T bd_nextafter_##T(bd_##T x, bd_##T y) {                         \
    SI up = (SI)((x < y) == (x > 0));                                          \
    SI r = (SI)((UI)x + (UI)BD__BSEL(up, (SI){0} + 1, (SI){0} - 1));           \
    SI tiny = ((SI)y & SMIN) | 1;                                              \
    r = BD__BSEL((SI)(x == 0), tiny, r);                                       \
    r = BD__BSEL((SI)(x == y), (SI)y, r);                                      \
    return (bd_##T)BD__BSEL((SI)((x != x) | (y != y)), (SI)(x + y), r);        \
  }                                                                            \
  BD_INL bd_##T bd_fdim_##T(bd_##T x, bd_##T y) {                              \
    return (bd_##T)((SI)(x - y) & ~(SI)(x <= y));                              \
  }                                                                            \
  BD_INL bd_##T bd_rint_##T(bd_##T x) {                                        \
    return __builtin_elementwise_rint(x);                                      \
  }                                                                            \
  BD_INL bd_##T bd_nearbyint_##T(bd_##T x) {                                   \
    return __builtin_elementwise_nearbyint(x);                                 \
  }                                                                            \
  /* IEEE remainder: r = fmod(|x|, 2|y|) in [0, 2|y|), then at most two        \
   * exact subtractions of |y| pick the nearest multiple (ties: the even       \
   * one); the sign is x's. r + r may overflow only where the answer is yes.   \
   */                                                                          \
  BD_INL bd_##T bd_remainder_##T(bd_##T x, bd_##T y) {                         \
    bd_##T ax = __builtin_elementwise_abs(x),                                  \
           ay = __builtin_elementwise_abs(y);                                  \
    bd_##T r = bd_fmod_##T(ax, ay + ay);                                       \
    SI m = (SI)(r + r > ay);                                                   \
    r = (bd_##T)BD__BSEL(m, (SI)(r - ay), (SI)r);                              \
    m = (SI)(r + r >= ay) & m;                                                 \
    r = (bd_##T)BD__BSEL(m, (SI)(r - ay), (SI)r);                              \
    r = (bd_##T)((SI)r ^ ((SI)x & SMIN));                                      \
    SI bad = (SI)(ay == 0) | ~(SI)(ax < (E)__builtin_inf()) | (SI)(ay != ay);  \
    return (bd_##T)BD__BSEL(bad, (SI)((x * y) / (x * y)), (SI)r);              \
  }

BD__EXACT_BITS(f32n, float, bd_i32n, bd_u32n, bd_i32n, 23, 0xff, 127, 25,
               INT32_MIN)
BD__EXACT_BITS(f32d, float, bd_i32d, bd_u32d, bd_i32d, 23, 0xff, 127, 25,
               INT32_MIN)
BD__EXACT_BITS(f64d, double, bd_i64d, bd_u64d, bd_i32d, 52, 0x7ff, 1023, 54,
               INT64_MIN)

/* Rounded to an integer, then converted: out-of-range and NaN lanes give
 * INT64_MIN, as cvtsd2si (glibc's lrint) and (long)x (its lround) do. Only
 * shape d: the results are 64-bit. */
#define BD__EXACT_TOINT(T)                                                     \
  BD_INL bd_i64d bd_lrint_##T(bd_##T x) {                                      \
    return bd_cvt_##T##_i64d(__builtin_elementwise_rint(x));                   \
  }                                                                            \
  BD_INL bd_i64d bd_llrint_##T(bd_##T x) { return bd_lrint_##T(x); }           \
  BD_INL bd_i64d bd_lround_##T(bd_##T x) {                                     \
    return bd_cvt_##T##_i64d(__builtin_elementwise_round(x));                  \
  }                                                                            \
  BD_INL bd_i64d bd_llround_##T(bd_##T x) { return bd_lround_##T(x); }
BD__EXACT_TOINT(f32d)
BD__EXACT_TOINT(f64d)

#include <batchdiff/macro_shield.h>
#endif /* BATCHDIFF_VMATH_BITS_H */
