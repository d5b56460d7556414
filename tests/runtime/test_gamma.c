/* digamma and trigamma (batchdiff/vmath_gamma.h: the derivatives of lgamma
 * and tgamma), every vector type and the scalar forms, against a long double
 * reference computed differently (shifted to x >= 40, series to x^-20, with
 * tanl/sinl for the reflection) and against exact values: digamma(1) = -gamma,
 * digamma(1/2) = -gamma - 2 ln 2, digamma(n + 1) = H_n - gamma,
 * trigamma(1) = pi^2/6, trigamma(1/2) = pi^2/2. Inputs: [-30, 1/2) away from
 * the poles, [1/2, 10), [10, 1e6] log-uniform, huge values, +-Inf, NaN and
 * the poles 0, -1, -7 (non-finite results). The error allowed is relative to
 * the size of the terms summed (absolute near digamma's root 1.4616...). */
#include <batchdiff/batchdiff_rt.h>

#include "test_util.h"

#include "../common/gamma_ref.h"
#include "../common/test_filter.h"

#define NSAMPLES 100000
#define EULER 0.57721566490153286060651209008240243L

/* The size of what is summed: an error of a few ULP of it is rounding. */
static long double scale_digamma(long double x) {
  /* Below 10 the shifted terms (about 2.5) cancel against log(x + k). */
  long double s = 1 + fabsl(ref_digamma(x)) + (x < 10 ? 2.5L : 0);
  if (x < 0.5L)
    s += fabsl(PIL / tanl(PIL * (x - rintl(x)))) + fabsl(ref_digamma(1 - x));
  return s;
}
static long double scale_trigamma(long double x) {
  return 1 + fabsl(ref_trigamma(x)) +
         (x < 0.5L ? fabsl(ref_trigamma(1 - x)) : 0);
}

static double sample(size_t i, uint64_t *rng, int is_double) {
  static const double edge[] = {0.5,   1.0,    1.4616321449683623,
                                2.0,   9.5,    10.0,
                                10.5,  1e6,    1e15,
                                1e300, 3.0e38, -0.5,
                                -2.5,  -29.5,  0x1p-20,
                                1e-5};
  if (i < sizeof edge / sizeof edge[0])
    return edge[i];
  double u = tu_unit(rng), x;
  switch (tu_next(rng) % 3) {
  case 0: /* negative, away from the poles */
    x = -30.0 + 30.5 * u;
    if (fabs(x - rint(x)) < 1e-3)
      x += 0.01;
    break;
  case 1:
    x = 0.5 + 9.5 * u;
    break;
  default:
    x = 10.0 * pow(1e5, u);
  }
  return is_double ? x : (double)(float)x;
}

static void check(long double want, long double scale, double got, double tol,
                  const char *fn, double x, size_t i) {
  if ((long double)got == want) /* infinities too */
    return;
  if (!(fabsl((long double)got - want) <= tol * scale))
    fail_msg("%s(%a) sample %zu: got %a, want %La (error %Lg, allowed %Lg)", fn,
             x, i, got, want, fabsl((long double)got - want), tol * scale);
}

/* Non-finite inputs and poles: digamma(+Inf) = +Inf, trigamma(+Inf) = 0,
 * NaN -> NaN, poles (0, -1, -7) not finite. */
static void check_special(double x, double d, double t, const char *T) {
  int ok = isnan(x)   ? isnan(d) && isnan(t)
           : isinf(x) ? isinf(d) && d > 0 && t == 0
                      : !isfinite(d) && !isfinite(t);
  if (!ok)
    fail_msg("%s: digamma(%g) = %g, trigamma(%g) = %g", T, x, d, x, t);
}

#define TESTS(T, E, W, IS_D, TOL)                                              \
  static void test_##T(void **state) {                                         \
    (void)state;                                                               \
    uint64_t rng = 21;                                                         \
    for (size_t i = 0; i < NSAMPLES; i += (W)) {                               \
      bd_##T x;                                                                \
      for (int l = 0; l < (W); l++)                                            \
        x[l] = (E)sample(i + (size_t)l, &rng, IS_D);                           \
      bd_##T d = bd_digamma_##T(x), t = bd_trigamma_##T(x);                    \
      for (int l = 0; l < (W); l++) {                                          \
        long double xl = x[l];                                                 \
        check(ref_digamma(xl), scale_digamma(xl), d[l], TOL, #T " digamma",    \
              x[l], i);                                                        \
        check(ref_trigamma(xl), scale_trigamma(xl), t[l], TOL, #T " trigamma", \
              x[l], i);                                                        \
      }                                                                        \
    }                                                                          \
    static const double sp[] = {INFINITY, NAN, 0.0, -1.0, -7.0};               \
    for (int k = 0; k < 5; k++) {                                              \
      bd_##T x;                                                                \
      for (int l = 0; l < (W); l++)                                            \
        x[l] = (E)sp[(l + k) % 5];                                             \
      bd_##T d = bd_digamma_##T(x), t = bd_trigamma_##T(x);                    \
      for (int l = 0; l < (W); l++)                                            \
        check_special(x[l], d[l], t[l], #T);                                   \
    }                                                                          \
  }
TESTS(f32n, float, BD_WN, 0, 4e-7)
TESTS(f32d, float, BD_WD, 0, 4e-7)
TESTS(f64d, double, BD_WD, 1, 8e-16)

static void test_scalar(void **state) {
  (void)state;
  uint64_t rng = 22;
  for (size_t i = 0; i < NSAMPLES; i++) {
    double x = sample(i, &rng, 1);
    float xf = (float)sample(i, &rng, 0);
    check(ref_digamma(x), scale_digamma(x), __bd_digamma(x), 8e-16,
          "__bd_digamma", x, i);
    check(ref_trigamma(x), scale_trigamma(x), __bd_trigamma(x), 8e-16,
          "__bd_trigamma", x, i);
    check(ref_digamma(xf), scale_digamma(xf), __bd_digammaf(xf), 4e-7,
          "__bd_digammaf", xf, i);
    check(ref_trigamma(xf), scale_trigamma(xf), __bd_trigammaf(xf), 4e-7,
          "__bd_trigammaf", xf, i);
  }
  static const double sp[] = {INFINITY, NAN, 0.0, -1.0, -7.0};
  for (int k = 0; k < 5; k++) {
    check_special(sp[k], __bd_digamma(sp[k]), __bd_trigamma(sp[k]), "scalar");
    check_special(sp[k], __bd_digammaf((float)sp[k]),
                  __bd_trigammaf((float)sp[k]), "scalar float");
  }
}

static void check_ld(long double want, long double got, const char *what) {
  if (!(fabsl(got - want) <= 1e-17L * (1 + fabsl(want))))
    fail_msg("%s: got %La, want %La", what, got, want);
}

/* The reference itself against exact values. */
static void test_reference(void **state) {
  (void)state;
  long double h = 0;
  check_ld(-EULER, ref_digamma(1), "digamma(1)");
  check_ld(-EULER - 2 * logl(2), ref_digamma(0.5L), "digamma(1/2)");
  for (int n = 1; n < 60; n++) {
    h += 1.0L / n;
    check_ld(h - EULER, ref_digamma(n + 1), "digamma(n + 1)");
  }
  check_ld(PIL * PIL / 6, ref_trigamma(1), "trigamma(1)");
  check_ld(PIL * PIL / 2, ref_trigamma(0.5L), "trigamma(1/2)");
  /* Reflection: digamma(1 - x) - digamma(x) = pi cot(pi x). */
  check_ld(PIL / tanl(PIL * -2.25L), ref_digamma(3.25L) - ref_digamma(-2.25L),
           "digamma reflection");
  check_ld(PIL * PIL / (sinl(PIL * 0.3L) * sinl(PIL * 0.3L)),
           ref_trigamma(0.3L) + ref_trigamma(0.7L), "trigamma reflection");
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_reference), cmocka_unit_test(test_scalar),
      cmocka_unit_test(test_f32n),      cmocka_unit_test(test_f32d),
      cmocka_unit_test(test_f64d),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("gamma", tests, NULL, NULL);
}
