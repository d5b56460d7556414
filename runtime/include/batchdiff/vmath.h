#pragma clang system_header
/* batchdiff vector math: bd_<fn>_<T> for T in f32n, f32d, f64d.
 *
 * Usage: included by <batchdiff/batchdiff_rt.h>. Functions that must be exact
 * (sqrt, fabs, fmin, fmax, fma, floor, ceil, trunc, round, copysign) are
 * inline clang builtins, which lower to the same instructions clang uses for
 * the scalar calls; ldexp, ilogb, rint, remainder and the other exactly
 * defined ones of vmath_bits.h are inline too. The others are either inline
 * (vmath_fast.h) or call bd_rt_<cname>_<lanes>() in libbatchdiff_rt, which
 * wraps SLEEF, so users never link SLEEF themselves (BD_MATH1_IMPL_LIST says
 * which).
 * Error bounds per function: docs/runtime.md. */
#ifndef BATCHDIFF_VMATH_H
#define BATCHDIFF_VMATH_H
#include <batchdiff/macro_shield.h> /* hides the user's macros until its end */

#include <batchdiff/simd.h>
#include <batchdiff/vmath_fast.h>

/* C linkage for the library entry points, so C++ callers link too. */
#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define BD_RT_API __attribute__((__visibility__("default")))
#else
#define BD_RT_API
#endif

/* Library entry points. The 32-byte ones exist only for AVX2 builds and the
 * 64-byte ones for AVX-512F builds, so that narrower code never sees a wider
 * vector in a signature (-Wpsabi). */
#if BD_VBYTES >= 32
#define BD__RTDECL_WIDE(cf, cd, ...)                                           \
  BD_RT_API bd__v8f bd_rt_##cf##_8(__VA_ARGS__(bd__v8f));                      \
  BD_RT_API bd__v4d bd_rt_##cd##_4(__VA_ARGS__(bd__v4d));                      \
  BD__RTDECL_512(cf, cd, __VA_ARGS__)
#else
#define BD__RTDECL_WIDE(cf, cd, ...)
#endif
#if BD_VBYTES == 64
#define BD__RTDECL_512(cf, cd, ...)                                            \
  BD_RT_API bd__v16f bd_rt_##cf##_16(__VA_ARGS__(bd__v16f));                   \
  BD_RT_API bd__v8d bd_rt_##cd##_8(__VA_ARGS__(bd__v8d));
#else
#define BD__RTDECL_512(cf, cd, ...)
#endif
#define BD__ARGS1(V) V
#define BD__ARGS2(V) V, V
#define BD__RTDECL(cf, cd, ARGS)                                               \
  BD_RT_API bd__v4f bd_rt_##cf##_4(ARGS(bd__v4f));                             \
  BD_RT_API bd__v2d bd_rt_##cd##_2(ARGS(bd__v2d));                             \
  BD__RTDECL_WIDE(cf, cd, ARGS)

/* f32d is half a register: SSE2 pads its 2 lanes to 4 for the call. */
#if BD_VBYTES == 64
#define BD__MATH1(fn, cf, cd)                                                  \
  BD__RTDECL(cf, cd, BD__ARGS1)                                                \
  BD_INL bd_f32n bd__lib_##fn##_f32n(bd_f32n x) { return bd_rt_##cf##_16(x); } \
  BD_INL bd_f32d bd__lib_##fn##_f32d(bd_f32d x) { return bd_rt_##cf##_8(x); }  \
  BD_INL bd_f64d bd__lib_##fn##_f64d(bd_f64d x) { return bd_rt_##cd##_8(x); }
#define BD__MATH2(fn, cf, cd)                                                  \
  BD__RTDECL(cf, cd, BD__ARGS2)                                                \
  BD_INL bd_f32n bd__lib_##fn##_f32n(bd_f32n x, bd_f32n y) {                   \
    return bd_rt_##cf##_16(x, y);                                              \
  }                                                                            \
  BD_INL bd_f32d bd__lib_##fn##_f32d(bd_f32d x, bd_f32d y) {                   \
    return bd_rt_##cf##_8(x, y);                                               \
  }                                                                            \
  BD_INL bd_f64d bd__lib_##fn##_f64d(bd_f64d x, bd_f64d y) {                   \
    return bd_rt_##cd##_8(x, y);                                               \
  }
#elif BD_VBYTES == 32
#define BD__MATH1(fn, cf, cd)                                                  \
  BD__RTDECL(cf, cd, BD__ARGS1)                                                \
  BD_INL bd_f32n bd__lib_##fn##_f32n(bd_f32n x) { return bd_rt_##cf##_8(x); }  \
  BD_INL bd_f32d bd__lib_##fn##_f32d(bd_f32d x) { return bd_rt_##cf##_4(x); }  \
  BD_INL bd_f64d bd__lib_##fn##_f64d(bd_f64d x) { return bd_rt_##cd##_4(x); }
#define BD__MATH2(fn, cf, cd)                                                  \
  BD__RTDECL(cf, cd, BD__ARGS2)                                                \
  BD_INL bd_f32n bd__lib_##fn##_f32n(bd_f32n x, bd_f32n y) {                   \
    return bd_rt_##cf##_8(x, y);                                               \
  }                                                                            \
  BD_INL bd_f32d bd__lib_##fn##_f32d(bd_f32d x, bd_f32d y) {                   \
    return bd_rt_##cf##_4(x, y);                                               \
  }                                                                            \
  BD_INL bd_f64d bd__lib_##fn##_f64d(bd_f64d x, bd_f64d y) {                   \
    return bd_rt_##cd##_4(x, y);                                               \
  }
#else
#define BD__PAD(x) __builtin_shufflevector(x, x, 0, 1, 0, 1)
#define BD__UNPAD(x) __builtin_shufflevector(x, x, 0, 1)
#define BD__MATH1(fn, cf, cd)                                                  \
  BD__RTDECL(cf, cd, BD__ARGS1)                                                \
  BD_INL bd_f32n bd__lib_##fn##_f32n(bd_f32n x) { return bd_rt_##cf##_4(x); }  \
  BD_INL bd_f32d bd__lib_##fn##_f32d(bd_f32d x) {                              \
    bd__v4f r = bd_rt_##cf##_4(BD__PAD(x));                                    \
    return BD__UNPAD(r);                                                       \
  }                                                                            \
  BD_INL bd_f64d bd__lib_##fn##_f64d(bd_f64d x) { return bd_rt_##cd##_2(x); }
#define BD__MATH2(fn, cf, cd)                                                  \
  BD__RTDECL(cf, cd, BD__ARGS2)                                                \
  BD_INL bd_f32n bd__lib_##fn##_f32n(bd_f32n x, bd_f32n y) {                   \
    return bd_rt_##cf##_4(x, y);                                               \
  }                                                                            \
  BD_INL bd_f32d bd__lib_##fn##_f32d(bd_f32d x, bd_f32d y) {                   \
    bd__v4f r = bd_rt_##cf##_4(BD__PAD(x), BD__PAD(y));                        \
    return BD__UNPAD(r);                                                       \
  }                                                                            \
  BD_INL bd_f64d bd__lib_##fn##_f64d(bd_f64d x, bd_f64d y) {                   \
    return bd_rt_##cd##_2(x, y);                                               \
  }
#endif

/* X-macro lists, also used by runtime/src to define the wrappers. */
#define BD_MATH1_LIST(X)                                                       \
  X(cbrt, cbrtf, cbrt)                                                         \
  X(exp, expf, exp)                                                            \
  X(exp2, exp2f, exp2)                                                         \
  X(exp10, exp10f, exp10)                                                      \
  X(expm1, expm1f, expm1)                                                      \
  X(log, logf, log)                                                            \
  X(log2, log2f, log2)                                                         \
  X(log10, log10f, log10)                                                      \
  X(log1p, log1pf, log1p)                                                      \
  X(sin, sinf, sin)                                                            \
  X(cos, cosf, cos)                                                            \
  X(tan, tanf, tan)                                                            \
  X(asin, asinf, asin)                                                         \
  X(acos, acosf, acos)                                                         \
  X(atan, atanf, atan)                                                         \
  X(sinh, sinhf, sinh)                                                         \
  X(cosh, coshf, cosh)                                                         \
  X(tanh, tanhf, tanh)                                                         \
  X(asinh, asinhf, asinh)                                                      \
  X(acosh, acoshf, acosh)                                                      \
  X(atanh, atanhf, atanh)                                                      \
  X(erf, erff, erf)                                                            \
  X(erfc, erfcf, erfc)                                                         \
  X(lgamma, lgammaf, lgamma)                                                   \
  X(tgamma, tgammaf, tgamma)                                                   \
  X(j0, j0f, j0)                                                               \
  X(j1, j1f, j1)                                                               \
  X(y0, y0f, y0)                                                               \
  X(y1, y1f, y1)
#define BD_MATH2_LIST(X)                                                       \
  X(pow, powf, pow)                                                            \
  X(atan2, atan2f, atan2)                                                      \
  X(hypot, hypotf, hypot)                                                      \
  X(fmod, fmodf, fmod)

BD_MATH1_LIST(BD__MATH1)
BD_MATH2_LIST(BD__MATH2)

/* Which implementation each one-argument function uses, float (f32n, f32d)
 * and double (f64d): lib = bd__lib_* (libbatchdiff_rt, SLEEF), fast =
 * bd__fast_* (inline, vmath_fast.h). A function moves to fast only when it
 * is within its bound and measured faster (docs/runtime.md). */
#define BD_MATH1_IMPL_LIST(X)                                                  \
  X(cbrt, lib, lib)                                                            \
  X(exp, fast, fast)                                                           \
  X(exp2, lib, lib)                                                            \
  X(exp10, lib, lib)                                                           \
  X(expm1, fast, fast)                                                         \
  X(log, fast, fast)                                                           \
  X(log2, lib, lib)                                                            \
  X(log10, lib, lib)                                                           \
  X(log1p, fast, fast)                                                         \
  X(sin, lib, fast)                                                            \
  X(cos, lib, fast)                                                            \
  X(tan, lib, lib)                                                             \
  X(asin, lib, lib)                                                            \
  X(acos, lib, lib)                                                            \
  X(atan, lib, lib)                                                            \
  X(sinh, lib, lib)                                                            \
  X(cosh, lib, lib)                                                            \
  X(tanh, fast, fast)                                                          \
  X(asinh, lib, lib)                                                           \
  X(acosh, lib, lib)                                                           \
  X(atanh, lib, lib)                                                           \
  X(erf, fast, fast)                                                           \
  X(erfc, fast, fast)                                                          \
  X(lgamma, lib, lib)                                                          \
  X(tgamma, lib, lib)                                                          \
  X(j0, lib, lib)                                                              \
  X(j1, lib, lib)                                                              \
  X(y0, lib, lib)                                                              \
  X(y1, lib, lib)
#define BD__PUB1(fn, fi, di)                                                   \
  BD_INL bd_f32n bd_##fn##_f32n(bd_f32n x) {                                   \
    return bd__##fi##_##fn##_f32n(x);                                          \
  }                                                                            \
  BD_INL bd_f32d bd_##fn##_f32d(bd_f32d x) {                                   \
    return bd__##fi##_##fn##_f32d(x);                                          \
  }                                                                            \
  BD_INL bd_f64d bd_##fn##_f64d(bd_f64d x) { return bd__##di##_##fn##_f64d(x); }
BD_MATH1_IMPL_LIST(BD__PUB1)
/* The same for the two-argument functions: pow (float and double) is inline
 * in FMA builds (vmath_pow.h; bd__fast_pow_T is the library's without FMA). */
#define BD_MATH2_IMPL_LIST(X)                                                  \
  X(pow, fast, fast)                                                           \
  X(atan2, lib, lib)                                                           \
  X(hypot, lib, lib)                                                           \
  X(fmod, lib, lib)
#define BD__PUB2(fn, fi, di)                                                   \
  BD_INL bd_f32n bd_##fn##_f32n(bd_f32n x, bd_f32n y) {                        \
    return bd__##fi##_##fn##_f32n(x, y);                                       \
  }                                                                            \
  BD_INL bd_f32d bd_##fn##_f32d(bd_f32d x, bd_f32d y) {                        \
    return bd__##fi##_##fn##_f32d(x, y);                                       \
  }                                                                            \
  BD_INL bd_f64d bd_##fn##_f64d(bd_f64d x, bd_f64d y) {                        \
    return bd__##di##_##fn##_f64d(x, y);                                       \
  }
BD_MATH2_IMPL_LIST(BD__PUB2)

/* bd_ool_<fn>_T: the same function for generated code compiled with
 * -fplugin-arg-batchdiff-math=outline: an inline body (fast) becomes one
 * noinline copy per file, emitted only where called, instead of a copy at
 * every call (compile time, docs/compile-time.md); a library call (lib)
 * stays a direct call. The same bits either way. */
#define BD__OOL_fast static __attribute__((__noinline__, __unused__))
#define BD__OOL_lib BD_INL
#define BD__OOL1(fn, fi, di)                                                   \
  BD__OOL_##fi bd_f32n bd_ool_##fn##_f32n(bd_f32n x) {                         \
    return bd_##fn##_f32n(x);                                                  \
  }                                                                            \
  BD__OOL_##fi bd_f32d bd_ool_##fn##_f32d(bd_f32d x) {                         \
    return bd_##fn##_f32d(x);                                                  \
  }                                                                            \
  BD__OOL_##di bd_f64d bd_ool_##fn##_f64d(bd_f64d x) {                         \
    return bd_##fn##_f64d(x);                                                  \
  }
BD_MATH1_IMPL_LIST(BD__OOL1)
#define BD__OOL2(fn, fi, di)                                                   \
  BD__OOL_##fi bd_f32n bd_ool_##fn##_f32n(bd_f32n x, bd_f32n y) {              \
    return bd_##fn##_f32n(x, y);                                               \
  }                                                                            \
  BD__OOL_##fi bd_f32d bd_ool_##fn##_f32d(bd_f32d x, bd_f32d y) {              \
    return bd_##fn##_f32d(x, y);                                               \
  }                                                                            \
  BD__OOL_##di bd_f64d bd_ool_##fn##_f64d(bd_f64d x, bd_f64d y) {              \
    return bd_##fn##_f64d(x, y);                                               \
  }
BD_MATH2_IMPL_LIST(BD__OOL2)

/* jn, yn (POSIX: Bessel functions of integer order n): libm's per lane, the
 * scalar function's bits (SLEEF has none). The lanes pass through arrays:
 * no vector type crosses the library's ABI, so one entry point serves
 * every width; the call costs far more than the copies. */
BD_RT_API void bd_rt_jn_lanes(int, const int32_t *, const double *, double *);
BD_RT_API void bd_rt_jnf_lanes(int, const int32_t *, const float *, float *);
BD_RT_API void bd_rt_yn_lanes(int, const int32_t *, const double *, double *);
BD_RT_API void bd_rt_ynf_lanes(int, const int32_t *, const float *, float *);
#define BD__BESSELN(fn, cf, T, E, NI)                                          \
  BD_INL bd_##T bd_##fn##_##T(NI n, bd_##T x) {                                \
    enum { L_ = sizeof(bd_##T) / sizeof(E) };                                  \
    int32_t n_[L_];                                                            \
    E x_[L_], r_[L_];                                                          \
    bd_##T r;                                                                  \
    __builtin_memcpy(n_, &n, sizeof n_);                                       \
    __builtin_memcpy(x_, &x, sizeof x_);                                       \
    bd_rt_##cf##_lanes(L_, n_, x_, r_);                                        \
    __builtin_memcpy(&r, r_, sizeof r);                                        \
    return r;                                                                  \
  }                                                                            \
  BD__OOL_lib bd_##T bd_ool_##fn##_##T(NI n, bd_##T x) {                       \
    return bd_##fn##_##T(n, x);                                                \
  }
BD__BESSELN(jn, jnf, f32n, float, bd_i32n)
BD__BESSELN(jn, jnf, f32d, float, bd_i32d)
BD__BESSELN(jn, jn, f64d, double, bd_i32d)
BD__BESSELN(yn, ynf, f32n, float, bd_i32n)
BD__BESSELN(yn, ynf, f32d, float, bd_i32d)
BD__BESSELN(yn, yn, f64d, double, bd_i32d)

/* Exact functions: the builtins are the LLVM intrinsics clang emits for the
 * scalar libm calls (llvm.sqrt, llvm.round, ...). fmin and fmax are not
 * llvm.minnum/maxnum: on x86 their result for (-0, +0) depends on what LLVM
 * can prove about the operands (docs/abi.md), so here a tie of zeros
 * returns x, the first operand, always (what clang's scalar code gives when
 * nothing is known; the plugin swaps the operands where clang's would give
 * the second, see plugin/transforms/simplify), and a NaN operand yields the
 * other one. */
#define BD__EXACT(T)                                                           \
  BD_INL bd_##T bd_sqrt_##T(bd_##T x) {                                        \
    return __builtin_elementwise_sqrt(x);                                      \
  }                                                                            \
  BD_INL bd_##T bd_fabs_##T(bd_##T x) { return __builtin_elementwise_abs(x); } \
  BD_INL bd_##T bd_floor_##T(bd_##T x) {                                       \
    return __builtin_elementwise_floor(x);                                     \
  }                                                                            \
  BD_INL bd_##T bd_ceil_##T(bd_##T x) {                                        \
    return __builtin_elementwise_ceil(x);                                      \
  }                                                                            \
  BD_INL bd_##T bd_trunc_##T(bd_##T x) {                                       \
    return __builtin_elementwise_trunc(x);                                     \
  }                                                                            \
  BD_INL bd_##T bd_round_##T(bd_##T x) {                                       \
    return __builtin_elementwise_round(x);                                     \
  }                                                                            \
  BD_INL bd_##T bd_fmin_##T(bd_##T x, bd_##T y) {                              \
    __typeof__(x < y) t = (y < x) | (x != x);                                  \
    return (bd_##T)(((__typeof__(t))y & t) | ((__typeof__(t))x & ~t));         \
  }                                                                            \
  BD_INL bd_##T bd_fmax_##T(bd_##T x, bd_##T y) {                              \
    __typeof__(x < y) t = (y > x) | (x != x);                                  \
    return (bd_##T)(((__typeof__(t))y & t) | ((__typeof__(t))x & ~t));         \
  }                                                                            \
  BD_INL bd_##T bd_copysign_##T(bd_##T x, bd_##T y) {                          \
    return __builtin_elementwise_copysign(x, y);                               \
  }                                                                            \
  BD_INL bd_##T bd_fma_##T(bd_##T x, bd_##T y, bd_##T z) {                     \
    return __builtin_elementwise_fma(x, y, z);                                 \
  }
BD__EXACT(f32n)
BD__EXACT(f32d)
BD__EXACT(f64d)

#ifdef __cplusplus
}
#endif

/* ldexp, ilogb, rint, remainder, ...: exact, inline (it includes <math.h>,
 * which must not be inside extern "C"). */
#include <batchdiff/vmath_bits.h>
/* digamma, trigamma: the derivatives of lgamma and tgamma. */
#include <batchdiff/vmath_gamma.h>
/* log1pexp: log1p(exp(x)) as one function (the plugin fuses the pair). */
#include <batchdiff/vmath_log1pexp.h>
/* bd_dfr_*: exp, log, log1p, erfc with the rare lanes' test deferred to
 * the caller (generated kernels). */
#include <batchdiff/vmath_defer.h>

#include <batchdiff/macro_shield.h>
#endif /* BATCHDIFF_VMATH_H */
