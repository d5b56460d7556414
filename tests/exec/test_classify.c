/* What numeric C code tests values with (issue 8, item 6): isnan, isinf,
 * isfinite, isnormal, fpclassify, signbit, copysign, isgreater and friends
 * (glibc's macros over clang builtins), abs/labs/llabs, and assert (left out
 * of the generated functions, as under NDEBUG: docs/subset.md). Batched
 * results equal the scalar ones bit for bit on wide inputs (NaN, +-Inf,
 * +-0, subnormals). Also fmin/fmax on ties of zeros of opposite signs
 * (issue 8, item 4): the same zero as the scalar function, whichever
 * operand LLVM can prove is not a NaN (docs/abi.md). And a gradient through
 * a function that branches on them. Branch hints (__builtin_expect,
 * __builtin_assume, __builtin_unreachable) change no value. */
#undef NDEBUG
#include "exec_util.h"

#include "../common/test_filter.h"

#include <assert.h>

/* Zeros of both signs half of the time, else anything. */
static double gen_z(rng_t *r) {
  switch (rng_below(r, 4)) {
  case 0:
    return 0.0;
  case 1:
    return -0.0;
  default:
    return gen_d(r);
  }
}
static float gen_zf(rng_t *r) { return (float)gen_z(r); }
static int gen_k(rng_t *r) { return (int)rng_below(r, 3) - 1; }
/* abs(INT_MIN) is undefined: integers from INT_MIN + 1 up. */
static int gen_ia(rng_t *r) {
  int k = gen_i32(r);
  return k == INT_MIN ? 7 : k;
}
static long gen_l(rng_t *r) { return (long)gen_ia(r) * (long)gen_i32s(r); }
static long long gen_ll(rng_t *r) { return (long long)gen_l(r) << 20; }

/* Classification: int results, batch only. */
#define CLASSIFY(name, expr)                                                   \
  BD_BATCH int m_##name(double x) { return expr; }                             \
  BD_BATCH int m_##name##f(float x) { return expr; }                           \
  BITS1(m_##name, int, double, gen_z)                                          \
  BITS1(m_##name##f, int, float, gen_zf)
CLASSIFY(isnan, isnan(x))
CLASSIFY(isinf, isinf(x))
CLASSIFY(isfinite, isfinite(x))
CLASSIFY(isnormal, isnormal(x))
CLASSIFY(fpclassify, fpclassify(x))
CLASSIFY(signbit, signbit(x) != 0)
CLASSIFY(issubnormal, fpclassify(x) == FP_SUBNORMAL)

BD_BATCH int m_compare(double x, double y) {
  return isgreater(x, y) + 2 * isgreaterequal(x, y) + 4 * isless(x, y) +
         8 * islessequal(x, y) + 16 * islessgreater(x, y) +
         32 * isunordered(x, y);
}
BITS2(m_compare, int, double, gen_z, double, gen_z)

BD_BATCH long m_abs(int k, long l, long long ll) {
  return abs(k) + labs(l) + (long)llabs(ll);
}
BITS3(m_abs, long, int, gen_ia, long, gen_l, long long, gen_ll)

/* A value-returning use, behind per-lane branches, with copysign. */
BATCHDIFF double m_safe(double x, double y) {
  if (isnan(x) || !isfinite(y))
    return 0.0;
  if (signbit(x))
    return copysign(x * x, y);
  if (isinf(x))
    return y;
  return x * y;
}
BITS2(m_safe, double, double, gen_z, double, gen_z)

/* assert() stays in the scalar function and is left out of the generated
 * ones (as under NDEBUG). */
BATCHDIFF double m_assert(double x) {
  assert(x == x);
  return 2.0 * x;
}
static double gen_num(rng_t *r) {
  double x = gen_z(r);
  return isnan(x) ? 1.0 : x;
}
BITS1(m_assert, double, double, gen_num)
static void diff_assert_out(void **state_) {
  (void)state_;
  double x[3] = {1.0, NAN, -2.0}, r[3];
  m_assert_batched(3, x, r); /* the scalar function would abort at x[1] */
  assert_true(r[0] == 2.0 && isnan(r[1]) && r[2] == -4.0);
}

/* Branch hints, as LIKELY/UNLIKELY macros write them (__builtin_expect,
 * __builtin_expect_with_probability), __builtin_assume, and
 * __builtin_unreachable on a path no example takes: they change no value
 * (docs/subset.md). */
#define M_LIKELY(x) __builtin_expect(!!(x), 1)
#define M_UNLIKELY(x) __builtin_expect((x), 0)
BATCHDIFF double m_hints(double x, int k) {
  if (M_UNLIKELY(isnan(x)))
    return 0.0;
  __builtin_assume(k >= -1);
  double s = 0.0;
  switch (k) {
  case -1:
    s = x * x;
    break;
  case 0:
    s = 2.0 * x;
    break;
  case 1:
    s = x;
    break;
  default:
    __builtin_unreachable();
  }
  if (__builtin_expect_with_probability(s > 1.0, 1, 0.9))
    s = sqrt(s);
  return M_LIKELY(k != 0) ? s : -s;
}
static double gen_numn(rng_t *r) {
  return rng_below(r, 8) == 0 ? NAN : gen_num(r);
}
BITS2(m_hints, double, double, gen_numn, int, gen_k)
static void diff_hints_grad(void **state_) {
  (void)state_;
  double x[4] = {3.0, 0.25, 4.0, NAN}, dx[4] = {0}, r[4];
  int k[4] = {-1, 0, 1, 1};
  double want_r[4] = {3.0, -0.5, 2.0, 0.0}, want_dx[4] = {1.0, -2.0, 0.25, 0};
  m_hints_grad(4, x, k, r, NULL, dx);
  for (int b = 0; b < 4; b++) {
    if (r[b] != want_r[b] || dx[b] != want_dx[b])
      print_error("b=%d: %g (want %g), d_x %g (want %g)\n", b, r[b], want_r[b],
                  dx[b], want_dx[b]);
    assert_true(r[b] == want_r[b] && dx[b] == want_dx[b]);
  }
}

/* fmin/fmax ties of zeros: both operands unknown (the scalar returns the
 * first), a constant or an integer conversion second (the scalar returns
 * the second), a constant first; float and double; and uniform. */
BATCHDIFF double m_fmin_xy(double x, double y) { return fmin(x, y); }
BATCHDIFF double m_fmax_xy(double x, double y) { return fmax(x, y); }
BATCHDIFF double m_fmin_xc(double x) { return fmin(x, 0.0) + fmax(x, -0.0); }
BATCHDIFF double m_fmin_cx(double x) { return fmin(-0.0, x) * fmax(0.0, x); }
BATCHDIFF double m_fmin_xk(double x, int k) {
  return fmin(x, (double)k) - fmax(x, (double)(k + 1));
}
BATCHDIFF float m_fminf_xy(float x, float y) {
  return fminf(x, y) + fmaxf(y, x);
}
BATCHDIFF float m_fminf_xk(float x, int k) { return fminf(x, (float)k); }
BATCHDIFF double m_fmin_uniform(double x, BD_UNIFORM double u) {
  return fmin(x, u) + fmin(u, 0.0);
}
/* Returned from inside a loop: LLVM unrolls it and merges the converted
 * counters of the exits into one phi, which it cannot prove is not a NaN:
 * the scalar returns the first operand (the reproducer of issue 8). */
BATCHDIFF double m_fmin_exit(double p, BD_UNIFORM int m) {
  for (int i = 0; i < m % 6; i++)
    if (p < 0.5 + i)
      return -0.5 * fmin(p, (double)i);
  return p;
}
static int gen_trips(rng_t *r) { return 1 + (int)rng_below(r, 5); }
DIFF2(m_fmin_exit, double, CMP_BITS, 0, V, double, gen_z, U, int, gen_trips)
BITS2(m_fmin_xy, double, double, gen_z, double, gen_z)
BITS2(m_fmax_xy, double, double, gen_z, double, gen_z)
BITS1(m_fmin_xc, double, double, gen_z)
BITS1(m_fmin_cx, double, double, gen_z)
BITS2(m_fmin_xk, double, double, gen_z, int, gen_k)
BITS2(m_fminf_xy, float, float, gen_zf, float, gen_zf)
BITS2(m_fminf_xk, float, float, gen_zf, int, gen_k)
DIFF2(m_fmin_uniform, double, CMP_BITS, 0, V, double, gen_z, U, double, gen_z)

/* The gradient of m_safe: 0, 2x * sign(y) or y per branch. */
static void diff_safe_grad(void **state_) {
  (void)state_;
  double x[6] = {NAN, -3.0, 2.0, INFINITY, -0.5, 1.0};
  double y[6] = {1.0, -1.0, 5.0, 2.0, 4.0, INFINITY};
  double dx[6] = {0}, dy[6] = {0};
  double want_dx[6] = {0, 6.0, 5.0, 0.0, -1.0, 0.0};
  double want_dy[6] = {0, 0.0, 2.0, 1.0, 0.0, 0.0};
  m_safe_grad(6, x, y, NULL, NULL, dx, dy);
  for (int b = 0; b < 6; b++) {
    if (dx[b] != want_dx[b] || dy[b] != want_dy[b])
      print_error("b=%d: d_x %g (want %g), d_y %g (want %g)\n", b, dx[b],
                  want_dx[b], dy[b], want_dy[b]);
    assert_true(dx[b] == want_dx[b] && dy[b] == want_dy[b]);
  }
}

/* Type-generic macros as a C library without clang's builtins writes them
 * (musl's signbit, isnan): `sizeof (x) == sizeof (float) ? ... : ...` with
 * a long double arm calling a function. C evaluates only the arm the
 * constant test chooses, and so does the batched code: the long double
 * functions below are declared and never defined, so lowering their arm
 * (before: run per example, or the call refused) fails to link. */
int tg_signbitl(long double);
int tg_isnanl(long double);
static unsigned long long tg_bits(double x) {
  union {
    double f;
    unsigned long long i;
  } u = {x};
  return u.i;
}
static unsigned tg_bitsf(float x) {
  union {
    float f;
    unsigned i;
  } u = {x};
  return u.i;
}
#define TG_SIGNBIT(x)                                                          \
  (sizeof(x) == sizeof(float)    ? (int)(tg_bitsf(x) >> 31)                    \
   : sizeof(x) == sizeof(double) ? (int)(tg_bits(x) >> 63)                     \
                                 : tg_signbitl(x))
#define TG_ISNAN(x)                                                            \
  (sizeof(x) == sizeof(float)    ? (tg_bitsf(x) & 0x7fffffff) > 0x7f800000     \
   : sizeof(x) == sizeof(double) ? (tg_bits(x) & -1ULL >> 1) > 0x7ffULL << 52  \
                                 : tg_isnanl(x))
BATCHDIFF double m_typegeneric(double x, float y) {
  if (TG_ISNAN(x) || TG_ISNAN(y))
    return 0.0;
  double s = TG_SIGNBIT(x) ? -x * x : x * x;
  return TG_SIGNBIT(y) ? s - y : s + 2.0f * y;
}
BITS2(m_typegeneric, double, double, gen_numn, float, gen_zf)
static void diff_typegeneric_grad(void **state_) {
  (void)state_;
  double x[4] = {3.0, -2.0, NAN, -0.0}, dx[4] = {0}, r[4];
  float y[4] = {1.0f, -1.0f, 0.0f, 0.5f}, dy[4] = {0};
  double want_r[4] = {11.0, -3.0, 0.0, 1.0};
  double want_dx[4] = {6.0, 4.0, 0.0, 0.0}, want_dy[4] = {2.0, -1.0, 0, 2.0};
  m_typegeneric_grad(4, x, y, r, NULL, dx, dy);
  for (int b = 0; b < 4; b++) {
    int ok = r[b] == want_r[b] && dx[b] == want_dx[b] && dy[b] == want_dy[b];
    if (!ok)
      print_error("b=%d: %g (want %g), d_x %g (want %g), d_y %g (want %g)\n", b,
                  r[b], want_r[b], dx[b], want_dx[b], dy[b], want_dy[b]);
    assert_true(ok);
  }
}

#define TC(name) T_(m_##name), T_(m_##name##f)
int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      TC(isnan),         TC(isinf),
      TC(isfinite),      TC(isnormal),
      TC(fpclassify),    TC(signbit),
      TC(issubnormal),   T_(m_compare),
      T_(m_abs),         T_(m_safe),
      T_(m_assert),      T_(assert_out),
      T_(m_fmin_xy),     T_(m_fmax_xy),
      T_(m_fmin_xc),     T_(m_fmin_cx),
      T_(m_fmin_xk),     T_(m_fminf_xy),
      T_(m_fminf_xk),    T_(m_fmin_uniform),
      T_(m_fmin_exit),   T_(safe_grad),
      T_(m_hints),       T_(hints_grad),
      T_(m_typegeneric), T_(typegeneric_grad),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_classify", tests, NULL, NULL);
}
