/* The exactly defined <math.h> functions of vmath_bits.h (ldexp, scalbn,
 * ilogb, logb, nextafter, fdim, rint, nearbyint, lrint, llrint, lround,
 * llround, remainder), every vector type, against glibc's scalar functions
 * bit for bit (any NaN equals any NaN). Inputs: edge values (±0, ±Inf, NaN,
 * subnormals, the largest finite values, exact ties n + 1/2 up to 2^52 and
 * 2^23, values at the 2^63 limit of lrint/lround), every pair of edges for
 * two-argument functions, exact remainder ties, random bit patterns and
 * log-uniform magnitudes; ldexp exponents over and past the whole range. */
#include <batchdiff/batchdiff_rt.h>

#include "test_util.h"

#include "../common/test_filter.h"

#include <limits.h>

static const double edges[] = {0.0,
                               -0.0,
                               1.0,
                               -1.0,
                               0.5,
                               -0.5,
                               1.5,
                               -1.5,
                               2.5,
                               -2.5,
                               3.5,
                               -0.75,
                               2.0,
                               3.0,
                               -7.0,
                               1e-5,
                               1e10,
                               123456.5,
                               -98765.5,
                               0x1p52,
                               -0x1p52,
                               0x1.fffffffffffffp51, /* 2^52 - 1/2 */
                               -0x1.fffffffffffffp51,
                               0x1p52 + 1,
                               0x1p53 - 1,
                               0x1.fffffep22, /* 2^23 - 1/2 */
                               -0x1.fffffep22,
                               0x1p23,
                               0x1p24 - 1,
                               0x1p31,
                               -0x1p31,
                               0x1p62,
                               0x1p63,
                               -0x1p63,
                               0x1.fffffffffffffp62,
                               -0x1.fffffffffffffp62,
                               0x1p64,
                               0x1.fffffep62,
                               -0x1.fffffep63,
                               INFINITY,
                               -INFINITY,
                               NAN,
                               -NAN,
                               DBL_MAX,
                               -DBL_MAX,
                               FLT_MAX,
                               -FLT_MAX,
                               DBL_MIN,
                               -DBL_MIN,
                               FLT_MIN,
                               -FLT_MIN,
                               0x1p-1074,
                               -0x1p-1074,
                               0x1p-149,
                               -0x1p-149,
                               0x1.8p-1070,
                               0x1.fffffffffffffp-1023,
                               0x1.fffffcp-127,
                               1e-310,
                               -1e-40,
                               1e300,
                               -1e300,
                               3.4e38,
                               0x1p-1022 * 3};
#define NEDGES (sizeof edges / sizeof edges[0])

static const int nedges[] = {
    0,     1,      -1,    2,      -2,      10,         -10,     23,     -23,
    52,    -52,    100,   -126,   127,     128,        -149,    -150,   -1022,
    1023,  1024,   -1074, -1075,  -1076,   2046,       -2098,   2100,   -2200,
    50000, -50000, 50001, -50001, 1 << 20, -(1 << 20), INT_MAX, INT_MIN};
#define NNEDGES (sizeof nedges / sizeof nedges[0])

#define NSAMPLES 200000

/* Argument `arg` (0 or 1) of sample i: edges first (all pairs for two
 * arguments), then random bits, log-uniform magnitudes, ties, small values. */
static double sample(int arg, int nargs, size_t i, uint64_t *rng,
                     int is_double) {
  size_t ne = nargs == 2 ? NEDGES * NEDGES : NEDGES;
  if (i < ne)
    return edges[arg == 0 ? i % NEDGES : i / NEDGES];
  uint64_t r = tu_next(rng);
  int emax = is_double ? 1024 : 128, p = is_double ? 53 : 24;
  switch (r % 5) {
  case 0:
    return is_double ? tu_f64_bits(tu_next(rng))
                     : (double)tu_f32_bits((uint32_t)(r >> 20));
  case 1: {
    double m =
        ldexp(1.0 + tu_unit(rng), (int)((r >> 8) % (2 * emax + p)) - emax - p);
    return (r >> 4 & 1) ? -m : m;
  }
  case 2: { /* n + 1/2 and neighbours, exact in the type */
    double k = ldexp(tu_unit(rng), (int)((r >> 8) % (unsigned)p));
    double t = floor(k) + 0.5;
    return (r >> 5 & 1) ? -t : t;
  }
  default:
    return (tu_unit(rng) - 0.5) * ldexp(1.0, (int)((r >> 8) % 12));
  }
}

static int sample_n(size_t i, uint64_t *rng) {
  if (i % 7 < 2)
    return nedges[tu_next(rng) % NNEDGES];
  return (int)(tu_next(rng) % 4500) - 2250;
}

/* Remainder ties: x = (2k + 1) y / 2 exactly. */
static void tie_pair(uint64_t *rng, double *x, double *y, int is_double) {
  double k = (double)(tu_next(rng) % 1000);
  int e = (int)(tu_next(rng) % 40) - 20;
  *y = ldexp(1.0 + (double)(tu_next(rng) % 16) / 16, e);
  *x = (2 * k + 1) * *y / 2;
  if (!is_double) {
    *x = (float)*x;
    *y = (float)*y;
  }
  if (tu_next(rng) & 1)
    *x = -*x;
}

static void check_f(float want, float got, const char *fn, float x, float y,
                    size_t i) {
  if ((want != want && got != got) || tu_bits_f32(want) == tu_bits_f32(got))
    return;
  fail_msg("%s(%a, %a) sample %zu: glibc %a, got %a", fn, x, y, i, want, got);
}
static void check_d(double want, double got, const char *fn, double x, double y,
                    size_t i) {
  if ((want != want && got != got) || tu_bits_f64(want) == tu_bits_f64(got))
    return;
  fail_msg("%s(%a, %a) sample %zu: glibc %a, got %a", fn, x, y, i, want, got);
}
static void check_i(long long want, long long got, const char *fn, double x,
                    size_t i) {
  if (want != got)
    fail_msg("%s(%a) sample %zu: glibc %lld, got %lld", fn, x, i, want, got);
}

/* fn: scalar name (float form sfn); T: vector type with E elements and W
 * lanes; NI: its int vector. */
#define TESTS(T, E, W, NI, IS_D, SFX, CHECK)                                   \
  static void test_unary_##T(void **state) {                                   \
    (void)state;                                                               \
    uint64_t rng = 11;                                                         \
    for (size_t i = 0; i < NSAMPLES; i += (W)) {                               \
      bd_##T x;                                                                \
      for (int l = 0; l < (W); l++)                                            \
        x[l] = (E)sample(0, 1, i + (size_t)l, &rng, IS_D);                     \
      bd_##T ri = bd_rint_##T(x), rn = bd_nearbyint_##T(x);                    \
      bd_##T lb = bd_logb_##T(x);                                              \
      NI il = bd_ilogb_##T(x);                                                 \
      for (int l = 0; l < (W); l++) {                                          \
        CHECK(rint##SFX(x[l]), ri[l], "rint" #SFX, x[l], 0, i);                \
        CHECK(nearbyint##SFX(x[l]), rn[l], "nearbyint" #SFX, x[l], 0, i);      \
        CHECK(logb##SFX(x[l]), lb[l], "logb" #SFX, x[l], 0, i);                \
        check_i(ilogb##SFX(x[l]), il[l], "ilogb" #SFX, x[l], i);               \
      }                                                                        \
    }                                                                          \
  }                                                                            \
  static void test_binary_##T(void **state) {                                  \
    (void)state;                                                               \
    uint64_t rng = 12;                                                         \
    for (size_t i = 0; i < NSAMPLES; i += (W)) {                               \
      bd_##T x, y;                                                             \
      for (int l = 0; l < (W); l++) {                                          \
        double a = sample(0, 2, i + (size_t)l, &rng, IS_D);                    \
        double b = sample(1, 2, i + (size_t)l, &rng, IS_D);                    \
        if (i + (size_t)l >= NEDGES * NEDGES && tu_next(&rng) % 4 == 0)        \
          tie_pair(&rng, &a, &b, IS_D);                                        \
        x[l] = (E)a;                                                           \
        y[l] = (E)b;                                                           \
      }                                                                        \
      bd_##T na = bd_nextafter_##T(x, y), fd = bd_fdim_##T(x, y);              \
      bd_##T rm = bd_remainder_##T(x, y);                                      \
      for (int l = 0; l < (W); l++) {                                          \
        CHECK(nextafter##SFX(x[l], y[l]), na[l], "nextafter" #SFX, x[l], y[l], \
              i);                                                              \
        CHECK(fdim##SFX(x[l], y[l]), fd[l], "fdim" #SFX, x[l], y[l], i);       \
        CHECK(remainder##SFX(x[l], y[l]), rm[l], "remainder" #SFX, x[l], y[l], \
              i);                                                              \
      }                                                                        \
    }                                                                          \
  }                                                                            \
  static void test_ldexp_##T(void **state) {                                   \
    (void)state;                                                               \
    uint64_t rng = 13;                                                         \
    for (size_t i = 0; i < NSAMPLES; i += (W)) {                               \
      bd_##T x;                                                                \
      NI n;                                                                    \
      for (int l = 0; l < (W); l++) {                                          \
        x[l] = (E)sample(0, 1, i + (size_t)l, &rng, IS_D);                     \
        n[l] = sample_n(i + (size_t)l, &rng);                                  \
      }                                                                        \
      bd_##T a = bd_ldexp_##T(x, n), b = bd_scalbn_##T(x, n);                  \
      for (int l = 0; l < (W); l++) {                                          \
        CHECK(ldexp##SFX(x[l], n[l]), a[l], "ldexp" #SFX, x[l], n[l], i);      \
        CHECK(scalbn##SFX(x[l], n[l]), b[l], "scalbn" #SFX, x[l], n[l], i);    \
      }                                                                        \
    }                                                                          \
  }
TESTS(f32n, float, BD_WN, bd_i32n, 0, f, check_f)
TESTS(f32d, float, BD_WD, bd_i32d, 0, f, check_f)
TESTS(f64d, double, BD_WD, bd_i32d, 1, , check_d)

/* To 64-bit integers: shape d only. */
#define TOINT(T, E, IS_D, SFX)                                                 \
  static void test_toint_##T(void **state) {                                   \
    (void)state;                                                               \
    uint64_t rng = 14;                                                         \
    for (size_t i = 0; i < NSAMPLES; i += BD_WD) {                             \
      bd_##T x;                                                                \
      for (int l = 0; l < BD_WD; l++)                                          \
        x[l] = (E)sample(0, 1, i + (size_t)l, &rng, IS_D);                     \
      bd_i64d a = bd_lrint_##T(x), b = bd_llrint_##T(x);                       \
      bd_i64d c = bd_lround_##T(x), d = bd_llround_##T(x);                     \
      for (int l = 0; l < BD_WD; l++) {                                        \
        check_i(lrint##SFX(x[l]), a[l], "lrint" #SFX, x[l], i);                \
        check_i(llrint##SFX(x[l]), b[l], "llrint" #SFX, x[l], i);              \
        check_i(lround##SFX(x[l]), c[l], "lround" #SFX, x[l], i);              \
        check_i(llround##SFX(x[l]), d[l], "llround" #SFX, x[l], i);            \
      }                                                                        \
    }                                                                          \
  }
TOINT(f32d, float, 0, f)
TOINT(f64d, double, 1, )

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_unary_f32n),  cmocka_unit_test(test_unary_f32d),
      cmocka_unit_test(test_unary_f64d),  cmocka_unit_test(test_binary_f32n),
      cmocka_unit_test(test_binary_f32d), cmocka_unit_test(test_binary_f64d),
      cmocka_unit_test(test_ldexp_f32n),  cmocka_unit_test(test_ldexp_f32d),
      cmocka_unit_test(test_ldexp_f64d),  cmocka_unit_test(test_toint_f32d),
      cmocka_unit_test(test_toint_f64d),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("vmath_exact", tests, NULL, NULL);
}
