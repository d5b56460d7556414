#pragma clang system_header
/* batchdiff vector math: log1pexp(x) = log1p(exp(x)) (softplus) as one
 * function. <math.h> has none: the plugin fuses a call log1p(exp(a)) of a
 * kernel into __bd_log1pexp (users cannot name it), whose vector forms are
 * bd_log1pexp_*; the scalar forms (uniform values) are the pair itself.
 *
 * 16 floats (bd_f32n) in 64-byte builds with AVX-512F, Zen 4 included
 * (logistic_loss_batched 0.68 -> 0.44 ns there): with e = exp(x) in (0, 1]
 * for x <= 0, neither exp's overflow and reduction nor log1p's are needed.
 * k = round(-2x) in [0, 31] (x >= -15.5), x0 = -k/2, t = x - x0 exact (|t|
 * <= 1/4); log1pexp(x0 + t) = c0 + c1 t + t^2 Q(t), Q of degree 4, per k
 * (2^-28 relative: rows of 32 read by one vpermi2ps each,
 * scripts/gen-log1pexp-table.py). c1 t is added
 * to c0 = c0h + c0l with its rounding error kept (hi = c0h + c1 t by one
 * fma; c0h - hi exact by Sterbenz, as c1 t <= c0h / 4, so fma(t, c1, c0h -
 * hi) is the error), the rest in the low part: 0.612 ULP over every float
 * x <= 0 against log1p(exp(x)) in double (the pair bd_log1p_f32n(bd_exp_f32n)
 * is 1.50 there: exp's rounding passes on), 25 operations per vector against
 * about 45 and a division. x > 0 is x + log1pexp(-x): x and hi summed
 * exactly (Fast2Sum on their max and min), the low parts added after; one
 * formula for both signs (for x <= 0 the sum is hi + 0, the same bits), the
 * positive part skipped when no lane is positive. Lanes with |x| > 15.5 go
 * to a cold function: x < -15.5 in double, exp(x) (1 - exp(x) / 2); x > 15.5
 * gives x (the rest is below half an ULP), and +inf beyond 0x1.62e42ep6,
 * where exp(x) overflows in float, as the pair does. NaN stays NaN.
 *
 * Elsewhere (bd_f32d, bd_f64d, other builds) bd_log1pexp_T is
 * bd_log1p_T(bd_exp_T(x)), the pair's bits. Included by vmath.h after the
 * functions it calls. docs/runtime.md. */
#ifndef BATCHDIFF_VMATH_LOG1PEXP_H
#define BATCHDIFF_VMATH_LOG1PEXP_H
#include <batchdiff/macro_shield.h> /* hides the user's macros until its end */

#if BD_VBYTES == 64 && defined(__AVX512F__)
#define BD__L1PE_TABLE 1
#include "vmath_log1pexp_tab.h"

#pragma float_control(push)
#pragma float_control(precise, on)
#pragma clang fp contract(off)

/* t[i & 31] per lane, t a row of 32 floats (64-byte aligned). */
BD_INL bd_f32n bd__l1pe_lut32(const float *t, bd_i32n i) {
  bd__x16sf lo, hi;
  __builtin_memcpy(&lo, t, sizeof lo);
  __builtin_memcpy(&hi, t + 16, sizeof hi);
  return (bd_f32n)__builtin_ia32_vpermi2varps512(lo, (bd__x16si)i, hi);
}

/* |x| > 15.5: x < -15.5 in double (1 - e/2 is log1p(e)/e to 2^-46 for e <=
 * 2^-22; exp to 2^-28.8, clamped at -150: 0 in float); x > 15.5: x, or +inf
 * where expf(x) overflows. */
BD__COLD bd_f32n bd__l1pe_fix_f32n(bd_f32n x, bd_f32n r) {
  bd__dn d = __builtin_convertvector(x, bd__dn);
  d = __builtin_elementwise_max(d, (bd__dn){0} - 150.0);
  bd__dn e = bd__fexpk_dn(d);
  bd_f32n neg = __builtin_convertvector(e - 0.5 * e * e, bd_f32n);
  bd_f32n pos = BD__FSEL(bd_i32n, (bd_i32n)(x > 0x1.62e42ep6f),
                         (bd_f32n){0} + __builtin_inff(), x);
  bd_f32n big = BD__FSEL(bd_i32n, (bd_i32n)(x < 0.0f), neg, pos);
  return BD__FSEL(bd_i32n, (bd_i32n)(x * x > 240.25f), big, r);
}

BD_INL bd_f32n bd_log1pexp_f32n(bd_f32n x) {
  static const float k[BD__L1PE_NROWS + 3][32]
      __attribute__((__aligned__(64))) = {BD__L1PE_ROWS, BD__R16(-2.0f),
                                          BD__R16(0x1.8p23f), BD__R16(0.5f)};
  const float *K = &k[0][0];
  __asm__ volatile("" : "+r"(K)); /* volatile: see bd__flog1pk_ */
#define BD__C(j) bd__l1pe_lut32(K + 32 * (j), i)
#define BD__R(j) bd__fld_f32n(K + 32 * (BD__L1PE_NROWS + (j)))
  bd_i32n sgn = (bd_i32n)x & (int32_t)0x80000000;
  bd_f32n a = (bd_f32n)((bd_i32n)x | (int32_t)0x80000000); /* -|x| */
  bd_f32n z = BD__FMA(a, BD__R(0), BD__R(1)); /* k in the low bits */
  bd_f32n t = BD__FMA(z - BD__R(1), BD__R(2), a);
  bd_i32n i = (bd_i32n)z;
  bd_f32n q = BD__FMA(BD__C(7), t, BD__C(6));
  q = BD__FMA(q, t, BD__C(5));
  q = BD__FMA(q, t, BD__C(4));
  q = BD__FMA(q, t, BD__C(3));
  bd_f32n c0 = BD__C(0), c1 = BD__C(2);
  bd_f32n hi = BD__FMA(t, c1, c0);
  bd_f32n lo = BD__FMA(t * t, q, BD__C(1)) + BD__FMA(t, c1, c0 - hi);
#undef BD__C
#undef BD__R
  bd_f32n y;
  if (__builtin_reduce_or(sgn ^ (int32_t)0x80000000)) {
    /* some lane x >= 0 (or a NaN with the sign clear): x + hi + lo, x + hi
     * by Fast2Sum (both >= 0; x <= 0 lanes add 0: hi + lo as below) */
    bd_f32n xp = (bd_f32n)((bd_i32n)x & ~(sgn >> 31));
    bd_f32n mx = BD__FSEL(bd_i32n, (bd_i32n)(xp > hi), xp, hi);
    bd_f32n mn = BD__FSEL(bd_i32n, (bd_i32n)(xp > hi), hi, xp);
    bd_f32n s = mx + mn;
    y = s + ((mn - (s - mx)) + lo);
  } else {
    y = hi + lo;
  }
  if (__builtin_reduce_or((bd_i32n)(a < -15.5f)))
    y = bd__l1pe_fix_f32n(x, y);
  return y;
}
#pragma float_control(pop)
#else
#define BD__L1PE_TABLE 0
BD_INL bd_f32n bd_log1pexp_f32n(bd_f32n x) {
  return bd_log1p_f32n(bd_exp_f32n(x));
}
#endif
BD_INL bd_f32d bd_log1pexp_f32d(bd_f32d x) {
  return bd_log1p_f32d(bd_exp_f32d(x));
}
BD_INL bd_f64d bd_log1pexp_f64d(bd_f64d x) {
  return bd_log1p_f64d(bd_exp_f64d(x));
}

/* Out-of-line copies for -fplugin-arg-batchdiff-math=outline (vmath.h's
 * bd_ool_*): one noinline copy per file, emitted only where called. */
#define BD__L1PE_OOL(T)                                                        \
  static __attribute__((__noinline__, __unused__))                             \
  bd_##T bd_ool_log1pexp_##T(bd_##T x) {                                       \
    return bd_log1pexp_##T(x);                                                 \
  }
BD__L1PE_OOL(f32n)
BD__L1PE_OOL(f32d)
BD__L1PE_OOL(f64d)

/* Scalars (uniform values in generated code): the pair, the scalar code's
 * bits. */
static inline __attribute__((unused)) double __bd_log1pexp(double x) {
  return log1p(exp(x));
}
static inline __attribute__((unused)) float __bd_log1pexpf(float x) {
  return log1pf(expf(x));
}

#include <batchdiff/macro_shield.h>
#endif /* BATCHDIFF_VMATH_LOG1PEXP_H */
