#pragma clang system_header
/* batchdiff vector API: types, memory, arithmetic, compares, masks,
 * conversions.
 *
 * Usage: #include <batchdiff/batchdiff_rt.h>; generated code calls
 * bd_<op>_<type>(...). Width follows the compile flags: 64-byte vectors when
 * __AVX512F__ is defined, 32-byte when __AVX2__ is, else 16-byte (SSE2).
 * Everything here is static inline over clang vector extensions, with
 * clang's x86 builtins (simd_x86.h) where one x86 instruction is needed
 * (movemask, cvtt, maskload/maskstore, gather, scatter). See
 * docs/runtime.md. */
#ifndef BATCHDIFF_SIMD_H
#define BATCHDIFF_SIMD_H
#include <batchdiff/macro_shield.h> /* hides the user's macros until its end */

#if !defined(__clang__)
#error                                                                         \
    "batchdiff/simd.h needs clang (vector extensions, __builtin_elementwise_*)"
#endif

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* AVX-512F implies AVX2 and FMA: the half-width types use the AVX2 forms.
 * The few x86 instructions needed are clang's builtins (simd_x86.h), not
 * <immintrin.h> or SIMDe: those headers took 0.3-0.5 s to parse in every
 * file that includes this one. */
#if defined(__AVX512F__)
#define BD_VBYTES 64
#elif defined(__AVX2__)
#define BD_VBYTES 32
#else
#define BD_VBYTES 16
#endif
#include <batchdiff/simd_x86.h>
#define BD_WN (BD_VBYTES / 4)
#define BD_WD (BD_VBYTES / 8)

#define BD_INL static __inline__ __attribute__((__always_inline__, __unused__))
#define BD__V(E, N) E __attribute__((__vector_size__(N)))

/* Shape n: 32-bit lanes, full register. */
typedef BD__V(float, BD_VBYTES) bd_f32n;
typedef BD__V(int32_t, BD_VBYTES) bd_i32n;
typedef BD__V(uint32_t, BD_VBYTES) bd_u32n;
typedef BD__V(int32_t, BD_VBYTES) bd_mn;
/* Shape d: BD_WD lanes; 64-bit lanes fill a register, 32-bit lanes half. */
typedef BD__V(double, BD_VBYTES) bd_f64d;
typedef BD__V(int64_t, BD_VBYTES) bd_i64d;
typedef BD__V(uint64_t, BD_VBYTES) bd_u64d;
typedef BD__V(float, BD_VBYTES / 2) bd_f32d;
typedef BD__V(int32_t, BD_VBYTES / 2) bd_i32d;
typedef BD__V(uint32_t, BD_VBYTES / 2) bd_u32d;
typedef BD__V(int64_t, BD_VBYTES) bd_md;
/* Fixed-width helpers (wrapper ABI, half-width math). */
typedef BD__V(float, 16) bd__v4f;
typedef BD__V(double, 16) bd__v2d;
typedef BD__V(int32_t, 16) bd__v4i;
#if BD_VBYTES >= 32
typedef BD__V(float, 32) bd__v8f;
typedef BD__V(double, 32) bd__v4d;
typedef BD__V(int32_t, 32) bd__v8i;
#endif
#if BD_VBYTES == 64
typedef BD__V(float, 64) bd__v16f;
typedef BD__V(double, 64) bd__v8d;
typedef BD__V(int32_t, 64) bd__v16i;
#endif
/* Doubles with one lane per 32-bit lane: exact 32-bit integer division. */
typedef BD__V(double, BD_VBYTES * 2) bd__dn;
typedef BD__V(double, BD_VBYTES) bd__dd;

/* Mask <-> element-width integer vector of each type ("narrow" the mask to
 * the element width, "widen" a compare result to the shape's mask). Only the
 * 32-bit types of shape d differ in width from their mask. */
#define BD__NARROW_f32n(m) ((bd_i32n)(m))
#define BD__NARROW_i32n(m) ((bd_i32n)(m))
#define BD__NARROW_u32n(m) ((bd_i32n)(m))
#define BD__NARROW_f64d(m) ((bd_i64d)(m))
#define BD__NARROW_i64d(m) ((bd_i64d)(m))
#define BD__NARROW_u64d(m) ((bd_i64d)(m))
#define BD__NARROW_f32d(m) __builtin_convertvector((m), bd_i32d)
#define BD__NARROW_i32d(m) __builtin_convertvector((m), bd_i32d)
#define BD__NARROW_u32d(m) __builtin_convertvector((m), bd_i32d)
#define BD__WIDEN_n(c) ((bd_mn)(c))
#define BD__WIDEN_d64(c) ((bd_md)(c))
#define BD__WIDEN_d32(c) __builtin_convertvector((c), bd_md)

/* ---- per-type operations common to all element types ---- */
#define BD__COMMON(T, E, M, S, W, SI)                                          \
  /* No loop: generated code broadcasts constantly, and thousands of tiny      \
   * loops made LLVM's loop passes quadratic in a function's length. The       \
   * bits are copied (exact for any value and rounding mode). */               \
  BD_INL bd_##T bd_splat_##T(E x) {                                            \
    __typeof__(((SI){0})[0]) u;                                                \
    memcpy(&u, &x, sizeof u);                                                  \
    return (bd_##T)(u + (SI){0});                                              \
  }                                                                            \
  BD_INL bd_##T bd_load_##T(const E *p) {                                      \
    bd_##T r;                                                                  \
    memcpy(&r, p, sizeof r);                                                   \
    return r;                                                                  \
  }                                                                            \
  BD_INL void bd_store_##T(E *p, bd_##T v) { memcpy(p, &v, sizeof v); }        \
  BD_INL E bd_lane_##T(bd_##T v, int i) { return v[i]; }                       \
  BD_INL bd_##T bd_insert_##T(bd_##T v, int i, E x) {                          \
    v[i] = x;                                                                  \
    return v;                                                                  \
  }                                                                            \
  BD_INL bd_##T bd_select_##T(M m, bd_##T a, bd_##T b) {                       \
    SI mm = BD__NARROW_##T(m);                                                 \
    return (bd_##T)(((SI)a & mm) | ((SI)b & ~mm));                             \
  }

/* Index vector of gathers/scatters: i32 of shape n, i64 for shape d. */
typedef bd_i32n bd_nidx;
typedef bd_i64d bd_didx;

#define BD__FLOAT(T, E, M, S, W, SI, WIDEN, ONEBITS)                           \
  BD__COMMON(T, E, M, S, W, SI)                                                \
  BD_INL bd_##T bd_add_##T(bd_##T a, bd_##T b) { return a + b; }               \
  BD_INL bd_##T bd_sub_##T(bd_##T a, bd_##T b) { return a - b; }               \
  BD_INL bd_##T bd_mul_##T(bd_##T a, bd_##T b) { return a * b; }               \
  BD_INL bd_##T bd_div_##T(bd_##T a, bd_##T b) { return a / b; }               \
  BD_INL bd_##T bd_neg_##T(bd_##T a) { return -a; }                            \
  BD_INL bd_##T bd_fmuladd_##T(bd_##T a, bd_##T b, bd_##T c) {                 \
    return BD__FMULADD(T, a, b, c);                                            \
  }                                                                            \
  BD_INL M bd_cmpeq_##T(bd_##T a, bd_##T b) { return WIDEN(a == b); }          \
  BD_INL M bd_cmpne_##T(bd_##T a, bd_##T b) { return WIDEN(a != b); }          \
  BD_INL M bd_cmplt_##T(bd_##T a, bd_##T b) { return WIDEN(a < b); }           \
  BD_INL M bd_cmple_##T(bd_##T a, bd_##T b) { return WIDEN(a <= b); }          \
  BD_INL M bd_cmpgt_##T(bd_##T a, bd_##T b) { return WIDEN(a > b); }           \
  BD_INL M bd_cmpge_##T(bd_##T a, bd_##T b) { return WIDEN(a >= b); }          \
  /* In lane order, so the result does not depend on the width's tree. */      \
  BD_INL E bd_hsum_##T(bd_##T v) {                                             \
    E s = v[0];                                                                \
    for (int i = 1; i < (W); i++)                                              \
      s += v[i];                                                               \
    return s;                                                                  \
  }                                                                            \
  BD_INL bd_##T bd_cvt_m##S##_##T(M m) {                                       \
    return (bd_##T)(BD__NARROW_##T(m) & ((SI){0} + ONEBITS));                  \
  }                                                                            \
  /* Derivatives' quotients by one divisor (the plugin's                       \
   * ShareReciprocals.h): a * r for r = 1 / b, within an ULP of a / b where r  \
   * is normal and finite; a / b in the other lanes (b = 0, inf, NaN, or       \
   * |b| near the ends of the range), lane by lane. */                         \
  BD_INL bd_##T bd_recip_##T(bd_##T b) { return 1 / b; }                       \
  BD_INL bd_##T bd_divr_##T(bd_##T a, bd_##T b, bd_##T r) {                    \
    bd_##T q = a * r;                                                          \
    if (__builtin_expect(BD__ANYNOTNORMAL_##T(r), 0)) {                        \
      SI bad = BD__NOTNORMAL(SI, E, r);                                        \
      q = (bd_##T)(((SI)(a / b) & bad) | ((SI)q & ~bad));                      \
    }                                                                          \
    return q;                                                                  \
  }                                                                            \
  /* The primal's quotients by one divisor: a / b rounded as the division      \
   * rounds it, from r = 1 / b: q = a r corrected once by the exact residual   \
   * a - q b (Markstein). Lanes where a or r is outside BD__INRANGE (0, inf,   \
   * NaN, tiny or huge values) divide. */                                      \
  BD_INL bd_##T bd_divx_##T(bd_##T a, bd_##T b, bd_##T r) {                    \
    return BD__DIVX(T, SI, E, a, b, r);                                        \
  }

/* Where |a| and |r| are within [2^-L, 2^L) (L = 500 for double, 60 for
 * float), q = a r is a normal number, the residual a - q b is exact and
 * q + (a - q b) r is the quotient correctly rounded: r = 1/b rounded to
 * nearest, q within an ULP of a / b (Markstein's theorem). Without FMA the
 * division itself (the residual would not be exact). */
#define BD__INRANGE(SI, E, x)                                                  \
  ((SI)(__builtin_elementwise_abs(x) >=                                        \
        (E)(sizeof(E) == 8 ? 0x1p-500 : 0x1p-60)) &                            \
   (SI)(__builtin_elementwise_abs(x) < (E)(sizeof(E) == 8 ? 0x1p500 : 0x1p60)))
#if defined(__FMA__)
#define BD__DIVX(T, SI, E, a, b, r)                                            \
  __extension__({                                                              \
    bd_##T q_ = (a) * (r);                                                     \
    q_ = __builtin_elementwise_fma(__builtin_elementwise_fma(-q_, (b), (a)),   \
                                   (r), q_);                                   \
    SI ok_ = BD__INRANGE(SI, E, a) & BD__INRANGE(SI, E, r);                    \
    if (__builtin_expect(__builtin_reduce_and(ok_) == 0, 0))                   \
      q_ = (bd_##T)(((SI)((a) / (b)) & ~ok_) | ((SI)q_ & ok_));                \
    q_;                                                                        \
  })
#else
#define BD__DIVX(T, SI, E, a, b, r) ((void)(r), (a) / (b))
#endif

/* Lanes of r that are not normal finite numbers (0, subnormal, inf, NaN),
 * and whether there is one (one vfpclass with AVX-512DQ). */
#define BD__NOTNORMAL(SI, E, r)                                                \
  (~((SI)(__builtin_elementwise_abs(r) >=                                      \
          (E)(sizeof(E) == 8 ? 0x1p-1022 : 0x1p-126)) &                        \
     (SI)(__builtin_elementwise_abs(r) <=                                      \
          (E)(sizeof(E) == 8 ? 0x1.fffffffffffffp1023 : 0x1.fffffep127))))
#define BD__ANYNOTNORMAL_f32n(r)                                               \
  (__builtin_reduce_or(BD__NOTNORMAL(bd_i32n, float, r)) != 0)
#define BD__ANYNOTNORMAL_f32d(r)                                               \
  (__builtin_reduce_or(BD__NOTNORMAL(bd_i32d, float, r)) != 0)
#if BD_VBYTES == 64 && defined(__AVX512DQ__)
#define BD__ANYNOTNORMAL_f64d(r)                                               \
  (__builtin_ia32_fpclasspd512_mask((r), 0xbf, (unsigned char)-1) != 0)
#else
#define BD__ANYNOTNORMAL_f64d(r)                                               \
  (__builtin_reduce_or(BD__NOTNORMAL(bd_i64d, double, r)) != 0)
#endif

/* llvm.fmuladd semantics: fused only where the target has FMA. */
#if defined(__FMA__)
#define BD__FMULADD(T, a, b, c) __builtin_elementwise_fma(a, b, c)
#else
#define BD__FMULADD(T, a, b, c) bd__mul_then_add_##T(a, b, c)
#endif

/* Integer arithmetic goes through the unsigned type so that it wraps. */
#define BD__INT(T, E, M, S, W, SI, U, WIDEN, BITS)                             \
  BD__COMMON(T, E, M, S, W, SI)                                                \
  BD_INL bd_##T bd_add_##T(bd_##T a, bd_##T b) {                               \
    return (bd_##T)((U)a + (U)b);                                              \
  }                                                                            \
  BD_INL bd_##T bd_sub_##T(bd_##T a, bd_##T b) {                               \
    return (bd_##T)((U)a - (U)b);                                              \
  }                                                                            \
  BD_INL bd_##T bd_mul_##T(bd_##T a, bd_##T b) {                               \
    return (bd_##T)((U)a * (U)b);                                              \
  }                                                                            \
  BD_INL bd_##T bd_neg_##T(bd_##T a) { return (bd_##T)(-(U)a); }               \
  BD_INL bd_##T bd_and_##T(bd_##T a, bd_##T b) { return a & b; }               \
  BD_INL bd_##T bd_or_##T(bd_##T a, bd_##T b) { return a | b; }                \
  BD_INL bd_##T bd_xor_##T(bd_##T a, bd_##T b) { return a ^ b; }               \
  BD_INL bd_##T bd_not_##T(bd_##T a) { return ~a; }                            \
  BD_INL bd_##T bd_shl_##T(bd_##T a, bd_##T b) {                               \
    return (bd_##T)((U)a << ((U)b & (BITS - 1)));                              \
  }                                                                            \
  BD_INL bd_##T bd_shr_##T(bd_##T a, bd_##T b) {                               \
    return a >> (b & (BITS - 1));                                              \
  }                                                                            \
  BD_INL M bd_cmpeq_##T(bd_##T a, bd_##T b) { return WIDEN(a == b); }          \
  BD_INL M bd_cmpne_##T(bd_##T a, bd_##T b) { return WIDEN(a != b); }          \
  BD_INL M bd_cmplt_##T(bd_##T a, bd_##T b) { return WIDEN(a < b); }           \
  BD_INL M bd_cmple_##T(bd_##T a, bd_##T b) { return WIDEN(a <= b); }          \
  BD_INL M bd_cmpgt_##T(bd_##T a, bd_##T b) { return WIDEN(a > b); }           \
  BD_INL M bd_cmpge_##T(bd_##T a, bd_##T b) { return WIDEN(a >= b); }          \
  BD_INL bd_##T bd_cvt_m##S##_##T(M m) {                                       \
    return (bd_##T)(BD__NARROW_##T(m) & 1);                                    \
  }

/* Separate statements: never contracted under -ffp-contract=on. */
#define BD__MULADD_HELPER(T)                                                   \
  BD_INL bd_##T bd__mul_then_add_##T(bd_##T a, bd_##T b, bd_##T c) {           \
    bd_##T t = a * b;                                                          \
    return t + c;                                                              \
  }
BD__MULADD_HELPER(f32n)
BD__MULADD_HELPER(f32d)
BD__MULADD_HELPER(f64d)

BD__FLOAT(f32n, float, bd_mn, n, BD_WN, bd_i32n, BD__WIDEN_n, 0x3f800000)
BD__FLOAT(f32d, float, bd_md, d, BD_WD, bd_i32d, BD__WIDEN_d32, 0x3f800000)
BD__FLOAT(f64d, double, bd_md, d, BD_WD, bd_i64d, BD__WIDEN_d64,
          0x3ff0000000000000LL)
BD__INT(i32n, int32_t, bd_mn, n, BD_WN, bd_i32n, bd_u32n, BD__WIDEN_n, 32)
BD__INT(u32n, uint32_t, bd_mn, n, BD_WN, bd_i32n, bd_u32n, BD__WIDEN_n, 32)
BD__INT(i32d, int32_t, bd_md, d, BD_WD, bd_i32d, bd_u32d, BD__WIDEN_d32, 32)
BD__INT(u32d, uint32_t, bd_md, d, BD_WD, bd_i32d, bd_u32d, BD__WIDEN_d32, 32)
BD__INT(i64d, int64_t, bd_md, d, BD_WD, bd_i64d, bd_u64d, BD__WIDEN_d64, 64)
BD__INT(u64d, uint64_t, bd_md, d, BD_WD, bd_i64d, bd_u64d, BD__WIDEN_d64, 64)

/* ---- integer division: never traps ----
 * A zero divisor gives 0 and MIN / -1 gives MIN (rem 0). 32-bit lanes divide
 * in double: the quotient of two integers below 2^32 is rounded by less than
 * its distance to the next integer, so truncating it is exact. */
#define BD__DIV32(T, DV, SIGNED, MIN)                                          \
  BD_INL bd_##T bd__safe_divisor_##T(bd_##T a, bd_##T b) {                     \
    bd_##T bad = (bd_##T)(b == 0);                                             \
    if (SIGNED)                                                                \
      bad |= (bd_##T)((a == (MIN)) & (b == -1));                               \
    return (b & ~bad) | (bad & 1);                                             \
  }                                                                            \
  BD_INL bd_##T bd_div_##T(bd_##T a, bd_##T b) {                               \
    bd_##T bs = bd__safe_divisor_##T(a, b);                                    \
    DV q = __builtin_convertvector(a, DV) / __builtin_convertvector(bs, DV);   \
    return __builtin_convertvector(q, bd_##T) & (bd_##T)(b != 0);              \
  }                                                                            \
  BD_INL bd_##T bd_rem_##T(bd_##T a, bd_##T b) {                               \
    bd_##T bs = bd__safe_divisor_##T(a, b);                                    \
    bd_##T q = bd_div_##T(a, bs);                                              \
    return bd_sub_##T(a, bd_mul_##T(q, bs)) & (bd_##T)(b != 0);                \
  }
BD__DIV32(i32n, bd__dn, 1, INT32_MIN)
BD__DIV32(u32n, bd__dn, 0, 0)
BD__DIV32(i32d, bd__dd, 1, INT32_MIN)
BD__DIV32(u32d, bd__dd, 0, 0)

/* 64-bit lanes have no vector divide; the compiler scalarizes. */
#define BD__DIV64(T, SIGNED, MIN)                                              \
  BD_INL bd_##T bd__safe_divisor_##T(bd_##T a, bd_##T b) {                     \
    bd_##T bad = (bd_##T)(b == 0);                                             \
    if (SIGNED)                                                                \
      bad |= (bd_##T)((a == (MIN)) & (b == -1));                               \
    return (b & ~bad) | (bad & 1);                                             \
  }                                                                            \
  BD_INL bd_##T bd_div_##T(bd_##T a, bd_##T b) {                               \
    bd_##T bs = bd__safe_divisor_##T(a, b);                                    \
    return (a / bs) & (bd_##T)(b != 0);                                        \
  }                                                                            \
  BD_INL bd_##T bd_rem_##T(bd_##T a, bd_##T b) {                               \
    bd_##T bs = bd__safe_divisor_##T(a, b);                                    \
    return (a % bs) & (bd_##T)(b != 0);                                        \
  }
BD__DIV64(i64d, 1, INT64_MIN)
BD__DIV64(u64d, 0, 0)

/* ---- narrow integers kept in 32-bit lanes (casts to char / short) ---- */
#define BD__NARROWINT(T, SI)                                                   \
  BD_INL bd_##T bd_sext8_##T(bd_##T a) {                                       \
    return (bd_##T)(((SI)a << 24) >> 24);                                      \
  }                                                                            \
  BD_INL bd_##T bd_zext8_##T(bd_##T a) { return a & 0xff; }                    \
  BD_INL bd_##T bd_sext16_##T(bd_##T a) {                                      \
    return (bd_##T)(((SI)a << 16) >> 16);                                      \
  }                                                                            \
  BD_INL bd_##T bd_zext16_##T(bd_##T a) { return a & 0xffff; }
BD__NARROWINT(i32n, bd_i32n)
BD__NARROWINT(u32n, bd_i32n)
BD__NARROWINT(i32d, bd_i32d)
BD__NARROWINT(u32d, bd_i32d)

/* ---- masks ----
 * bd_mbits_S: one bit per lane (the sign bits). AVX-512 has no movemask: a
 * compare into a k-mask register does it. */
#if BD_VBYTES == 64
#define BD__IOTA_N                                                             \
  { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 }
#define BD__IOTA_D                                                             \
  { 0, 1, 2, 3, 4, 5, 6, 7 }
#define BD__MOVEMASK_N(m) ((int)BD__KMASK_N(m))
#define BD__MOVEMASK_D(m) ((int)BD__KMASK_D(m))
#elif BD_VBYTES == 32
#define BD__IOTA_N                                                             \
  { 0, 1, 2, 3, 4, 5, 6, 7 }
#define BD__IOTA_D                                                             \
  { 0, 1, 2, 3 }
#define BD__MOVEMASK_N(m) BD__MOVMSKPS256(m)
#define BD__MOVEMASK_D(m) BD__MOVMSKPD256(m)
#else
#define BD__IOTA_N                                                             \
  { 0, 1, 2, 3 }
#define BD__IOTA_D                                                             \
  { 0, 1 }
#endif

#define BD__MASK(S, M, W, LE, IOTA, MOVEMASK)                                  \
  BD_INL M bd_and_m##S(M a, M b) { return a & b; }                             \
  BD_INL M bd_or_m##S(M a, M b) { return a | b; }                              \
  BD_INL M bd_xor_m##S(M a, M b) { return a ^ b; }                             \
  BD_INL M bd_andnot_m##S(M a, M b) { return a & ~b; }                         \
  BD_INL M bd_not_m##S(M a) { return ~a; }                                     \
  BD_INL M bd_select_m##S(M c, M a, M b) { return (a & c) | (b & ~c); }        \
  BD_INL int bd_mbits_##S(M m) { return MOVEMASK(m); }                         \
  BD_INL int bd_any_m##S(M m) { return bd_mbits_##S(m) != 0; }                 \
  BD_INL int bd_all_m##S(M m) { return bd_mbits_##S(m) == (1 << (W)) - 1; }    \
  BD_INL int bd_none_m##S(M m) { return bd_mbits_##S(m) == 0; }                \
  BD_INL int bd_mcount_##S(M m) {                                              \
    return __builtin_popcount(bd_mbits_##S(m));                                \
  }                                                                            \
  BD_INL M bd_mtrue_##S(void) { return (M)((M){0} == 0); }                     \
  BD_INL M bd_mfalse_##S(void) { return (M){0}; }                              \
  BD_INL M bd_mfirst_##S(size_t k) {                                           \
    const M iota = IOTA;                                                       \
    return (M)(iota < (LE)(k < (size_t)(W) ? k : (size_t)(W)));                \
  }                                                                            \
  BD_INL M bd_mfromint_##S(int bits) {                                         \
    const M iota = IOTA;                                                       \
    return (M)((((M){0} + (LE)bits) >> iota & 1) != 0);                        \
  }
BD__MASK(n, bd_mn, BD_WN, int32_t, BD__IOTA_N, BD__MOVEMASK_N)
BD__MASK(d, bd_md, BD_WD, int64_t, BD__IOTA_D, BD__MOVEMASK_D)

/* ---- masked and partial memory access ----
 * AVX2 has maskload/maskstore/gather and AVX-512 k-masked loads, stores,
 * gathers and scatters that never fault on masked-off lanes; SSE2 gets one
 * scalar access per active lane. */
#if BD_VBYTES == 64
#define BD__MLOAD_f32n(m, p) (bd_f32n) BD__MASKZ_LOADU_PS512(BD__KMASK_N(m), p)
#define BD__MLOAD_i32n(m, p)                                                   \
  (bd_i32n) BD__MASKZ_LOADU_EPI32_512(BD__KMASK_N(m), p)
#define BD__MLOAD_u32n BD__MLOAD_i32n
#define BD__MLOAD_f64d(m, p) (bd_f64d) BD__MASKZ_LOADU_PD512(BD__KMASK_D(m), p)
#define BD__MLOAD_i64d(m, p)                                                   \
  (bd_i64d) BD__MASKZ_LOADU_EPI64_512(BD__KMASK_D(m), p)
#define BD__MLOAD_u64d BD__MLOAD_i64d
#define BD__MSTORE_f32n(m, p, v) BD__MASK_STOREU_PS512(p, BD__KMASK_N(m), v)
#define BD__MSTORE_i32n(m, p, v) BD__MASK_STOREU_EPI32_512(p, BD__KMASK_N(m), v)
#define BD__MSTORE_u32n BD__MSTORE_i32n
#define BD__MSTORE_f64d(m, p, v) BD__MASK_STOREU_PD512(p, BD__KMASK_D(m), v)
#define BD__MSTORE_i64d(m, p, v) BD__MASK_STOREU_EPI64_512(p, BD__KMASK_D(m), v)
#define BD__MSTORE_u64d BD__MSTORE_i64d
/* The 32-bit types of shape d are 256 bits: k-masked with AVX-512VL, else
 * the AVX2 maskload/maskstore with the mask narrowed to 32-bit lanes. */
#if defined(__AVX512VL__)
#define BD__MLOAD_f32d(m, p) (bd_f32d) BD__MASKZ_LOADU_PS256(BD__KMASK_D(m), p)
#define BD__MLOAD_i32d(m, p)                                                   \
  (bd_i32d) BD__MASKZ_LOADU_EPI32_256(BD__KMASK_D(m), p)
#define BD__MSTORE_f32d(m, p, v) BD__MASK_STOREU_PS256(p, BD__KMASK_D(m), v)
#define BD__MSTORE_i32d(m, p, v) BD__MASK_STOREU_EPI32_256(p, BD__KMASK_D(m), v)
#else
#define BD__MLOAD_f32d(m, p) (bd_f32d) BD__MASKLOAD_PS256(p, BD__NARROW_f32d(m))
#define BD__MLOAD_i32d(m, p)                                                   \
  (bd_i32d) BD__MASKLOAD_EPI32_256(p, BD__NARROW_i32d(m))
#define BD__MSTORE_f32d(m, p, v) BD__MASKSTORE_PS256(p, BD__NARROW_f32d(m), v)
#define BD__MSTORE_i32d(m, p, v)                                               \
  BD__MASKSTORE_EPI32_256(p, BD__NARROW_i32d(m), v)
#endif
#define BD__MLOAD_u32d BD__MLOAD_i32d
#define BD__MSTORE_u32d BD__MSTORE_i32d
#elif BD_VBYTES == 32
#define BD__MLOAD_f32n(m, p) (bd_f32n) BD__MASKLOAD_PS256(p, m)
#define BD__MLOAD_i32n(m, p) (bd_i32n) BD__MASKLOAD_EPI32_256(p, m)
#define BD__MLOAD_u32n BD__MLOAD_i32n
#define BD__MLOAD_f64d(m, p) (bd_f64d) BD__MASKLOAD_PD256(p, m)
#define BD__MLOAD_i64d(m, p) (bd_i64d) BD__MASKLOAD_EPI64_256(p, m)
#define BD__MLOAD_u64d BD__MLOAD_i64d
#define BD__MLOAD_f32d(m, p) (bd_f32d) BD__MASKLOAD_PS128(p, BD__NARROW_f32d(m))
#define BD__MLOAD_i32d(m, p)                                                   \
  (bd_i32d) BD__MASKLOAD_EPI32_128(p, BD__NARROW_i32d(m))
#define BD__MLOAD_u32d BD__MLOAD_i32d
#define BD__MSTORE_f32n(m, p, v) BD__MASKSTORE_PS256(p, m, v)
#define BD__MSTORE_i32n(m, p, v) BD__MASKSTORE_EPI32_256(p, m, v)
#define BD__MSTORE_u32n BD__MSTORE_i32n
#define BD__MSTORE_f64d(m, p, v) BD__MASKSTORE_PD256(p, m, v)
#define BD__MSTORE_i64d(m, p, v) BD__MASKSTORE_EPI64_256(p, m, v)
#define BD__MSTORE_u64d BD__MSTORE_i64d
#define BD__MSTORE_f32d(m, p, v) BD__MASKSTORE_PS128(p, BD__NARROW_f32d(m), v)
#define BD__MSTORE_i32d(m, p, v)                                               \
  BD__MASKSTORE_EPI32_128(p, BD__NARROW_i32d(m), v)
#define BD__MSTORE_u32d BD__MSTORE_i32d
#endif
#if BD_VBYTES >= 32
#define BD__MEMOPS(T, E, M, S, W)                                              \
  BD_INL bd_##T bd_maskload_##T(M m, const E *p) {                             \
    return BD__MLOAD_##T(m, p);                                                \
  }                                                                            \
  BD_INL void bd_maskstore_##T(M m, E *p, bd_##T v) {                          \
    BD__MSTORE_##T(m, p, v);                                                   \
  }                                                                            \
  BD_INL bd_##T bd_loadn_##T(const E *p, size_t k) {                           \
    M m = bd_mfirst_##S(k);                                                    \
    return bd_select_##T(m, bd_maskload_##T(m, p), bd_splat_##T(p[0]));        \
  }                                                                            \
  BD_INL void bd_storen_##T(E *p, bd_##T v, size_t k) {                        \
    bd_maskstore_##T(bd_mfirst_##S(k), p, v);                                  \
  }
#else
#define BD__MEMOPS(T, E, M, S, W)                                              \
  BD_INL bd_##T bd_maskload_##T(M m, const E *p) {                             \
    bd_##T r = {0};                                                            \
    for (int i = 0; i < (W); i++)                                              \
      if (m[i])                                                                \
        r[i] = p[i];                                                           \
    return r;                                                                  \
  }                                                                            \
  BD_INL void bd_maskstore_##T(M m, E *p, bd_##T v) {                          \
    for (int i = 0; i < (W); i++)                                              \
      if (m[i])                                                                \
        p[i] = v[i];                                                           \
  }                                                                            \
  BD_INL bd_##T bd_loadn_##T(const E *p, size_t k) {                           \
    bd_##T r = bd_splat_##T(p[0]);                                             \
    for (size_t i = 1; i < k && i < (size_t)(W); i++)                          \
      r[i] = p[i];                                                             \
    return r;                                                                  \
  }                                                                            \
  BD_INL void bd_storen_##T(E *p, bd_##T v, size_t k) {                        \
    for (size_t i = 0; i < k && i < (size_t)(W); i++)                          \
      p[i] = v[i];                                                             \
  }
#endif
BD__MEMOPS(f32n, float, bd_mn, n, BD_WN)
BD__MEMOPS(i32n, int32_t, bd_mn, n, BD_WN)
BD__MEMOPS(u32n, uint32_t, bd_mn, n, BD_WN)
BD__MEMOPS(f64d, double, bd_md, d, BD_WD)
BD__MEMOPS(f32d, float, bd_md, d, BD_WD)
BD__MEMOPS(i32d, int32_t, bd_md, d, BD_WD)
BD__MEMOPS(u32d, uint32_t, bd_md, d, BD_WD)
BD__MEMOPS(i64d, int64_t, bd_md, d, BD_WD)
BD__MEMOPS(u64d, uint64_t, bd_md, d, BD_WD)

/* Gathers: masked-off lanes are 0 and read nothing. */
#if BD_VBYTES == 64
#define BD__GATHER_f32n(m, b, x)                                               \
  (bd_f32n) BD__GATHER_D_PS512(BD__KMASK_N(m), x, b)
#define BD__GATHER_i32n(m, b, x)                                               \
  (bd_i32n) BD__GATHER_D_EPI32_512(BD__KMASK_N(m), x, b)
#define BD__GATHER_u32n BD__GATHER_i32n
#define BD__GATHER_f64d(m, b, x)                                               \
  (bd_f64d) BD__GATHER_Q_PD512(BD__KMASK_D(m), x, b)
#define BD__GATHER_i64d(m, b, x)                                               \
  (bd_i64d) BD__GATHER_Q_EPI64_512(BD__KMASK_D(m), x, b)
#define BD__GATHER_u64d BD__GATHER_i64d
#define BD__GATHER_f32d(m, b, x)                                               \
  (bd_f32d) BD__GATHER_Q_PS512(BD__KMASK_D(m), x, b)
#define BD__GATHER_i32d(m, b, x)                                               \
  (bd_i32d) BD__GATHER_Q_EPI32_512(BD__KMASK_D(m), x, b)
#define BD__GATHER_u32d BD__GATHER_i32d
#define BD__GATHER(T, E, M, S, W)                                              \
  BD_INL bd_##T bd_gather_##T(M m, const E *base, bd_##S##idx idx) {           \
    return BD__GATHER_##T(m, base, idx);                                       \
  }
#elif BD_VBYTES == 32
#define BD__GATHER_f32n(m, b, x) (bd_f32n) BD__GATHER_D_PS256(b, x, m)
#define BD__GATHER_i32n(m, b, x) (bd_i32n) BD__GATHER_D_EPI32_256(b, x, m)
#define BD__GATHER_u32n BD__GATHER_i32n
#define BD__GATHER_f64d(m, b, x) (bd_f64d) BD__GATHER_Q_PD256(b, x, m)
#define BD__GATHER_i64d(m, b, x) (bd_i64d) BD__GATHER_Q_EPI64_256(b, x, m)
#define BD__GATHER_u64d BD__GATHER_i64d
#define BD__GATHER_f32d(m, b, x)                                               \
  (bd_f32d) BD__GATHER_Q_PS256(b, x, BD__NARROW_f32d(m))
#define BD__GATHER_i32d(m, b, x)                                               \
  (bd_i32d) BD__GATHER_Q_EPI32_256(b, x, BD__NARROW_i32d(m))
#define BD__GATHER_u32d BD__GATHER_i32d
#define BD__GATHER(T, E, M, S, W)                                              \
  BD_INL bd_##T bd_gather_##T(M m, const E *base, bd_##S##idx idx) {           \
    return BD__GATHER_##T(m, base, idx);                                       \
  }
#else
#define BD__GATHER(T, E, M, S, W)                                              \
  BD_INL bd_##T bd_gather_##T(M m, const E *base, bd_##S##idx idx) {           \
    bd_##T r = {0};                                                            \
    for (int i = 0; i < (W); i++)                                              \
      if (m[i])                                                                \
        r[i] = base[idx[i]];                                                   \
    return r;                                                                  \
  }
#endif
BD__GATHER(f32n, float, bd_mn, n, BD_WN)
BD__GATHER(i32n, int32_t, bd_mn, n, BD_WN)
BD__GATHER(u32n, uint32_t, bd_mn, n, BD_WN)
BD__GATHER(f64d, double, bd_md, d, BD_WD)
BD__GATHER(f32d, float, bd_md, d, BD_WD)
BD__GATHER(i32d, int32_t, bd_md, d, BD_WD)
BD__GATHER(u32d, uint32_t, bd_md, d, BD_WD)
BD__GATHER(i64d, int64_t, bd_md, d, BD_WD)
BD__GATHER(u64d, uint64_t, bd_md, d, BD_WD)

/* Gathers of 8- and 16-bit table elements into 32-bit lanes (char and
 * short tables, widened as C promotes them): one lane at a time, since a
 * 32-bit hardware gather would read past the table's last element. */
#define BD__GATHERW(T, EN, E, M, S, W)                                         \
  BD_INL bd_##T bd_gather_##T##_##EN(M m, const E *base, bd_##S##idx idx) {    \
    bd_##T r = {0};                                                            \
    for (int i = 0; i < (W); i++)                                              \
      if (m[i])                                                                \
        r[i] = base[idx[i]];                                                   \
    return r;                                                                  \
  }
BD__GATHERW(i32n, i8, int8_t, bd_mn, n, BD_WN)
BD__GATHERW(i32n, u8, uint8_t, bd_mn, n, BD_WN)
BD__GATHERW(i32n, i16, int16_t, bd_mn, n, BD_WN)
BD__GATHERW(i32n, u16, uint16_t, bd_mn, n, BD_WN)
BD__GATHERW(i32d, i8, int8_t, bd_md, d, BD_WD)
BD__GATHERW(i32d, u8, uint8_t, bd_md, d, BD_WD)
BD__GATHERW(i32d, i16, int16_t, bd_md, d, BD_WD)
BD__GATHERW(i32d, u16, uint16_t, bd_md, d, BD_WD)

/* Gathers lane by lane with plain loads, for a static table that is not
 * const: a gather instruction is a call that takes the table's address,
 * and LLVM's GlobalOpt then no longer makes a table nothing writes
 * constant in the functions of the file that read it (docs/abi.md). */
#define BD__LGATHER(T, E, M, S, W)                                             \
  BD_INL bd_##T bd_lgather_##T(M m, const E *base, bd_##S##idx idx) {          \
    bd_##T r = {0};                                                            \
    for (int i = 0; i < (W); i++)                                              \
      if (m[i])                                                                \
        r[i] = base[idx[i]];                                                   \
    return r;                                                                  \
  }
BD__LGATHER(f32n, float, bd_mn, n, BD_WN)
BD__LGATHER(i32n, int32_t, bd_mn, n, BD_WN)
BD__LGATHER(u32n, uint32_t, bd_mn, n, BD_WN)
BD__LGATHER(f64d, double, bd_md, d, BD_WD)
BD__LGATHER(f32d, float, bd_md, d, BD_WD)
BD__LGATHER(i32d, int32_t, bd_md, d, BD_WD)
BD__LGATHER(u32d, uint32_t, bd_md, d, BD_WD)
BD__LGATHER(i64d, int64_t, bd_md, d, BD_WD)
BD__LGATHER(u64d, uint64_t, bd_md, d, BD_WD)

/* Reads of a small shared table (a const file-scope table, a BD_UNIFORM
 * array of declared extent) at a per-lane index: the table's len elements
 * (len a constant of the generated code) in registers and one two-source
 * permute where they fit (AVX-512: 16 doubles, 32 floats; AVX2: 16
 * floats), else the gather. Masked-off lanes are 0 as the gather's; the
 * table is read up to its len elements only, and LLVM folds a constant
 * table's registers into constants. Indices at or past len read what the
 * gather would not: the scalar function reads past its table there too. */
#if BD_VBYTES == 64
BD_INL bd_f64d bd_tgather_f64d(bd_md m, const double *base, int len,
                               bd_didx idx) {
  if (len < 1 || len > 16)
    return bd_gather_f64d(m, base, idx);
  bd__x8df lo = {0}, hi = {0};
  memcpy(&lo, base, (size_t)(len < 8 ? len : 8) * sizeof(double));
  if (len > 8)
    memcpy(&hi, base + 8, (size_t)(len - 8) * sizeof(double));
  bd_f64d r = (bd_f64d)BD__PERMX2_PD512(lo, idx, hi);
  return bd_select_f64d(m, r, bd_splat_f64d(0));
}
BD_INL bd_f32n bd_tgather_f32n(bd_mn m, const float *base, int len,
                               bd_nidx idx) {
  if (len < 1 || len > 32)
    return bd_gather_f32n(m, base, idx);
  bd__x16sf lo = {0}, hi = {0};
  memcpy(&lo, base, (size_t)(len < 16 ? len : 16) * sizeof(float));
  if (len > 16)
    memcpy(&hi, base + 16, (size_t)(len - 16) * sizeof(float));
  bd_f32n r = (bd_f32n)BD__PERMX2_PS512(lo, idx, hi);
  return bd_select_f32n(m, r, bd_splat_f32n(0));
}
#elif BD_VBYTES == 32
BD_INL bd_f64d bd_tgather_f64d(bd_md m, const double *base, int len,
                               bd_didx idx) {
  (void)len;
  return bd_gather_f64d(m, base, idx);
}
BD_INL bd_f32n bd_tgather_f32n(bd_mn m, const float *base, int len,
                               bd_nidx idx) {
  if (len < 1 || len > 16)
    return bd_gather_f32n(m, base, idx);
  bd__x8sf lo = {0}, hi = {0};
  memcpy(&lo, base, (size_t)(len < 8 ? len : 8) * sizeof(float));
  if (len > 8)
    memcpy(&hi, base + 8, (size_t)(len - 8) * sizeof(float));
  bd_f32n r = (bd_f32n)BD__BLENDV_PS256(BD__PERMVAR_PS256(lo, idx),
                                        BD__PERMVAR_PS256(hi, idx), idx << 28);
  return bd_select_f32n(m, r, bd_splat_f32n(0));
}
#else
BD_INL bd_f64d bd_tgather_f64d(bd_md m, const double *base, int len,
                               bd_didx idx) {
  (void)len;
  return bd_gather_f64d(m, base, idx);
}
BD_INL bd_f32n bd_tgather_f32n(bd_mn m, const float *base, int len,
                               bd_nidx idx) {
  (void)len;
  return bd_gather_f32n(m, base, idx);
}
#endif

/* Scatters: lower lanes first, so colliding indices keep the highest lane
 * (AVX-512 scatters order overlapping writes the same way). */
#if BD_VBYTES == 64
#define BD__SCATTER_f32n(m, b, x, v)                                           \
  BD__SCATTER_D_PS512(b, BD__KMASK_N(m), x, v)
#define BD__SCATTER_i32n(m, b, x, v)                                           \
  BD__SCATTER_D_EPI32_512(b, BD__KMASK_N(m), x, v)
#define BD__SCATTER_u32n BD__SCATTER_i32n
#define BD__SCATTER_f64d(m, b, x, v)                                           \
  BD__SCATTER_Q_PD512(b, BD__KMASK_D(m), x, v)
#define BD__SCATTER_i64d(m, b, x, v)                                           \
  BD__SCATTER_Q_EPI64_512(b, BD__KMASK_D(m), x, v)
#define BD__SCATTER_u64d BD__SCATTER_i64d
#define BD__SCATTER_f32d(m, b, x, v)                                           \
  BD__SCATTER_Q_PS512(b, BD__KMASK_D(m), x, v)
#define BD__SCATTER_i32d(m, b, x, v)                                           \
  BD__SCATTER_Q_EPI32_512(b, BD__KMASK_D(m), x, v)
#define BD__SCATTER_u32d BD__SCATTER_i32d
#define BD__SCATTER(T, E, M, S, W)                                             \
  BD_INL void bd_scatter_##T(M m, E *base, bd_##S##idx idx, bd_##T v) {        \
    BD__SCATTER_##T(m, base, idx, v);                                          \
  }
#else
#define BD__SCATTER(T, E, M, S, W)                                             \
  BD_INL void bd_scatter_##T(M m, E *base, bd_##S##idx idx, bd_##T v) {        \
    for (int i = 0; i < (W); i++)                                              \
      if (m[i])                                                                \
        base[idx[i]] = v[i];                                                   \
  }
#endif
BD__SCATTER(f32n, float, bd_mn, n, BD_WN)
BD__SCATTER(i32n, int32_t, bd_mn, n, BD_WN)
BD__SCATTER(u32n, uint32_t, bd_mn, n, BD_WN)
BD__SCATTER(f64d, double, bd_md, d, BD_WD)
BD__SCATTER(f32d, float, bd_md, d, BD_WD)
BD__SCATTER(i32d, int32_t, bd_md, d, BD_WD)
BD__SCATTER(u32d, uint32_t, bd_md, d, BD_WD)
BD__SCATTER(i64d, int64_t, bd_md, d, BD_WD)
BD__SCATTER(u64d, uint64_t, bd_md, d, BD_WD)

/* Scatters of 32-bit lanes into 8- and 16-bit elements (char, short and
 * _Bool output arrays; the value is already converted as C converts it, so
 * this truncation keeps it): one lane at a time, lower lanes first. */
#define BD__SCATTERW(T, EN, E, M, S, W)                                        \
  BD_INL void bd_scatter_##T##_##EN(M m, E *base, bd_##S##idx idx,             \
                                    bd_##T v) {                                \
    for (int i = 0; i < (W); i++)                                              \
      if (m[i])                                                                \
        base[idx[i]] = (E)v[i];                                                \
  }
BD__SCATTERW(i32n, i8, int8_t, bd_mn, n, BD_WN)
BD__SCATTERW(i32n, u8, uint8_t, bd_mn, n, BD_WN)
BD__SCATTERW(i32n, i16, int16_t, bd_mn, n, BD_WN)
BD__SCATTERW(i32n, u16, uint16_t, bd_mn, n, BD_WN)
BD__SCATTERW(i32d, i8, int8_t, bd_md, d, BD_WD)
BD__SCATTERW(i32d, u8, uint8_t, bd_md, d, BD_WD)
BD__SCATTERW(i32d, i16, int16_t, bd_md, d, BD_WD)
BD__SCATTERW(i32d, u16, uint16_t, bd_md, d, BD_WD)

/* ---- conversions (C semantics) ----
 * Value-preserving and integer-to-integer conversions are plain vector
 * conversions. Float to integer truncates; out-of-range lanes (and NaN) give
 * MIN for signed and 0 for unsigned targets, without ever converting an
 * out-of-range value (that would be poison). */
#define BD__CVT(X, Y)                                                          \
  BD_INL bd_##Y bd_cvt_##X##_##Y(bd_##X v) {                                   \
    return __builtin_convertvector(v, bd_##Y);                                 \
  }
#define BD__CVTF2I(X, EX, SIX, Y, SIY, LO, HI, OOR)                            \
  BD_INL bd_##Y bd_cvt_##X##_##Y(bd_##X v) {                                   \
    SIX ok = (v > (EX)(LO)) & (v < (EX)(HI));                                  \
    bd_##X safe = (bd_##X)((SIX)v & ok);                                       \
    SIY r = (SIY) __builtin_convertvector(safe, bd_##Y);                       \
    SIY oky = __builtin_convertvector(ok, SIY);                                \
    return (bd_##Y)((r & oky) | ((SIY){0} + (OOR) & ~oky));                    \
  }
/* Exclusive upper bounds 2^B, exact in float and double. */
#define BD__U32HI 4294967296.0
#define BD__I64HI 9223372036854775808.0
#define BD__U64HI 18446744073709551616.0

BD_INL bd_i32n bd_cvt_f32n_i32n(bd_f32n v) {
  /* cvttps2dq: INT32_MIN for out-of-range and NaN, like the generic path. */
  return (bd_i32n)BD__CVTTPS_I32N(v);
}
#define BD__F2I32(X, EX, SIX, Y, SIY)                                          \
  BD_INL bd_##Y bd_cvt_##X##_##Y(bd_##X v) {                                   \
    SIX ok = (v >= (EX)-2147483648.0) & (v < (EX)2147483648.0);                \
    bd_##X safe = (bd_##X)((SIX)v & ok);                                       \
    SIY r = (SIY) __builtin_convertvector(safe, bd_##Y);                       \
    SIY oky = __builtin_convertvector(ok, SIY);                                \
    return (bd_##Y)((r & oky) | ((SIY){0} + INT32_MIN & ~oky));                \
  }
#define BD__F2I64(X, EX, SIX, Y, SIY)                                          \
  BD_INL bd_##Y bd_cvt_##X##_##Y(bd_##X v) {                                   \
    SIX ok = (v >= (EX)-9223372036854775808.0) & (v < (EX)BD__I64HI);          \
    bd_##X safe = (bd_##X)((SIX)v & ok);                                       \
    SIY r = (SIY) __builtin_convertvector(safe, bd_##Y);                       \
    SIY oky = __builtin_convertvector(ok, SIY);                                \
    return (bd_##Y)((r & oky) | ((SIY){0} + INT64_MIN & ~oky));                \
  }
BD__CVTF2I(f32n, float, bd_i32n, u32n, bd_i32n, -1.0, BD__U32HI, 0)
BD__CVT(i32n, f32n)
BD__CVT(u32n, f32n)
BD__CVT(i32n, u32n)
BD__CVT(u32n, i32n)

BD__CVT(f64d, f32d)
BD__CVT(f32d, f64d)
BD__F2I32(f64d, double, bd_i64d, i32d, bd_i32d)
BD__F2I32(f32d, float, bd_i32d, i32d, bd_i32d)
BD__CVTF2I(f64d, double, bd_i64d, u32d, bd_i32d, -1.0, BD__U32HI, 0)
BD__CVTF2I(f32d, float, bd_i32d, u32d, bd_i32d, -1.0, BD__U32HI, 0)
BD__F2I64(f64d, double, bd_i64d, i64d, bd_i64d)
BD__F2I64(f32d, float, bd_i32d, i64d, bd_i64d)
BD__CVTF2I(f64d, double, bd_i64d, u64d, bd_i64d, -1.0, BD__U64HI, 0)
BD__CVTF2I(f32d, float, bd_i32d, u64d, bd_i64d, -1.0, BD__U64HI, 0)
#define BD__CVT_FROM_INT(X)                                                    \
  BD__CVT(X, f64d)                                                             \
  BD__CVT(X, f32d)
BD__CVT_FROM_INT(i32d)
BD__CVT_FROM_INT(u32d)
BD__CVT_FROM_INT(i64d)
BD__CVT_FROM_INT(u64d)
BD__CVT(i32d, u32d)
BD__CVT(i32d, i64d)
BD__CVT(i32d, u64d)
BD__CVT(u32d, i32d)
BD__CVT(u32d, i64d)
BD__CVT(u32d, u64d)
BD__CVT(i64d, i32d)
BD__CVT(i64d, u32d)
BD__CVT(i64d, u64d)
BD__CVT(u64d, i32d)
BD__CVT(u64d, u32d)
BD__CVT(u64d, i64d)

#include <batchdiff/macro_shield.h>
#endif /* BATCHDIFF_SIMD_H */
