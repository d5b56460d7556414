/* Differential tests, <math.h>: every supported function in float and
 * double form, each with wide inputs (NaN, +-Inf, +-0, subnormals, huge,
 * random bits) and with inputs spread over its interesting domain.
 *
 * Exact functions (sqrt fabs fmin fmax fma floor ceil trunc round copysign
 * fmod) must equal the scalar result bit for bit. The others come from SLEEF
 * in the batched code and from glibc in the scalar code; for them
 *   - the batched result must be within the SLEEF bound of the exact value
 *     (u10: 1.0 ULP; erfc is u15: 1.5 ULP; hypot is u05: 0.5 ULP; exp10 is
 *     u10 but 1.09 ULP in double), measured
 *     against the x87 long double libm (11 extra bits, so + 0.02 ULP slack);
 *   - and within 5 ULP of the scalar glibc result (docs/runtime.md measures
 *     glibc 2.36 at up to 3.06 ULP for these functions: SLEEF's bound plus
 *     glibc's error, rounded up).
 * Bounds are docs/runtime.md's "bound" column.
 * Special values (NaN, +-Inf, exact zeros) must match the exact result. */
#define _GNU_SOURCE /* exp10 */
#include "exec_util.h"
#include "../common/test_filter.h"

#define SLACK 0.02

/* ---- domain generators (double; float tests round them) ----------------- */

static double dom_any(rng_t *r) { return gen_d(r); }
static double dom_exp(rng_t *r) { /* covers float and double overflow */
  switch (rng_below(r, 6)) {
  case 0: /* right below/above the double overflow thresholds of exp and
             expm1 (log(DBL_MAX) = 0x1.62e42fefa39efp+9) and exp2 (1024) */
    return 0x1.62e42fefa39efp+9 - rng_range(r, -1e-6, 3e-5);
  case 1:
    return 1024.0 - rng_range(r, -1e-9, 1e-5);
  case 2: /* the float thresholds: log(FLT_MAX) = 88.72284, 128 */
    return rng_below(r, 2) ? 88.72284 - rng_range(r, -2e-5, 1e-4)
                           : 128.0 - rng_range(r, -1e-5, 1e-4);
  case 3:
    return rng_range(r, -110, 95);
  default:
    return rng_range(r, -760, 720);
  }
}
static double dom_exp10(rng_t *r) { /* float and double over/underflow */
  switch (rng_below(r, 4)) {
  case 0: /* log10(DBL_MAX) = 308.2547..., log10(FLT_MAX) = 38.5318... */
    return rng_below(r, 2) ? 308.2547155599167 - rng_range(r, -1e-6, 1e-4)
                           : 38.53183944498959 - rng_range(r, -1e-5, 1e-4);
  case 1: /* subnormal results: double below 1e-308, float below 1e-38 */
    return rng_below(r, 2) ? rng_range(r, -324, -307) : rng_range(r, -46, -37);
  case 2:
    return rng_range(r, -46, 39);
  default:
    return rng_range(r, -330, 310);
  }
}
static double dom_pos(rng_t *r) { /* positive, every binade */
  if (rng_below(r, 8) == 0)
    return rng_range(r, 0.5, 2.0);
  return exp2(rng_range(r, -160, 160));
}
static double dom_log1p(rng_t *r) {
  return rng_below(r, 2) ? rng_range(r, -1.0, 2.0) : exp2(rng_range(r, -60, 60));
}
static double dom_trig(rng_t *r) {
  return rng_below(r, 3) ? rng_range(r, -10, 10) : rng_range(r, -1e5, 1e5);
}
static double dom_unit(rng_t *r) { return rng_range(r, -1.1, 1.1); }
static double dom_acosh(rng_t *r) {
  return rng_below(r, 2) ? rng_range(r, 0.9, 3) : exp2(rng_range(r, 0, 60));
}
static double dom_hyp(rng_t *r) { return rng_range(r, -95, 95); }
static double dom_erf(rng_t *r) { return rng_range(r, -6, 28); }
static double dom_mod(rng_t *r) { return rng_range(r, -50, 50); }
static double dom_round(rng_t *r) { /* halves and near-halves */
  double k = (double)(rng_below(r, 41) - 20);
  switch (rng_below(r, 3)) {
  case 0:
    return k + 0.5;
  case 1:
    return nextafter(k + 0.5, rng_below(r, 2) ? 100 : -100);
  default:
    return rng_range(r, -1e7, 1e7);
  }
}
static double dom_pow_x(rng_t *r) {
  switch (rng_below(r, 6)) {
  case 0:
    return -(double)rng_below(r, 5); /* negative base, integer exponents */
  case 1:
    return rng_range(r, 0, 3);
  case 2: /* results near overflow: with y = 1, or 2^y with y near 1024/128 */
    return rng_below(r, 2) ? 2.0
                           : (rng_below(r, 2) ? DBL_MAX : FLT_MAX) *
                                 (1 - rng_range(r, 0, 1e-5));
  default:
    return exp2(rng_range(r, -40, 40));
  }
}
static double dom_pow_y(rng_t *r) {
  switch (rng_below(r, 5)) {
  case 0:
    return (double)(rng_below(r, 9) - 4);
  case 1:
    return rng_below(r, 2) ? 1024.0 - rng_range(r, 0, 1e-5)
                           : 128.0 - rng_range(r, 0, 1e-5);
  default:
    return rng_range(r, -30, 30);
  }
}

#define GEN_F_OF(dom)                                                          \
  static float dom##_f(rng_t *r) { return (float)dom(r); }
GEN_F_OF(dom_any)
GEN_F_OF(dom_exp)
GEN_F_OF(dom_pos)
GEN_F_OF(dom_exp10)
GEN_F_OF(dom_log1p)
GEN_F_OF(dom_trig)
GEN_F_OF(dom_unit)
GEN_F_OF(dom_acosh)
GEN_F_OF(dom_hyp)
GEN_F_OF(dom_erf)
GEN_F_OF(dom_mod)
GEN_F_OF(dom_round)
GEN_F_OF(dom_pow_x)
GEN_F_OF(dom_pow_y)
static float gen_f_any(rng_t *r) { return gen_f(r); }

/* ---- approximated functions ---------------------------------------------- */

static int math_ok_f(float got, float want, long double ref, double bound) {
  return ulp_err_f(got, ref) <= bound + SLACK && ulp_dist_f(got, want) <= 5;
}
static int math_ok_d(double got, double want, long double ref, double bound) {
  return ulp_err_d(got, ref) <= bound + SLACK && ulp_dist_d(got, want) <= 5;
}

/* One-argument function `fn` with SLEEF bound B, tested on wide inputs and
 * on domain DOM. */
#define MATH1(fn, B, DOM)                                                      \
  BATCHDIFF float m_##fn##f(float x) { return fn##f(x); }                      \
  BATCHDIFF double m_##fn(double x) { return fn(x); }                          \
  static int ok_##fn##f(float got, float want, float x) {                      \
    int ok = math_ok_f(got, want, fn##l((long double)x), B);                   \
    if (!ok)                                                                   \
      print_error(#fn "f: ulp err %g vs exact, %g vs glibc\n",                 \
                  ulp_err_f(got, fn##l((long double)x)),                       \
                  ulp_dist_f(got, want));                                      \
    return ok;                                                                 \
  }                                                                            \
  static int ok_##fn(double got, double want, double x) {                      \
    int ok = math_ok_d(got, want, fn##l((long double)x), B);                   \
    if (!ok)                                                                   \
      print_error(#fn ": ulp err %g vs exact, %g vs glibc\n",                  \
                  ulp_err_d(got, fn##l((long double)x)),                       \
                  ulp_dist_d(got, want));                                      \
    return ok;                                                                 \
  }                                                                            \
  DIFF1_AS(fn##f_wide, m_##fn##f, float, ok_##fn##f, 0, V, float, gen_f_any)   \
  DIFF1_AS(fn##f_dom, m_##fn##f, float, ok_##fn##f, 0, V, float, DOM##_f)      \
  DIFF1_AS(fn##_wide, m_##fn, double, ok_##fn, 0, V, double, dom_any)          \
  DIFF1_AS(fn##_dom, m_##fn, double, ok_##fn, 0, V, double, DOM)

#define MATH2(fn, B, DOMX, DOMY)                                               \
  BATCHDIFF float m_##fn##f(float x, float y) { return fn##f(x, y); }          \
  BATCHDIFF double m_##fn(double x, double y) { return fn(x, y); }             \
  static int ok_##fn##f(float got, float want, float x, float y) {             \
    long double ref = fn##l((long double)x, (long double)y);                   \
    int ok = math_ok_f(got, want, ref, B);                                     \
    if (!ok)                                                                   \
      print_error(#fn "f: ulp err %g vs exact, %g vs glibc\n",                 \
                  ulp_err_f(got, ref), ulp_dist_f(got, want));                 \
    return ok;                                                                 \
  }                                                                            \
  static int ok_##fn(double got, double want, double x, double y) {            \
    long double ref = fn##l((long double)x, (long double)y);                   \
    int ok = math_ok_d(got, want, ref, B);                                     \
    if (!ok)                                                                   \
      print_error(#fn ": ulp err %g vs exact, %g vs glibc\n",                  \
                  ulp_err_d(got, ref), ulp_dist_d(got, want));                 \
    return ok;                                                                 \
  }                                                                            \
  DIFF2_AS(fn##f_wide, m_##fn##f, float, ok_##fn##f, 0, V, float, gen_f_any,   \
           V, float, gen_f_any)                                                \
  DIFF2_AS(fn##f_dom, m_##fn##f, float, ok_##fn##f, 0, V, float, DOMX##_f, V,  \
           float, DOMY##_f)                                                    \
  DIFF2_AS(fn##_wide, m_##fn, double, ok_##fn, 0, V, double, dom_any, V,       \
           double, dom_any)                                                    \
  DIFF2_AS(fn##_dom, m_##fn, double, ok_##fn, 0, V, double, DOMX, V, double,   \
           DOMY)

MATH1(cbrt, 1.0, dom_pos)
MATH1(exp, 1.0, dom_exp)
MATH1(exp2, 1.0, dom_exp)
MATH1(exp10, 1.09, dom_exp10) /* SLEEF's exp10 u10 is 1.09 ULP (double) */
MATH1(expm1, 1.0, dom_exp)
MATH1(log, 1.0, dom_pos)
MATH1(log2, 1.0, dom_pos)
MATH1(log10, 1.0, dom_pos)
MATH1(log1p, 1.0, dom_log1p)
MATH1(sin, 1.0, dom_trig)
MATH1(cos, 1.0, dom_trig)
MATH1(tan, 1.0, dom_trig)
MATH1(asin, 1.0, dom_unit)
MATH1(acos, 1.0, dom_unit)
MATH1(atan, 1.0, dom_trig)
MATH1(sinh, 1.0, dom_hyp)
MATH1(cosh, 1.0, dom_hyp)
MATH1(tanh, 1.0, dom_hyp)
MATH1(asinh, 1.0, dom_trig)
MATH1(acosh, 1.0, dom_acosh)
MATH1(atanh, 1.0, dom_unit)
MATH1(erf, 1.0, dom_erf)
MATH1(erfc, 1.5, dom_erf)
MATH2(pow, 1.0, dom_pow_x, dom_pow_y)
MATH2(atan2, 1.0, dom_trig, dom_trig)
MATH2(hypot, 0.5, dom_trig, dom_trig)

/* log1pf(expf(x)): NAME_batched makes it one call of the runtime's
 * log1pexp (transforms/simplify/FuseMath.h), within 1 ULP of the exact
 * composite in AVX-512 builds (0.61 over every float) and the pair's 1.5
 * elsewhere (docs/runtime.md): bound 2 against the exact value, 5 from
 * glibc's pair; where expf overflows, +inf as the pair gives. Any sign
 * (softplus) and logistic regression's -|z|. */
BATCHDIFF float m_softplusf(float x) { return log1pf(expf(x)); }
BATCHDIFF float m_logisticf(float z, float y) {
  float m = z > 0.0f ? z : 0.0f;
  return m + log1pf(expf(-fabsf(z))) - y * z;
}
static int ok_softplusf(float got, float want, float x) {
  if (isinf(want) || isnan(want))
    return CMP_BITS(got, want);
  long double ref = log1pl(expl((long double)x));
  int ok = math_ok_f(got, want, ref, 2.0);
  if (!ok)
    print_error("log1pf(expf): ulp err %g vs exact, %g vs glibc\n",
                ulp_err_f(got, ref), ulp_dist_f(got, want));
  return ok;
}
static int ok_logisticf(float got, float want, float z, float y) {
  long double e = expl(-fabsl((long double)z));
  long double ref = (z > 0 ? (long double)z : 0) + log1pl(e) - (double)(y * z);
  if (isnan(want) || isinf(want))
    return CMP_BITS(got, want);
  /* the sum cancels where y*z is near the rest: relative to max(|ref|, 1) */
  int ok = fabsl(got - ref) <= 1e-6L * fmaxl(fabsl(ref), 1.0L) &&
           fabsf(got - want) <= 1e-6f * fmaxf(fabsf(want), 1.0f);
  if (!ok)
    print_error("logistic: got %a want %a ref %La\n", got, want, ref);
  return ok;
}
static double dom_softplus(rng_t *r) {
  switch (rng_below(r, 4)) {
  case 0: /* the kernel's table and its edges (|x| = 15.5) */
    return rng_range(r, -16, 16);
  case 1: /* expf's overflow at 88.72284 */
    return 88.72284 - rng_range(r, -2e-5, 1e-4);
  case 2: /* subnormal and zero results */
    return rng_range(r, -110, -80);
  default:
    return rng_range(r, -120, 100);
  }
}
GEN_F_OF(dom_softplus)
static float gen_label(rng_t *r) { return (float)rng_below(r, 2); }
DIFF1_AS(softplusf_wide, m_softplusf, float, ok_softplusf, 0, V, float,
         gen_f_any)
DIFF1_AS(softplusf_dom, m_softplusf, float, ok_softplusf, 0, V, float,
         dom_softplus_f)
DIFF2_AS(logisticf_dom, m_logisticf, float, ok_logisticf, 0, V, float,
         dom_softplus_f, V, float, gen_label)

/* ---- exact functions: bit for bit ---------------------------------------- */

#define EXACT1(fn, CMP, DOM)                                                   \
  BATCHDIFF float m_##fn##f(float x) { return fn##f(x); }                      \
  BATCHDIFF double m_##fn(double x) { return fn(x); }                          \
  DIFF1_AS(fn##f_wide, m_##fn##f, float, CMP, 0, V, float, gen_f_any)          \
  DIFF1_AS(fn##f_dom, m_##fn##f, float, CMP, 0, V, float, DOM##_f)             \
  DIFF1_AS(fn##_wide, m_##fn, double, CMP, 0, V, double, dom_any)              \
  DIFF1_AS(fn##_dom, m_##fn, double, CMP, 0, V, double, DOM)
#define EXACT2(fn, CMP, DOM)                                                   \
  BATCHDIFF float m_##fn##f(float x, float y) { return fn##f(x, y); }          \
  BATCHDIFF double m_##fn(double x, double y) { return fn(x, y); }             \
  DIFF2_AS(fn##f_wide, m_##fn##f, float, CMP, 0, V, float, gen_f_any, V,       \
           float, gen_f_any)                                                   \
  DIFF2_AS(fn##f_dom, m_##fn##f, float, CMP, 0, V, float, DOM##_f, V, float,   \
           DOM##_f)                                                            \
  DIFF2_AS(fn##_wide, m_##fn, double, CMP, 0, V, double, dom_any, V, double,   \
           dom_any)                                                            \
  DIFF2_AS(fn##_dom, m_##fn, double, CMP, 0, V, double, DOM, V, double, DOM)

EXACT1(sqrt, CMP_BITS, dom_pos)
EXACT1(fabs, CMP_STRICT, dom_mod)
EXACT1(floor, CMP_BITS, dom_round)
EXACT1(ceil, CMP_BITS, dom_round)
EXACT1(trunc, CMP_BITS, dom_round)
EXACT1(round, CMP_BITS, dom_round)
EXACT2(fmin, CMP_BITS, dom_mod)
EXACT2(fmax, CMP_BITS, dom_mod)
EXACT2(copysign, CMP_STRICT, dom_mod)
EXACT2(fmod, CMP_BITS, dom_mod)

BATCHDIFF float m_fmaf(float x, float y, float z) { return fmaf(x, y, z); }
BATCHDIFF double m_fma(double x, double y, double z) { return fma(x, y, z); }
DIFF3_AS(fmaf_wide, m_fmaf, float, CMP_BITS, 0, V, float, gen_f_any, V, float,
         gen_f_any, V, float, gen_f_any)
DIFF3_AS(fma_wide, m_fma, double, CMP_BITS, 0, V, double, dom_any, V, double,
         dom_any, V, double, dom_any)

/* fmin/fmax with signed zeros: C leaves fmin(-0, +0) either zero, but the
 * batched code must give what the scalar code gives. */
static float gen_zeros_f(rng_t *r) {
  static const float z[] = {0.0f, -0.0f, NAN, 1.0f};
  return z[rng_below(r, 4)];
}
static double gen_zeros_d(rng_t *r) {
  static const double z[] = {0.0, -0.0, NAN, 1.0};
  return z[rng_below(r, 4)];
}
DIFF2_AS(fminf_zeros, m_fminf, float, CMP_BITS, 0, V, float, gen_zeros_f, V,
         float, gen_zeros_f)
DIFF2_AS(fmaxf_zeros, m_fmaxf, float, CMP_BITS, 0, V, float, gen_zeros_f, V,
         float, gen_zeros_f)
DIFF2_AS(fmin_zeros, m_fmin, double, CMP_BITS, 0, V, double, gen_zeros_d, V,
         double, gen_zeros_d)
DIFF2_AS(fmax_zeros, m_fmax, double, CMP_BITS, 0, V, double, gen_zeros_d, V,
         double, gen_zeros_d)

/* Math calls inside expressions, branches and with uniform arguments. */
BATCHDIFF double m_compose(double x, BD_UNIFORM double w) {
  if (x > 0.0)
    return log(x) * w;
  return exp(x * w);
}
static int ok_compose(double got, double want, double x, double w) {
  long double ref = x > 0.0 ? logl(x) * (long double)w : expl((double)(x * w));
  return ulp_err_d(got, ref) <= 2.0 + SLACK && ulp_dist_d(got, want) <= 4;
}
static double dom_w(rng_t *r) { return rng_range(r, -3, 3); }
DIFF2_AS(compose, m_compose, double, ok_compose, 0, V, double, dom_trig, U,
         double, dom_w)

#define TLOG1PEXP                                                              \
  cmocka_unit_test(diff_softplusf_wide), cmocka_unit_test(diff_softplusf_dom), \
      cmocka_unit_test(diff_logisticf_dom)
#define TM(fn)                                                                 \
  cmocka_unit_test(diff_##fn##f_wide), cmocka_unit_test(diff_##fn##f_dom),     \
      cmocka_unit_test(diff_##fn##_wide), cmocka_unit_test(diff_##fn##_dom)

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      TM(cbrt),  TM(exp),   TM(exp2),  TM(expm1), TM(log),   TM(log2),
      TM(log10), TM(log1p), TM(sin),   TM(cos),   TM(tan),   TM(asin),
      TM(acos),  TM(atan),  TM(sinh),  TM(cosh),  TM(tanh),  TM(asinh),
      TM(acosh), TM(atanh), TM(erf),   TM(erfc),  TM(pow),   TM(atan2),
      TM(hypot), TM(sqrt),  TM(fabs),  TM(floor), TM(ceil),  TM(trunc),
      TM(round), TM(fmin),  TM(fmax),  TM(copysign), TM(fmod),
      TM(exp10),
      cmocka_unit_test(diff_fmaf_wide),  cmocka_unit_test(diff_fma_wide),
      cmocka_unit_test(diff_fminf_zeros), cmocka_unit_test(diff_fmaxf_zeros),
      cmocka_unit_test(diff_fmin_zeros), cmocka_unit_test(diff_fmax_zeros),
      cmocka_unit_test(diff_compose),     TLOG1PEXP,
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_math", tests, NULL, NULL);
}
