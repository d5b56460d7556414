#pragma clang system_header
/* batchdiff vector math: digamma and trigamma, the derivatives of lgamma
 * and tgamma (lgamma' = digamma, tgamma' = tgamma digamma, digamma' =
 * trigamma). <math.h> has neither, so the plugin calls these under the
 * names __bd_digamma / __bd_trigamma (users cannot); the scalar forms serve
 * uniform values.
 *
 * x < 1/2 is reflected (digamma(x) = digamma(1 - x) - pi / tan(pi x),
 * trigamma(x) = pi^2 / sin^2(pi x) - trigamma(1 - x), with pi x reduced by
 * rint first so that large |x| keeps its accuracy); x < 10 is shifted up by
 * the recurrences digamma(x) = digamma(x + 1) - 1/x and trigamma(x) =
 * trigamma(x + 1) + 1/x^2, the shifted terms summed as one fraction (one
 * division instead of ten); from 10 on the asymptotic series, truncated
 * after x^-14 (digamma) / x^-15 (trigamma), below 1e-16 relative there.
 * Measured against a long double reference (tests/runtime/test_gamma.c):
 * a few ULP away from digamma's root 1.4616..., where the error is
 * absolute (~2e-16). Poles (0, -1, -2, ...) give an infinity or NaN.
 *
 * Written once (BD__DIGAMMA_BODY, BD__TRIGAMMA_BODY) over a select and a
 * comparison, for vectors of any width and for scalars. Included by
 * vmath.h after the functions it calls (log, sin, tan, rint). */
#ifndef BATCHDIFF_VMATH_GAMMA_H
#define BATCHDIFF_VMATH_GAMMA_H
#include <batchdiff/macro_shield.h> /* hides the user's macros until its end */

#define BD__PI 3.14159265358979323846

/* SEL(m, a, b): a where the mask m (from LT) is set; ANY(m): some lane. */
#define BD__DIGAMMA_BODY(T, E, SEL, LT, ANY, LOG, TAN, RINT)                   \
  T refl = (T){0};                                                             \
  if (ANY(LT(x, (T){0} + (E)0.5))) {                                           \
    /* tan has period 1 in x: pi (x - rint(x)) is exact enough. */             \
    T r = x - RINT(x);                                                         \
    T t = (E)BD__PI / TAN((E)BD__PI * r);                                      \
    refl = SEL(LT(x, (T){0} + (E)0.5), t, refl);                               \
    x = SEL(LT(x, (T){0} + (E)0.5), (E)1 - x, x);                              \
  }                                                                            \
  /* The shifted terms -sum 1/(x + k) as p / q. */                             \
  T p = (T){0}, q = p + (E)1;                                                  \
  for (int i_ = 0; i_ < 10; i_++) {                                            \
    T pn = p * x + q, qn = q * x;                                              \
    p = SEL(LT(x, (T){0} + (E)10), pn, p);                                     \
    q = SEL(LT(x, (T){0} + (E)10), qn, q);                                     \
    x = SEL(LT(x, (T){0} + (E)10), x + (E)1, x);                               \
  }                                                                            \
  T ix = (E)1 / x, z = ix * ix;                                                \
  T s = (E)(1.0 / 12) -                                                        \
        z * ((E)(1.0 / 120) -                                                  \
             z * ((E)(1.0 / 252) -                                             \
                  z * ((E)(1.0 / 240) -                                        \
                       z * ((E)(1.0 / 132) -                                   \
                            z * ((E)(691.0 / 32760) - z * (E)(1.0 / 12))))));  \
  return LOG(x) - (E)0.5 * ix - z * s - p / q - refl;

#define BD__TRIGAMMA_BODY(T, E, SEL, LT, ANY, SIN, RINT)                       \
  T refl = (T){0}, sign = refl + (E)1;                                         \
  if (ANY(LT(x, (T){0} + (E)0.5))) {                                           \
    T r = x - RINT(x);                                                         \
    T sn = SIN((E)BD__PI * r);                                                 \
    T t = (E)(BD__PI * BD__PI) / (sn * sn);                                    \
    refl = SEL(LT(x, (T){0} + (E)0.5), t, refl);                               \
    sign = SEL(LT(x, (T){0} + (E)0.5), -sign, sign);                           \
    x = SEL(LT(x, (T){0} + (E)0.5), (E)1 - x, x);                              \
  }                                                                            \
  /* The shifted terms sum 1/(x + k)^2 as p / q. */                            \
  T p = (T){0}, q = p + (E)1;                                                  \
  for (int i_ = 0; i_ < 10; i_++) {                                            \
    T x2 = x * x;                                                              \
    T pn = p * x2 + q, qn = q * x2;                                            \
    p = SEL(LT(x, (T){0} + (E)10), pn, p);                                     \
    q = SEL(LT(x, (T){0} + (E)10), qn, q);                                     \
    x = SEL(LT(x, (T){0} + (E)10), x + (E)1, x);                               \
  }                                                                            \
  T ix = (E)1 / x, z = ix * ix;                                                \
  T s = (E)(1.0 / 6) -                                                         \
        z * ((E)(1.0 / 30) -                                                   \
             z * ((E)(1.0 / 42) -                                              \
                  z * ((E)(1.0 / 30) -                                         \
                       z * ((E)(5.0 / 66) -                                    \
                            z * ((E)(691.0 / 2730) - z * (E)(7.0 / 6))))));    \
  T tail = ix + z * ((E)0.5 + ix * s);                                         \
  return refl + sign * (tail + p / q);

/* Scalars (uniform values in generated code). */
#define BD__SSEL(m, a, b) ((m) ? (a) : (b))
#define BD__SLT(a, b) ((a) < (b))
#define BD__SANY(m) (m)
static inline __attribute__((unused)) double __bd_digamma(double x) {
  BD__DIGAMMA_BODY(double, double, BD__SSEL, BD__SLT, BD__SANY, log, tan, rint)
}
static inline __attribute__((unused)) float __bd_digammaf(float x) {
  BD__DIGAMMA_BODY(float, float, BD__SSEL, BD__SLT, BD__SANY, logf, tanf, rintf)
}
static inline __attribute__((unused)) double __bd_trigamma(double x) {
  BD__TRIGAMMA_BODY(double, double, BD__SSEL, BD__SLT, BD__SANY, sin, rint)
}
static inline __attribute__((unused)) float __bd_trigammaf(float x){
    BD__TRIGAMMA_BODY(float, float, BD__SSEL, BD__SLT, BD__SANY, sinf, rintf)}

/* Vectors: SI is the integer vector of T's lanes. */
#define BD__GAMMA_VEC(T, E, SI)                                                \
  BD_INL bd_##T bd_digamma_##T(bd_##T x){BD__DIGAMMA_BODY(                     \
      bd_##T, E, BD__VSEL_##T, BD__VLT_##T, BD__VANY, bd_log_##T, bd_tan_##T,  \
      bd_rint_##T)} BD_INL bd_##T bd_trigamma_##T(bd_##T x) {                  \
    BD__TRIGAMMA_BODY(bd_##T, E, BD__VSEL_##T, BD__VLT_##T, BD__VANY,          \
                      bd_sin_##T, bd_rint_##T)                                 \
  }
#define BD__VANY(m) (__builtin_reduce_or(m) != 0)
#define BD__VSEL_f32n(m, a, b)                                                 \
  ((bd_f32n)BD__BSEL(m, (bd_i32n)(a), (bd_i32n)(b)))
#define BD__VLT_f32n(a, b) ((bd_i32n)((a) < (b)))
#define BD__VSEL_f32d(m, a, b)                                                 \
  ((bd_f32d)BD__BSEL(m, (bd_i32d)(a), (bd_i32d)(b)))
#define BD__VLT_f32d(a, b) ((bd_i32d)((a) < (b)))
#define BD__VSEL_f64d(m, a, b)                                                 \
  ((bd_f64d)BD__BSEL(m, (bd_i64d)(a), (bd_i64d)(b)))
#define BD__VLT_f64d(a, b) ((bd_i64d)((a) < (b)))
BD__GAMMA_VEC(f32n, float, bd_i32n) BD__GAMMA_VEC(f32d, float, bd_i32d)
    BD__GAMMA_VEC(f64d, double, bd_i64d)

/* Out-of-line copies for -fplugin-arg-batchdiff-math=outline (vmath.h's
 * bd_ool_*): one noinline copy per file, emitted only where called. */
#define BD__GAMMA_OOL(T)                                                       \
  static __attribute__((__noinline__, __unused__)) bd_##T                      \
      bd_ool_digamma_##T(bd_##T x) {                                           \
    return bd_digamma_##T(x);                                                  \
  }                                                                            \
  static __attribute__((__noinline__, __unused__)) bd_##T                      \
      bd_ool_trigamma_##T(bd_##T x) {                                          \
    return bd_trigamma_##T(x);                                                 \
  }
BD__GAMMA_OOL(f32n)
BD__GAMMA_OOL(f32d)
BD__GAMMA_OOL(f64d)

#include <batchdiff/macro_shield.h>
#endif /* BATCHDIFF_VMATH_GAMMA_H */
