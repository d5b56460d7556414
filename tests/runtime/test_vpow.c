/* Vector pow (bd_pow_f64d, bd_pow_f32n, bd_pow_f32d) in ULP against powl
 * (x87, 64-bit mantissa), on
 * 2^20 random (x, y) pairs over wide ranges and on every pair of special
 * values, each in every lane of a vector of ordinary lanes. FMA builds
 * (rt_test_vpow_avx512, _avx512f, _avx2) run the inline kernel
 * (vmath_pow.h): bound 0.7 ULP (0.647 measured, docs/runtime.md); the SSE2
 * build runs SLEEF's u10 (bound 1). NaN results, infinities and the sign
 * of zero results must match glibc's pow, and where glibc's result is an
 * exact special value (NaN, +-0, +-inf, +-1 from special arguments) the
 * bits must too. pow(x, +-0) = 1 and pow(1, y) = 1 even for signaling NaNs
 * (C99 Annex F; glibc returns NaN there).
 *
 *   rt_test_vpow_avx512            run the CMocka tests
 *   rt_test_vpow_avx512 --max N    print the max ULP over N random pairs */
#include <batchdiff/batchdiff_rt.h>

#include "test_util.h"
#include "ulp.h"

#include "../common/test_filter.h" /* after test_util.h (cmocka) */

#if defined(__FMA__)
#define POW_BOUND 0.7
#define POWF_BOUND 0.501
#else
#define POW_BOUND 1.0
#define POWF_BOUND 1.0
#endif

typedef struct {
  double max_ulp, at_x, at_y;
  long n;
} result;

/* 0: ordinary, or the ULP error; INFINITY: class or bits differ. */
static double lane_error(double x, double y, double got) {
  double libm = pow(x, y);
  if (isnan(libm) || isnan(got))
    return isnan(libm) && isnan(got) ? 0.0 : INFINITY;
  if (got == 0 && libm == 0)
    return signbit(got) == signbit(libm) ? 0.0 : INFINITY;
  if (isinf(libm) || isinf(got))
    return got == libm ? 0.0 : INFINITY;
  return ulp_error_d(got, powl(x, y));
}

static void record(result *r, double x, double y, double got) {
  double e = lane_error(x, y, got);
  r->n++;
  if (!(e <= r->max_ulp)) {
    r->max_ulp = e;
    r->at_x = x;
    r->at_y = y;
  }
}

/* Sample i: a mix of classes, one per lane in turn. */
static void sample(uint64_t *rng, size_t i, double *x, double *y) {
  double u = tu_unit(rng), v = tu_unit(rng);
  int e = (int)(tu_next(rng) % 2046) - 1022;
  switch (i % 10) {
  case 0: /* any normal x, moderate y */
    *x = ldexp(1.0 + u, e);
    *y = (v - 0.5) * 8.0;
    break;
  case 1: /* x near 1, huge y */
    *x = 1.0 + (u - 0.5) * ldexp(1.0, -(int)(tu_next(rng) % 53));
    *y = (v - 0.5) * ldexp(1.0, (int)(tu_next(rng) % 64));
    break;
  case 2: /* the usual finance range */
    *x = 10.0 * u;
    *y = (v - 0.5) * 1200.0;
    break;
  case 3: /* y log x across the whole exp range: overflow, underflow,
           * subnormal results, the fast path's edge at +-708 */
    *x = ldexp(1.0 + u, e);
    *y = (x[0] == 1.0 ? 1.0 : (-750.0 + 1463.0 * v) / log(*x));
    break;
  case 4: /* |y log x| next to 708 */
    *x = 0.5 + 4.0 * u;
    *y = (tu_next(rng) & 1 ? 708.0 : -708.0) * (1.0 + (v - 0.5) * 0x1p-20) /
         log(*x == 1.0 ? 2.0 : *x);
    break;
  case 5: /* x < 0, integer y (odd and even) */
    *x = -ldexp(1.0 + u, (int)(tu_next(rng) % 40) - 20);
    *y = (double)((int64_t)(tu_next(rng) % 801) - 400);
    break;
  case 6: /* x < 0, y huge (even) or not an integer */
    *x = -ldexp(1.0 + u, e / 8);
    *y = tu_next(rng) & 1 ? ldexp(1.0 + v, 53 + (int)(tu_next(rng) % 20))
                          : (v - 0.5) * 10.0;
    break;
  case 7: /* subnormal x */
    *x = u * 0x1p-1022;
    *y = (v - 0.5) * 3.0;
    break;
  case 8: /* small integers to small integer powers */
    *x = (double)(int)(tu_next(rng) % 41) - 20.0;
    *y = (double)(int)(tu_next(rng) % 81) - 40.0;
    break;
  default: /* random bits (quiet NaNs only: see the head comment) */
    *x = tu_f64_bits(tu_next(rng));
    *y = tu_f64_bits(tu_next(rng));
    if (*x != *x)
      *x = NAN;
    if (*y != *y)
      *y = -NAN;
    break;
  }
}

static result measure(size_t n, uint64_t seed) {
  result r = {0, 0, 0, 0};
  uint64_t rng = seed;
  for (size_t i = 0; i < n; i += BD_WD) {
    bd_f64d x, y, v;
    for (int l = 0; l < BD_WD; l++) {
      double a, b;
      sample(&rng, i + (size_t)l, &a, &b);
      x[l] = a;
      y[l] = b;
    }
    v = bd_pow_f64d(x, y);
    for (int l = 0; l < BD_WD; l++)
      record(&r, x[l], y[l], v[l]);
  }
  return r;
}

static void check(const char *what, result r, double bound) {
  if (!(r.max_ulp <= bound))
    fail_msg("pow %s: %.3f ULP at (%a, %a), bound %.3f (%ld lanes)", what,
             r.max_ulp, r.at_x, r.at_y, bound, r.n);
}

static void test_random(void **state) {
  (void)state;
  check("random", measure((size_t)1 << 20, 1234), POW_BOUND);
}

static const double sp[] = {0.0,
                            -0.0,
                            1.0,
                            -1.0,
                            0.5,
                            -0.5,
                            2.0,
                            -2.0,
                            3.0,
                            -3.0,
                            1.5,
                            -1.5,
                            0x1.fffffffffffffp+52, /* odd */
                            -0x1.fffffffffffffp+52,
                            0x1p53, /* even */
                            -0x1p60,
                            1e300,
                            -1e300,
                            0x1.fffffffffffffp+1023,
                            -0x1.fffffffffffffp+1023,
                            0x1p-1022,
                            0x1p-1074,
                            -0x1p-1074,
                            0x1.fffffffffffffp-1,
                            0x1.0000000000001p+0,
                            -0x1.0000000000001p+0,
                            1024.0,
                            -1075.0,
                            0.1,
                            INFINITY,
                            -INFINITY,
                            NAN,
                            -NAN};
#define NSP (sizeof sp / sizeof sp[0])

/* Every pair of special values, in each lane of a vector of ordinary
 * lanes: the test that sends a vector to the rare path must catch every
 * class in every lane, and the ordinary lanes keep their results. Exact
 * special results must match glibc's bits. */
static void test_special_pairs(void **state) {
  (void)state;
  result r = {0, 0, 0, 0};
  for (size_t a = 0; a < NSP; a++)
    for (size_t b = 0; b < NSP; b++)
      for (int at = 0; at < BD_WD; at++) {
        bd_f64d x, y, v;
        for (int l = 0; l < BD_WD; l++) {
          x[l] = l == at ? sp[a] : 0.3 + 1.7 * l;
          y[l] = l == at ? sp[b] : 2.5 - 1.3 * l;
        }
        v = bd_pow_f64d(x, y);
        for (int l = 0; l < BD_WD; l++)
          record(&r, x[l], y[l], v[l]);
        double want = pow(sp[a], sp[b]);
        if (isnan(want) || isinf(want) || want == 0 || fabs(want) == 1.0) {
          if (!(isnan(want) && isnan(v[at])) &&
              tu_bits_f64(want) != tu_bits_f64(v[at]))
            fail_msg("pow(%a, %a) = %a in lane %d, glibc %a", sp[a], sp[b],
                     v[at], at, want);
        }
      }
  check("special pairs", r, POW_BOUND);
}

/* C99 Annex F: pow(x, +-0) = 1 for any x, pow(+1, y) = 1 for any y, with
 * signaling NaNs too. */
static void test_annex_f(void **state) {
  (void)state;
  double snan = tu_f64_bits(0x7ff4000000000000ULL);
  double snan_neg = tu_f64_bits(0xfff0000000000001ULL);
  const double xs[] = {snan, snan_neg, NAN, INFINITY, -INFINITY, -3.0, 0.0};
  for (size_t k = 0; k < sizeof xs / sizeof xs[0]; k++)
    for (int at = 0; at < BD_WD; at++) {
      bd_f64d x, y, v;
      for (int l = 0; l < BD_WD; l++) {
        x[l] = l == at ? xs[k] : 2.0;
        y[l] = l == at ? (k & 1 ? -0.0 : 0.0) : 0.5;
      }
      v = bd_pow_f64d(x, y);
      tu_check(1.0, v[at], "pow(x, +-0)", k);
      for (int l = 0; l < BD_WD; l++) {
        x[l] = l == at ? 1.0 : 2.0;
        y[l] = l == at ? xs[k] : 0.5;
      }
      v = bd_pow_f64d(x, y);
      tu_check(1.0, v[at], "pow(1, y)", k);
    }
}

/* ---- float: bd_pow_f32n and bd_pow_f32d (FMA builds: in double, rounded
 * once; without FMA: SLEEF's powf) ---- */

static double lane_error_f(float x, float y, float got) {
  float libm = powf(x, y);
  if (isnan(libm) || isnan(got))
    return isnan(libm) && isnan(got) ? 0.0 : INFINITY;
  if (got == 0 && libm == 0)
    return signbit(got) == signbit(libm) ? 0.0 : INFINITY;
  if (isinf(libm) || isinf(got))
    return got == libm ? 0.0 : INFINITY;
  return ulp_error_f(got, powl(x, y));
}

static void record_f(result *r, float x, float y, float got) {
  double e = lane_error_f(x, y, got);
  r->n++;
  if (!(e <= r->max_ulp)) {
    r->max_ulp = e;
    r->at_x = x;
    r->at_y = y;
  }
}

static void sample_f(uint64_t *rng, size_t i, float *x, float *y) {
  double u = tu_unit(rng), v = tu_unit(rng);
  int e = (int)(tu_next(rng) % 254) - 126;
  switch (i % 10) {
  case 0: /* any normal x, moderate y */
    *x = (float)ldexp(1.0 + u, e);
    *y = (float)((v - 0.5) * 8.0);
    break;
  case 1: /* x near 1, huge y */
    *x = (float)(1.0 + (u - 0.5) * ldexp(1.0, -(int)(tu_next(rng) % 24)));
    *y = (float)((v - 0.5) * ldexp(1.0, (int)(tu_next(rng) % 44)));
    break;
  case 2:
    *x = (float)(10.0 * u);
    *y = (float)((v - 0.5) * 200.0);
    break;
  case 3: /* y log x across float's range: overflow, subnormal results */
    *x = (float)ldexp(1.0 + u, e);
    *y = *x == 1.0f ? 1.0f : (float)((-110.0 + 205.0 * v) / log(*x));
    break;
  case 4: /* x < 0, integer y */
    *x = -(float)ldexp(1.0 + u, (int)(tu_next(rng) % 20) - 10);
    *y = (float)((int64_t)(tu_next(rng) % 301) - 150);
    break;
  case 5: /* x < 0, y huge (even) or not an integer */
    *x = -(float)ldexp(1.0 + u, e / 8);
    *y = tu_next(rng) & 1 ? (float)ldexp(1.0 + v, 24 + (int)(tu_next(rng) % 20))
                          : (float)((v - 0.5) * 10.0);
    break;
  case 6: /* subnormal x */
    *x = (float)(u * 0x1p-126);
    *y = (float)((v - 0.5) * 3.0);
    break;
  case 7:
    *x = (float)((int)(tu_next(rng) % 41) - 20);
    *y = (float)((int)(tu_next(rng) % 61) - 30);
    break;
  default:
    *x = tu_f32_bits((uint32_t)tu_next(rng));
    *y = tu_f32_bits((uint32_t)tu_next(rng));
    if (*x != *x)
      *x = NAN;
    if (*y != *y)
      *y = -NAN;
    break;
  }
}

static void measure_f(size_t n, uint64_t seed, result *rn, result *rh) {
  uint64_t rng = seed;
  for (size_t i = 0; i < n; i += BD_WN) {
    bd_f32n x, y, v;
    bd_f32d xh, yh, vh;
    for (int l = 0; l < BD_WN; l++) {
      float a, b;
      sample_f(&rng, i + (size_t)l, &a, &b);
      x[l] = a;
      y[l] = b;
    }
    v = bd_pow_f32n(x, y);
    for (int l = 0; l < BD_WN; l++)
      record_f(rn, x[l], y[l], v[l]);
    for (int h = 0; h < BD_WN; h += BD_WD) {
      for (int l = 0; l < BD_WD; l++) {
        xh[l] = x[h + l];
        yh[l] = y[h + l];
      }
      vh = bd_pow_f32d(xh, yh);
      for (int l = 0; l < BD_WD; l++)
        record_f(rh, xh[l], yh[l], vh[l]);
    }
  }
}

static void test_float_random(void **state) {
  (void)state;
  result rn = {0, 0, 0, 0}, rh = {0, 0, 0, 0};
  measure_f((size_t)1 << 20, 4321, &rn, &rh);
  check("f32n random", rn, POWF_BOUND);
  check("f32d random", rh, POWF_BOUND);
}

/* Every pair of special values (as floats), in each lane of f32n. */
static void test_float_special_pairs(void **state) {
  (void)state;
  result r = {0, 0, 0, 0};
  for (size_t a = 0; a < NSP; a++)
    for (size_t b = 0; b < NSP; b++)
      for (int at = 0; at < BD_WN; at++) {
        bd_f32n x, y, v;
        for (int l = 0; l < BD_WN; l++) {
          x[l] = l == at ? (float)sp[a] : 0.3f + 1.7f * (float)l;
          y[l] = l == at ? (float)sp[b] : 2.5f - 0.3f * (float)l;
        }
        v = bd_pow_f32n(x, y);
        for (int l = 0; l < BD_WN; l++)
          record_f(&r, x[l], y[l], v[l]);
        float want = powf((float)sp[a], (float)sp[b]);
        if (isnan(want) || isinf(want) || want == 0 || fabsf(want) == 1.0f) {
          if (!(isnan(want) && isnan(v[at])) &&
              tu_bits_f32(want) != tu_bits_f32(v[at]))
            fail_msg("powf(%a, %a) = %a in lane %d, glibc %a", (float)sp[a],
                     (float)sp[b], (double)v[at], at, (double)want);
        }
      }
  check("f32n special pairs", r, POWF_BOUND);
}

/* Annex F for float: powf(x, +-0) = 1, powf(1, y) = 1, signaling NaNs too. */
static void test_float_annex_f(void **state) {
  (void)state;
  const float xs[] = {tu_f32_bits(0x7fa00000u),
                      tu_f32_bits(0xff800001u),
                      NAN,
                      INFINITY,
                      -INFINITY,
                      -3.0f,
                      0.0f};
  for (size_t k = 0; k < sizeof xs / sizeof xs[0]; k++)
    for (int at = 0; at < BD_WN; at++) {
      bd_f32n x, y, v;
      for (int l = 0; l < BD_WN; l++) {
        x[l] = l == at ? xs[k] : 2.0f;
        y[l] = l == at ? (k & 1 ? -0.0f : 0.0f) : 0.5f;
      }
      v = bd_pow_f32n(x, y);
      tu_check(1.0f, v[at], "powf(x, +-0)", k);
      for (int l = 0; l < BD_WN; l++) {
        x[l] = l == at ? 1.0f : 2.0f;
        y[l] = l == at ? xs[k] : 0.5f;
      }
      v = bd_pow_f32n(x, y);
      tu_check(1.0f, v[at], "powf(1, y)", k);
    }
}

int main(int argc, char **argv) {
  if (argc > 2 && strcmp(argv[1], "--max") == 0) {
    result r = measure((size_t)strtoull(argv[2], NULL, 0), 987);
    printf("BD_VBYTES=%d: pow max %.4f ULP at pow(%a, %a) over %ld lanes\n",
           BD_VBYTES, r.max_ulp, r.at_x, r.at_y, r.n);
    result rn = {0, 0, 0, 0}, rh = {0, 0, 0, 0};
    measure_f((size_t)strtoull(argv[2], NULL, 0), 987, &rn, &rh);
    printf("BD_VBYTES=%d: powf max %.4f ULP (f32n) at powf(%a, %a), %.4f "
           "(f32d) at powf(%a, %a) over %ld lanes each\n",
           BD_VBYTES, rn.max_ulp, rn.at_x, rn.at_y, rh.max_ulp, rh.at_x,
           rh.at_y, rn.n);
    return 0;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_random),
      cmocka_unit_test(test_special_pairs),
      cmocka_unit_test(test_annex_f),
      cmocka_unit_test(test_float_random),
      cmocka_unit_test(test_float_special_pairs),
      cmocka_unit_test(test_float_annex_f),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
