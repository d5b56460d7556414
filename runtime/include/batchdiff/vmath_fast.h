#pragma clang system_header
/* batchdiff inline vector math: bd__fast_<fn>_<T> for T in f32n, f32d, f64d.
 *
 * Usage: included by <batchdiff/vmath.h>, which maps the public bd_<fn>_<T>
 * to these or to the library (SLEEF) versions, per function. Everything is
 * static inline over clang vector extensions, generic over the width: the
 * double kernels (vmath_fast_body.h) are instantiated for BD_WN doubles (dn,
 * the float functions of shape n, computed in double) and BD_WD doubles (dd:
 * shape d). Float functions compute in double and round once to float.
 * FMA is used where __FMA__ is defined; every function stays within its
 * bound either way (tests/runtime/test_vmath.c runs both builds). Errors and
 * speed: docs/runtime.md. */
#ifndef BATCHDIFF_VMATH_FAST_H
#define BATCHDIFF_VMATH_FAST_H
#include <batchdiff/macro_shield.h> /* hides the user's macros until its end */

#include <batchdiff/simd.h>

/* The algorithms rely on IEEE evaluation as written (exact splits, rounding
 * with 1.5 * 2^52): no reassociation or contraction, even under
 * -ffast-math or -ffp-contract=fast in the including file. */
#pragma float_control(push)
#pragma float_control(precise, on)
#pragma clang fp contract(off)

#if defined(__FMA__)
#define BD__FMA(a, b, c) __builtin_elementwise_fma(a, b, c)
#else
#define BD__FMA(a, b, c) ((a) * (b) + (c))
#endif
/* A double constant 16 times: a static row read as one vector of any
 * width (BD__VD of vmath_fast_body.h has up to 16 lanes). */
#define BD__R16(c)                                                             \
  { c, c, c, c, c, c, c, c, c, c, c, c, c, c, c, c }
#define BD__FPASTE_(a, b) a##b
#define BD__FPASTE(a, b) BD__FPASTE_(a, b)
/* The rare lanes are fixed by out-of-line cold functions, so that the
 * inline fast path keeps its registers (an inline slow path made clang hoist
 * its constants and spill the fast path's), and so that a file compiles one
 * copy of a slow path instead of one per call (issue 8: each inline double
 * exp was 42 M instructions of compile time, two thirds of them its rare
 * path). preserve_all, which would also save the caller's spills around the
 * call, was tried and dropped: a 256-bit value live across the half-width
 * function's call came back changed. */
#define BD__COLD                                                               \
  static __inline__ __attribute__((__noinline__, __cold__, __unused__))

/* The bits of one register of doubles as int64 lanes, through an empty asm
 * that LLVM does not see through. For an integer operation on the bits of a
 * double, LLVM 19's InstCombine asks computeKnownBits, which walks the
 * floating-point expression behind the bitcast (computeKnownFPClass, six
 * levels deep, each constant lane by lane) at every one of its runs, for
 * nothing it uses: in exp's reduction (n from the bits of x log2(e) +
 * 1.5 * 2^52) that was about a sixth of an inline tanh's compile (issue 8,
 * docs/compile-time.md). The asm emits nothing. */
#if defined(__x86_64__) || defined(__i386__)
#define BD__BITS_DD(v)                                                         \
  __extension__({                                                              \
    bd_f64d bd__b_ = (v);                                                      \
    __asm__("" : "+v"(bd__b_));                                                \
    (bd_i64d)bd__b_;                                                           \
  })
#else
#define BD__BITS_DD(v) ((bd_i64d)(v))
#endif

typedef BD__V(int64_t, BD_VBYTES * 2) bd__ln;
typedef BD__V(uint64_t, BD_VBYTES * 2) bd__un;

#define BD__S dn
#define BD__VD bd__dn
#define BD__VL bd__ln
#define BD__VU bd__un
#define BD__BITS(v) ((BD__VL)(v)) /* two registers: no asm operand */
#include <batchdiff/vmath_fast_body.h>
#undef BD__BITS
#undef BD__S
#undef BD__VD
#undef BD__VL
#undef BD__VU
#define BD__S dd
#define BD__VD bd_f64d
#define BD__VL bd_i64d
#define BD__VU bd_u64d
#define BD__BITS(v) BD__BITS_DD(v)
#include <batchdiff/vmath_fast_body.h>
#undef BD__BITS
#undef BD__S
#undef BD__VD
#undef BD__VL
#undef BD__VU

/* Per-lane select for any vector type: m is all-ones / 0 per lane of the
 * integer type IT of the same element width as a and b. */
#define BD__FSEL(IT, m, a, b)                                                  \
  ((__typeof__(a))(((IT)(a) & (m)) | ((IT)(b) & ~(m))))

/* ---- float functions in double, rounded once (bd__dbl_*): the float
 * functions of builds without FMA, and the rare lanes of float exp ---- */
#define BD__FASTF(T, IT, S, DT)                                                \
  BD_INL bd_##T bd__dbl_exp_##T(bd_##T x) {                                    \
    DT d = __builtin_convertvector(x, DT);                                     \
    d = bd__vmin_##S(bd__vmax_##S(d, -150.0), 100.0);                          \
    bd_##T r = __builtin_convertvector(bd__fexpk_##S(d), bd_##T);              \
    return BD__FSEL(IT, (IT)(x != x), x + x, r);                               \
  }                                                                            \
  BD_INL bd_##T bd__dbl_log_##T(bd_##T x) {                                    \
    DT d = __builtin_convertvector(x, DT);                                     \
    bd_##T r = __builtin_convertvector(bd__flogk_##S(d), bd_##T);              \
    IT special = ~((IT)(x > 0.0f) & (IT)(x < __builtin_inff()));               \
    if (__builtin_reduce_or(special)) {                                        \
      bd_##T nan = (bd_##T){0} + __builtin_nanf("");                           \
      bd_##T sr = BD__FSEL(IT, (IT)(x < 0.0f), nan, x + x);                    \
      sr = BD__FSEL(IT, (IT)(x == 0.0f), (bd_##T){0} - __builtin_inff(), sr);  \
      r = BD__FSEL(IT, special, sr, r);                                        \
    }                                                                          \
    return r;                                                                  \
  }                                                                            \
  BD_INL bd_##T bd__dbl_expm1_##T(bd_##T x) {                                  \
    DT d = __builtin_convertvector(x, DT);                                     \
    return __builtin_convertvector(bd__expm1_##S(d), bd_##T);                  \
  }                                                                            \
  /* u = 1 + x rounds only when |x| < 2^-29 (then e = x - (u - 1) is its       \
   * exact error and log1p(x) = log(u) + e to 2^-50) or when x > 2^29 (then    \
   * e = 0 and the error of u is below 2^-53 relative). */                     \
  BD_INL bd_##T bd__dbl_log1p_##T(bd_##T x) {                                  \
    DT d = __builtin_convertvector(x, DT);                                     \
    DT u = 1.0 + d;                                                            \
    DT e = d - (u - 1.0);                                                      \
    bd_##T r = __builtin_convertvector(bd__flogk_##S(u) + e, bd_##T);          \
    IT special =                                                               \
        ~((IT)(x > -1.0f) & (IT)(x < __builtin_inff())) | (IT)(x == 0.0f);     \
    if (__builtin_reduce_or(special)) {                                        \
      bd_##T nan = (bd_##T){0} + __builtin_nanf("");                           \
      bd_##T sr = BD__FSEL(IT, (IT)(x < -1.0f), nan, x + x);                   \
      sr = BD__FSEL(IT, (IT)(x == -1.0f), (bd_##T){0} - __builtin_inff(), sr); \
      sr = BD__FSEL(IT, (IT)(x == 0.0f), x, sr);                               \
      r = BD__FSEL(IT, special, sr, r);                                        \
    }                                                                          \
    return r;                                                                  \
  }
BD__FASTF(f32n, bd_i32n, dn, bd__dn)
BD__FASTF(f32d, bd_i32d, dd, bd_f64d)

#if defined(__FMA__)
/* ---- float functions in float (FMA builds) ---- */

/* t[i & 15] per lane, t a table of 16 floats (64-byte aligned): one
 * vpermps (vpermt2ps for 8 lanes with AVX-512VL), two vpermps and a blend
 * with AVX2, a 4-lane gather, else per lane (clang's builtins, as in
 * simd_x86.h: _mm512_permutexvar_ps, _mm256_permutex2var_ps,
 * _mm256_permutevar8x32_ps, _mm256_blendv_ps, _mm_i32gather_ps). */
#define BD__LUT16_ANY(T, IT)                                                   \
  BD_INL bd_##T bd__flut16_##T(const float *t, IT i) {                         \
    bd_##T r;                                                                  \
    for (int l = 0; l < (int)(sizeof r / sizeof r[0]); l++)                    \
      r[l] = t[i[l] & 15];                                                     \
    return r;                                                                  \
  }
#if defined(__AVX2__)
BD_INL bd__x8sf bd__flut16_x8(const float *t, bd__x8si i) {
  bd__x8sf lo, hi;
  __builtin_memcpy(&lo, t, sizeof lo);
  __builtin_memcpy(&hi, t + 8, sizeof hi);
#if defined(__AVX512VL__)
  return __builtin_ia32_vpermi2varps256(lo, i, hi);
#else
  lo = __builtin_ia32_permvarsf256(lo, i);
  hi = __builtin_ia32_permvarsf256(hi, i);
  return __builtin_ia32_blendvps256(lo, hi, (bd__x8sf)(i << 28));
#endif
}
#endif
#if BD_VBYTES == 64
BD_INL bd_f32n bd__flut16_f32n(const float *t, bd_i32n i) {
  bd__x16sf v;
  __builtin_memcpy(&v, t, sizeof v);
  return (bd_f32n)__builtin_ia32_permvarsf512(v, (bd__x16si)i);
}
BD_INL bd_f32d bd__flut16_f32d(const float *t, bd_i32d i) {
  return (bd_f32d)bd__flut16_x8(t, (bd__x8si)i);
}
#elif BD_VBYTES == 32
BD_INL bd_f32n bd__flut16_f32n(const float *t, bd_i32n i) {
  return (bd_f32n)bd__flut16_x8(t, (bd__x8si)i);
}
BD_INL bd_f32d bd__flut16_f32d(const float *t, bd_i32d i) {
  return (bd_f32d)__builtin_ia32_gatherd_ps(
      (bd__x4sf){0}, t, (bd__x4si)(i & 15), (bd__x4sf)((bd__x4si){0} - 1), 4);
}
#else
BD__LUT16_ANY(f32n, bd_i32n)
BD__LUT16_ANY(f32d, bd_i32d)
#endif

/* Float log without a division, by a 16-entry table (one vpermps per row),
 * where the division is dear: 16 floats (bd_f32n) in 64-byte vectors, Zen 4
 * included (piecewise_grad 1.52 -> 1.28 ns there, where the double log's
 * table kernel measured slower: vmath_log.h). Elsewhere, and for bd_f32d (8
 * floats: a 256-bit division costs half), logf takes the division kernel
 * that log1pf takes everywhere (a table log1pf measured no faster:
 * docs/performance-kernels.md, "The float log at 16 lanes"). BD__FT:
 * whether an instance of vmath_fast_fbody.h takes the table. */
#if BD_VBYTES == 64 && defined(__AVX512F__)
#define BD__FLOG_TABLE 1
#include "vmath_flog_tab.h"
#else
#define BD__FLOG_TABLE 0
#endif

#define BD__S f32n
#define BD__VF bd_f32n
#define BD__VI bd_i32n
#define BD__FT BD__FLOG_TABLE
#include <batchdiff/vmath_fast_fbody.h>
#undef BD__S
#undef BD__VF
#undef BD__VI
#undef BD__FT
#define BD__S f32d
#define BD__VF bd_f32d
#define BD__VI bd_i32d
#define BD__FT 0
#include <batchdiff/vmath_fast_fbody.h>
#undef BD__S
#undef BD__VF
#undef BD__VI
#undef BD__FT

#define BD__FASTF_FMA(T, IT)                                                   \
  /* Lanes beyond |x| = 86.5 (or NaN) take the double path; the others         \
   * keep the float result, so a lane never depends on its neighbours. */      \
  BD__COLD bd_##T bd__fexp_fix_##T(bd_##T x, bd_##T r) {                       \
    IT big = ~(IT)(x * x <= 7482.25f);                                         \
    return BD__FSEL(IT, big, bd__dbl_exp_##T(x), r);                           \
  }                                                                            \
  BD_INL bd_##T bd__fast_exp_##T(bd_##T x) {                                   \
    bd_##T r = bd__fexpf_##T(x);                                               \
    if (__builtin_reduce_or(~(IT)(x * x <= 7482.25f))) /* |x| > 86.5, NaN */   \
      r = bd__fexp_fix_##T(x, r);                                              \
    return r;                                                                  \
  }                                                                            \
  BD_INL bd_##T bd__fast_expm1_##T(bd_##T x) { return bd__fexpm1f_##T(x); }    \
  /* Special lanes: x <= 0, subnormal (scaled by 2^23), inf, NaN. */           \
  BD__COLD bd_##T bd__flog_fix_##T(bd_##T x, bd_##T r) {                       \
    IT special = bd__flogf_special_##T(x);                                     \
    bd_##T nan = (bd_##T){0} + __builtin_nanf("");                             \
    bd_##T sub = bd__flogf_##T(x * 0x1p23f, (bd_##T){0} - 23.0f);              \
    bd_##T sr = BD__FSEL(IT, (IT)(x < __builtin_inff()), sub, x + x);          \
    sr = BD__FSEL(IT, (IT)(x < 0.0f), nan, sr);                                \
    sr = BD__FSEL(IT, (IT)(x == 0.0f), (bd_##T){0} - __builtin_inff(), sr);    \
    return BD__FSEL(IT, special, sr, r);                                       \
  }                                                                            \
  BD_INL bd_##T bd__fast_log_##T(bd_##T x) {                                   \
    bd_##T r = bd__flogf_##T(x, (bd_##T){0});                                  \
    if (__builtin_reduce_or(bd__flogf_special_##T(x)))                         \
      r = bd__flog_fix_##T(x, r);                                              \
    return r;                                                                  \
  }                                                                            \
  /* Special lanes: x <= -1, x >= 1.5 2^126 (x/4 instead, k + 2), inf, NaN. */ \
  BD__COLD bd_##T bd__flog1p_fix_##T(bd_##T x, bd_##T r) {                     \
    IT special = bd__flog1pf_special_##T(x);                                   \
    bd_##T nan = (bd_##T){0} + __builtin_nanf("");                             \
    bd_##T big = bd__flog1pf_##T(x * 0.25f, (bd_##T){0} + 2.0f);               \
    bd_##T sr = BD__FSEL(IT, (IT)(x < __builtin_inff()), big, x + x);          \
    sr = BD__FSEL(IT, (IT)(x < -1.0f), nan, sr);                               \
    sr = BD__FSEL(IT, (IT)(x == -1.0f), (bd_##T){0} - __builtin_inff(), sr);   \
    return BD__FSEL(IT, special, sr, r);                                       \
  }                                                                            \
  BD_INL bd_##T bd__fast_log1p_##T(bd_##T x) {                                 \
    bd_##T r = bd__flog1pf_##T(x, (bd_##T){0});                                \
    if (__builtin_reduce_or(bd__flog1pf_special_##T(x)))                       \
      r = bd__flog1p_fix_##T(x, r);                                            \
    return r;                                                                  \
  }
BD__FASTF_FMA(f32n, bd_i32n)
BD__FASTF_FMA(f32d, bd_i32d)
#else
#define BD__FASTF_DBL(T)                                                       \
  BD_INL bd_##T bd__fast_exp_##T(bd_##T x) { return bd__dbl_exp_##T(x); }      \
  BD_INL bd_##T bd__fast_expm1_##T(bd_##T x) { return bd__dbl_expm1_##T(x); }  \
  BD_INL bd_##T bd__fast_log_##T(bd_##T x) { return bd__dbl_log_##T(x); }      \
  BD_INL bd_##T bd__fast_log1p_##T(bd_##T x) { return bd__dbl_log1p_##T(x); }
BD__FASTF_DBL(f32n)
BD__FASTF_DBL(f32d)
#endif

/* ---- double functions ---- */
BD_INL bd_f64d bd__fast_exp_f64d(bd_f64d x) { return bd__exp_dd(x); }
BD_INL bd_f64d bd__fast_expm1_f64d(bd_f64d x) { return bd__expm1_dd(x); }

/* Double erf, erfc, log, pow and float pow: inline with FMA (vmath_erf.h,
 * vmath_log.h, vmath_pow.h); SLEEF (erf, erfc, pow, powf) and fdlibm without
 * FMA (log, vmath_fast_body.h). The erfc
 * tables (3 and 4 doubles a row) are in libbatchdiff_rt
 * (gen_vmath_tables.c). */
#define BD_ERFC_ROWS 3489
#define BD_ERFC8_ROWS 1025
#ifdef __cplusplus
extern "C" {
#endif
extern const double bd_rt_erfc_tab[BD_ERFC_ROWS * 3]
    __attribute__((__visibility__("default")));
extern const double bd_rt_erfc128_tab[BD_ERFC8_ROWS * 4]
    __attribute__((__visibility__("default")));
#ifdef __cplusplus
}
#endif
BD_INL bd_f64d bd__lib_erf_f64d(bd_f64d x);
BD_INL bd_f64d bd__lib_erfc_f64d(bd_f64d x);
BD_INL bd_f64d bd__lib_pow_f64d(bd_f64d x, bd_f64d y);
BD_INL bd_f32n bd__lib_pow_f32n(bd_f32n x, bd_f32n y);
BD_INL bd_f32d bd__lib_pow_f32d(bd_f32d x, bd_f32d y);
#if defined(__FMA__)
#include <batchdiff/vmath_erf.h>
#include <batchdiff/vmath_log.h>
BD_INL bd_f64d bd__fast_log_f64d(bd_f64d x) { return bd__logfma_dd(x); }
#if BD__LOG_TABLE
BD_INL bd_f64d bd__fast_log1p_f64d(bd_f64d x) { return bd__log1pt_dd(x); }
#else
BD_INL bd_f64d bd__fast_log1p_f64d(bd_f64d x) { return bd__log1p_dd(x); }
#endif
BD_INL bd_f64d bd__fast_erf_f64d(bd_f64d x) { return bd__erf_dd(x); }
BD_INL bd_f64d bd__fast_erfc_f64d(bd_f64d x) { return bd__erfc_dd(x); }
#include <batchdiff/vmath_pow.h>
BD_INL bd_f64d bd__fast_pow_f64d(bd_f64d x, bd_f64d y) {
  return bd__pow_dd(x, y);
}
/* powf in double (bd__powfk_dd): bd_f32d is one double vector, bd_f32n two */
BD_INL bd_f32d bd__fast_pow_f32d(bd_f32d x, bd_f32d y) {
  return __builtin_convertvector(
      bd__powfk_dd(__builtin_convertvector(x, bd_f64d),
                   __builtin_convertvector(y, bd_f64d)),
      bd_f32d);
}
BD_INL bd_f32n bd__fast_pow_f32n(bd_f32n x, bd_f32n y) {
  bd_f32d xl, xh, yl, yh;
  __builtin_memcpy(&xl, &x, sizeof xl);
  __builtin_memcpy(&xh, (const char *)&x + sizeof xl, sizeof xh);
  __builtin_memcpy(&yl, &y, sizeof yl);
  __builtin_memcpy(&yh, (const char *)&y + sizeof yl, sizeof yh);
  bd_f32d rl = bd__fast_pow_f32d(xl, yl), rh = bd__fast_pow_f32d(xh, yh);
  bd_f32n r;
  __builtin_memcpy(&r, &rl, sizeof rl);
  __builtin_memcpy((char *)&r + sizeof rl, &rh, sizeof rh);
  return r;
}
#else
BD_INL bd_f64d bd__fast_log_f64d(bd_f64d x) { return bd__log_dd(x); }
BD_INL bd_f64d bd__fast_log1p_f64d(bd_f64d x) { return bd__log1p_dd(x); }
BD_INL bd_f64d bd__fast_erf_f64d(bd_f64d x) { return bd__lib_erf_f64d(x); }
BD_INL bd_f64d bd__fast_erfc_f64d(bd_f64d x) { return bd__lib_erfc_f64d(x); }
BD_INL bd_f64d bd__fast_pow_f64d(bd_f64d x, bd_f64d y) {
  return bd__lib_pow_f64d(x, y);
}
BD_INL bd_f32d bd__fast_pow_f32d(bd_f32d x, bd_f32d y) {
  return bd__lib_pow_f32d(x, y);
}
BD_INL bd_f32n bd__fast_pow_f32n(bd_f32n x, bd_f32n y) {
  return bd__lib_pow_f32n(x, y);
}
#endif

/* ---- sin, cos: fdlibm in double (float: rounded once); lanes beyond
 * |x| = 2^19 pi/2, inf and NaN use the scalar libm function ---- */
/* The big lanes, out of line: one libm call per lane (an unrolled loop). */
#define BD__SINCOS_FIX(fn, T, IT, W, cfn, lim)                                 \
  BD__COLD bd_##T bd__##fn##_fix_##T(bd_##T x, bd_##T r) {                     \
    IT big = ~(IT)(__builtin_elementwise_abs(x) <= (lim));                     \
    for (int i = 0; i < (W); i++)                                              \
      if (big[i])                                                              \
        r[i] = cfn(x[i]);                                                      \
    return r;                                                                  \
  }
#define BD__SINCOS(fn, c)                                                      \
  BD__SINCOS_FIX(fn, f64d, bd_i64d, BD_WD, __builtin_##fn, 823549.6)           \
  BD__SINCOS_FIX(fn, f32n, bd_i32n, BD_WN, __builtin_##fn##f, 823549.6f)       \
  BD__SINCOS_FIX(fn, f32d, bd_i32d, BD_WD, __builtin_##fn##f, 823549.6f)       \
  BD_INL bd_f64d bd__fast_##fn##_f64d(bd_f64d x) {                             \
    bd_f64d r = bd__sincos_dd(x, c);                                           \
    bd_i64d big = ~(bd_i64d)(__builtin_elementwise_abs(x) <= 823549.6);        \
    if (__builtin_reduce_or(big))                                              \
      r = bd__##fn##_fix_f64d(x, r);                                           \
    return r;                                                                  \
  }                                                                            \
  BD_INL bd_f32n bd__fast_##fn##_f32n(bd_f32n x) {                             \
    bd__dn d = __builtin_convertvector(x, bd__dn);                             \
    bd_f32n r = __builtin_convertvector(bd__sincos_dn(d, c), bd_f32n);         \
    bd_i32n big = ~(bd_i32n)(__builtin_elementwise_abs(x) <= 823549.6f);       \
    if (__builtin_reduce_or(big))                                              \
      r = bd__##fn##_fix_f32n(x, r);                                           \
    return r;                                                                  \
  }                                                                            \
  BD_INL bd_f32d bd__fast_##fn##_f32d(bd_f32d x) {                             \
    bd_f64d d = __builtin_convertvector(x, bd_f64d);                           \
    bd_f32d r = __builtin_convertvector(bd__sincos_dd(d, c), bd_f32d);         \
    bd_i32d big = ~(bd_i32d)(__builtin_elementwise_abs(x) <= 823549.6f);       \
    if (__builtin_reduce_or(big))                                              \
      r = bd__##fn##_fix_f32d(x, r);                                           \
    return r;                                                                  \
  }
BD__SINCOS(sin, 0)
BD__SINCOS(cos, 1)

/* ---- erf, erfc (float): in double, rounded once ---- */
#define BD__ERFF(T, S, DT)                                                     \
  BD_INL bd_##T bd__fast_erf_##T(bd_##T x) {                                   \
    DT d = __builtin_convertvector(x, DT);                                     \
    return __builtin_convertvector(bd__ferfk_##S(d), bd_##T);                  \
  }                                                                            \
  BD_INL bd_##T bd__fast_erfc_##T(bd_##T x) {                                  \
    DT d = __builtin_convertvector(x, DT);                                     \
    return __builtin_convertvector(bd__ferfck_##S(d), bd_##T);                 \
  }
BD__ERFF(f32n, dn, bd__dn)
BD__ERFF(f32d, dd, bd_f64d)

/* ---- tanh (float): in float with FMA (vmath_fast_fbody.h); without, in
 * double (vmath_fast_body.h), rounded once ---- */
#if defined(__FMA__)
BD_INL bd_f32n bd__fast_tanh_f32n(bd_f32n x) { return bd__ftanhf_f32n(x); }
BD_INL bd_f32d bd__fast_tanh_f32d(bd_f32d x) { return bd__ftanhf_f32d(x); }
#else
#define BD__TANHF(T, S, DT)                                                    \
  BD_INL bd_##T bd__fast_tanh_##T(bd_##T x) {                                  \
    DT d = __builtin_convertvector(x, DT);                                     \
    return __builtin_convertvector(bd__ftanhk_##S(d), bd_##T);                 \
  }
BD__TANHF(f32n, dn, bd__dn)
BD__TANHF(f32d, dd, bd_f64d)
#endif
/* Double tanh: inline with FMA; SLEEF (the library) without. */
BD_INL bd_f64d bd__lib_tanh_f64d(bd_f64d x);
#if defined(__FMA__)
BD_INL bd_f64d bd__fast_tanh_f64d(bd_f64d x) { return bd__tanh_dd(x); }
#else
BD_INL bd_f64d bd__fast_tanh_f64d(bd_f64d x) { return bd__lib_tanh_f64d(x); }
#endif

#pragma float_control(pop)

#include <batchdiff/macro_shield.h>
#endif /* BATCHDIFF_VMATH_FAST_H */
