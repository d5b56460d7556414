/* Wrappers that need more than one SLEEF call: SLEEF 3.5's domain limits and
 * weak spots, found by tests/runtime/test_vmath.c, are patched here. Included
 * by vmath_sse2.c, vmath_avx2.c and vmath_avx512.c after they define:
 *   NF, ND            lanes of the float and double vectors (suffix of names)
 *   VF, VD            those vector types;  VFI, VDI  same-width int vectors
 *   SLF(base, acc)    the SLEEF float function, e.g. Sleef_expf8_u10avx2
 *   SLD(base, acc)    the SLEEF double function
 *   SLF0, SLD0(base)  the same for functions without accuracy variants
 *   SLD_HALVES(fn, x) evaluate the NF-lane double vector x as two VD calls
 * Rare lanes outside SLEEF's range are recomputed with the scalar long double
 * libm (x87, 64-bit mantissa), rounded once to the result type: ~0.5 ULP. */
#include <math.h>

#define BD__PASTE3_(a, b, c) a##b##c
#define BD__PASTE3(a, b, c) BD__PASTE3_(a, b, c)
#define BD__NAME(fn, n) BD__PASTE3(bd_rt_, fn, BD__PASTE3(_, n, ))

typedef double VDW __attribute__((vector_size(NF * 8))); /* NF doubles */

/* Recompute lanes where cond is set with the scalar expression. */
#define BD__FIX(E, N, r, cond, lane_expr)                                      \
  do {                                                                         \
    __typeof__(cond) c_ = (cond);                                              \
    if (__builtin_reduce_or(c_))                                               \
      for (int i = 0; i < (N); i++)                                            \
        if (c_[i])                                                             \
          (r)[i] = (E)(lane_expr);                                             \
  } while (0)

#define BD__ABS(x) __builtin_elementwise_abs(x)

/* Tiny arguments: SLEEF's tanh, asinh, atanh, sinh, tan, log1p are off by
 * just over 1 ULP where f(x) = x + c x^k. One fma with the first Taylor
 * term is within 0.5 ULP there (the next term is below 2^-48 relative).
 * Zeros keep SLEEF's result: the fma would turn -0 into +0. */
#define BD__TINY_ODD(r, x, thr, c)                                             \
  do {                                                                         \
    __typeof__(x) x_ = (x);                                                    \
    __typeof__(x_ < 0) t_ = (BD__ABS(x_) < (thr)) & (x_ != 0);                 \
    if (__builtin_reduce_or(t_)) {                                             \
      __typeof__(x_) p_ = __builtin_elementwise_fma(x_, (c)*x_ * x_, x_);      \
      (r) = (__typeof__(x_))(((__typeof__(t_))p_ & t_) |                       \
                             ((__typeof__(t_))(r) & ~t_));                     \
    }                                                                          \
  } while (0)
#define BD__TINY_EVEN(r, x, thr, c)                                            \
  do {                                                                         \
    __typeof__(x) x_ = (x);                                                    \
    __typeof__(x_ < 0) t_ = (BD__ABS(x_) < (thr)) & (x_ != 0);                 \
    if (__builtin_reduce_or(t_)) {                                             \
      __typeof__(x_) p_ = __builtin_elementwise_fma(x_, (c)*x_, x_);           \
      (r) = (__typeof__(x_))(((__typeof__(t_))p_ & t_) |                       \
                             ((__typeof__(t_))(r) & ~t_));                     \
    }                                                                          \
  } while (0)
#define BD__TF 0x1p-12f  /* odd-term threshold, float */
#define BD__TD 0x1p-26   /* odd-term threshold, double */
#define BD__TEF 0x1p-16f /* even-term threshold, float */
#define BD__TED 0x1p-30  /* even-term threshold, double */

/* sin/cos/tan: SLEEF picks its argument reduction for the whole vector
 * (every lane below TRIGRANGEMAX2: the fast path; every lane below
 * TRIGRANGEMAX: the middle one; else Payne-Hanek), so one large or
 * non-finite lane changed the other lanes' results by an ulp and examples
 * were not independent. Each range is evaluated in a call of its own, with
 * the other lanes replaced by a value of the same range. */
#define BD__SEL(m, a, b)                                                       \
  ((__typeof__(a))(((__typeof__(m))(a) & (m)) | ((__typeof__(m))(b) & ~(m))))
#define BD__TRIG(r, x, F, R2, RMAX, BIG)                                       \
  do {                                                                         \
    __typeof__(x) ax_ = BD__ABS(x);                                            \
    __typeof__(x < 0) a_ = ax_ < (R2);                                         \
    __typeof__(x < 0) b_ = (ax_ >= (R2)) & (ax_ < (RMAX));                     \
    __typeof__(x < 0) c_ = ~(a_ | b_);                                         \
    (r) = F(BD__SEL(a_, x, (__typeof__(x)){0}));                                          \
    if (__builtin_reduce_or(b_)) {                                             \
      __typeof__(x) rb_ = F(BD__SEL(b_, x, (__typeof__(x)){0} + (R2)));                   \
      (r) = BD__SEL(b_, rb_, r);                                               \
    }                                                                          \
    if (__builtin_reduce_or(c_)) {                                             \
      __typeof__(x) rc_ = F(BD__SEL(c_, x, (__typeof__(x)){0} + (BIG)));                  \
      (r) = BD__SEL(c_, rc_, r);                                               \
    }                                                                          \
  } while (0)
#define BD__TRIGF(r, x, F) BD__TRIG(r, x, F, 125.0f, 39000.0f, 1e30f)
#define BD__TRIGD(r, x, F) BD__TRIG(r, x, F, 15.0, 1e14, 1e300)
VF BD__NAME(sinf, NF)(VF x) {
  VF r;
  BD__TRIGF(r, x, SLF(sin, u10));
  return r;
}
VD BD__NAME(sin, ND)(VD x) {
  VD r;
  BD__TRIGD(r, x, SLD(sin, u10));
  return r;
}
VF BD__NAME(cosf, NF)(VF x) {
  VF r;
  BD__TRIGF(r, x, SLF(cos, u10));
  return r;
}
VD BD__NAME(cos, ND)(VD x) {
  VD r;
  BD__TRIGD(r, x, SLD(cos, u10));
  return r;
}
VF BD__NAME(tanf, NF)(VF x) {
  VF r;
  BD__TRIGF(r, x, SLF(tan, u10));
  BD__TINY_ODD(r, x, BD__TF, (float)(1.0 / 3));
  return r;
}
VD BD__NAME(tan, ND)(VD x) {
  VD r;
  BD__TRIGD(r, x, SLD(tan, u10));
  BD__TINY_ODD(r, x, BD__TD, (double)(1.0 / 3));
  return r;
}

#define BD__ODD(fn, cf)                                                        \
  VF BD__NAME(fn##f, NF)(VF x) {                                               \
    VF r = SLF(fn, u10)(x);                                                    \
    BD__TINY_ODD(r, x, BD__TF, (float)(cf));                                   \
    return r;                                                                  \
  }                                                                            \
  VD BD__NAME(fn, ND)(VD x) {                                                  \
    VD r = SLD(fn, u10)(x);                                                    \
    BD__TINY_ODD(r, x, BD__TD, (double)(cf));                                  \
    return r;                                                                  \
  }
BD__ODD(tanh, -1.0 / 3)
BD__ODD(atanh, 1.0 / 3)

/* exp, pow (double): SLEEF returns +-inf for finite results in the top
 * ~2.5e-6 of the range (exp(x) for x in (0x1.62e42fe102c83p+9,
 * log(DBL_MAX)], pow(DBL_MAX, 1), pow(2, 1023.99999)); such lanes are
 * recomputed in long double. Float exp/pow overflow exactly where they should. */
VF BD__NAME(expf, NF)(VF x) { return SLF(exp, u10)(x); }
VD BD__NAME(exp, ND)(VD x) {
  VD r = SLD(exp, u10)(x);
  BD__FIX(double, ND, r, (r == __builtin_inf()) & (x < 710.0), expl(x[i]));
  return r;
}
VF BD__NAME(powf, NF)(VF x, VF y) { return SLF(pow, u10)(x, y); }
VD BD__NAME(pow, ND)(VD x, VD y) {
  VD r = SLD(pow, u10)(x, y);
  BD__FIX(double, ND, r,
          (BD__ABS(r) == __builtin_inf()) & (BD__ABS(x) < __builtin_inf()) &
              (BD__ABS(y) < __builtin_inf()) & (x != 0),
          powl(x[i], y[i]));
  return r;
}

/* log1p overflows to inf for huge x in SLEEF. */
VF BD__NAME(log1pf, NF)(VF x) {
  VF r = SLF(log1p, u10)(x);
  BD__TINY_EVEN(r, x, BD__TEF, -0.5f);
  BD__FIX(float, NF, r, x > 1e30f, log1pl(x[i]));
  return r;
}
VD BD__NAME(log1p, ND)(VD x) {
  VD r = SLD(log1p, u10)(x);
  BD__TINY_EVEN(r, x, BD__TED, -0.5);
  BD__FIX(double, ND, r, x > 1e300, log1pl(x[i]));
  return r;
}

/* sinh/cosh: SLEEF overflows early (|x| > 88 / 709) though the result is
 * still finite up to 89.4 / 710.5. */
#define BD__HYP(fn, TINY)                                                      \
  VF BD__NAME(fn##f, NF)(VF x) {                                               \
    VF r = SLF(fn, u10)(x);                                                    \
    TINY(r, x, BD__TF, 1.0f / 6);                                              \
    BD__FIX(float, NF, r, BD__ABS(x) > 88.0f, fn##l(x[i]));                    \
    return r;                                                                  \
  }                                                                            \
  VD BD__NAME(fn, ND)(VD x) {                                                  \
    VD r = SLD(fn, u10)(x);                                                    \
    TINY(r, x, BD__TD, 1.0 / 6);                                               \
    BD__FIX(double, ND, r, BD__ABS(x) > 709.0, fn##l(x[i]));                   \
    return r;                                                                  \
  }
#define BD__NO_TINY(r, x, thr, c)
BD__HYP(sinh, BD__TINY_ODD)
BD__HYP(cosh, BD__NO_TINY)

/* asinh/acosh: SLEEF returns inf above 2^64 (float) / 2^512 (double). */
#define BD__AHYP(fn, TINY)                                                     \
  VF BD__NAME(fn##f, NF)(VF x) {                                               \
    VF r = SLF(fn, u10)(x);                                                    \
    TINY(r, x, BD__TF, -1.0f / 6);                                             \
    BD__FIX(float, NF, r, BD__ABS(x) > 1e18f, fn##l(x[i]));                    \
    return r;                                                                  \
  }                                                                            \
  VD BD__NAME(fn, ND)(VD x) {                                                  \
    VD r = SLD(fn, u10)(x);                                                    \
    TINY(r, x, BD__TD, -1.0 / 6);                                              \
    BD__FIX(double, ND, r, BD__ABS(x) > 1e150, fn##l(x[i]));                   \
    return r;                                                                  \
  }
BD__AHYP(asinh, BD__TINY_ODD)
BD__AHYP(acosh, BD__NO_TINY)

/* erff: 1.03 ULP on subnormal-range arguments. */
VF BD__NAME(erff, NF)(VF x) {
  VF r = SLF(erf, u10)(x);
  BD__FIX(float, NF, r, BD__ABS(x) < 1e-30f, erfl(x[i]));
  return r;
}
VD BD__NAME(erf, ND)(VD x) { return SLD(erf, u10)(x); }

/* erfcf: SLEEF has only u15; the double version rounded to float is within
 * 0.5 ULP + 2^-29. */
VF BD__NAME(erfcf, NF)(VF x) {
  VDW d = __builtin_convertvector(x, VDW);
  VDW r = SLD_HALVES(SLD(erfc, u15), d);
  return __builtin_convertvector(r, VF);
}
VD BD__NAME(erfc, ND)(VD x) { return SLD(erfc, u15)(x); }

/* lgamma: large relative error near the zeros of lgamma on x < 0 (44 ULP
 * float, 5.6 ULP double) and float overflow above 2^121. */
VF BD__NAME(lgammaf, NF)(VF x) {
  VF r = SLF(lgamma, u10)(x);
  BD__FIX(float, NF, r, (x < 0) | (x > 1e36f), lgammal(x[i]));
  return r;
}
VD BD__NAME(lgamma, ND)(VD x) {
  VD r = SLD(lgamma, u10)(x);
  BD__FIX(double, ND, r, x < 0, lgammal(x[i]));
  return r;
}

/* tgamma: underflowed results on x < 0 lose the sign of zero. */
VF BD__NAME(tgammaf, NF)(VF x) {
  VF r = SLF(tgamma, u10)(x);
  BD__FIX(float, NF, r, x < -30.0f, tgammal(x[i]));
  return r;
}
VD BD__NAME(tgamma, ND)(VD x) {
  VD r = SLD(tgamma, u10)(x);
  BD__FIX(double, ND, r, x < -170.0, tgammal(x[i]));
  return r;
}

/* Bessel functions (POSIX): libm per lane, the scalar function's bits
 * (SLEEF has none; they are rare enough that a call per lane is the
 * honest speed). */
#define BD__PERLANE(fn)                                                        \
  float fn##f(float);  /* (POSIX: <math.h> hides them under -std=c11) */      \
  double fn(double);                                                           \
  VF BD__NAME(fn##f, NF)(VF x) {                                               \
    VF r;                                                                      \
    for (int i = 0; i < NF; i++)                                               \
      r[i] = fn##f(x[i]);                                                      \
    return r;                                                                  \
  }                                                                            \
  VD BD__NAME(fn, ND)(VD x) {                                                  \
    VD r;                                                                      \
    for (int i = 0; i < ND; i++)                                               \
      r[i] = fn(x[i]);                                                         \
    return r;                                                                  \
  }
BD__PERLANE(j0)
BD__PERLANE(j1)
BD__PERLANE(y0)
BD__PERLANE(y1)

/* hypotf in double: squares of floats are exact, so sum and sqrt round once
 * each in double and once more to float (<= 0.5 ULP + 2^-29). */
VF BD__NAME(hypotf, NF)(VF x, VF y) {
  VDW a = __builtin_convertvector(x, VDW), b = __builtin_convertvector(y, VDW);
  VDW aa = a * a, bb = b * b;
  VF r = __builtin_convertvector(__builtin_elementwise_sqrt(aa + bb), VF);
  VFI inf = (BD__ABS(x) == __builtin_inff()) | (BD__ABS(y) == __builtin_inff());
  return (VF)(((VFI)r & ~inf) | ((VFI)((VF){0} + __builtin_inff()) & inf));
}
VD BD__NAME(hypot, ND)(VD x, VD y) { return SLD(hypot, u05)(x, y); }

/* fmod: SLEEF is exact only while the quotient is small (NaN for FLT_MAX /
 * 0.5); other lanes, zeros, infinities and NaNs go to the exact libm fmod. */
VF BD__NAME(fmodf, NF)(VF x, VF y) {
  VF r = SLF0(fmod)(x, y);
  VF ax = BD__ABS(x), ay = BD__ABS(y);
  BD__FIX(float, NF, r, ~((ax < ay * 0x1p20f) & (ay > 0) & (ay < 0x1p100f)),
          fmodf(x[i], y[i]));
  return r;
}
VD BD__NAME(fmod, ND)(VD x, VD y) {
  VD r = SLD0(fmod)(x, y);
  VD ax = BD__ABS(x), ay = BD__ABS(y);
  BD__FIX(double, ND, r, ~((ax < ay * 0x1p20) & (ay > 0) & (ay < 0x1p900)),
          fmod(x[i], y[i]));
  return r;
}
