/* Differential tests of the exactly defined <math.h> functions that work on
 * the representation or round (ldexp scalbn ilogb logb nextafter fdim rint
 * nearbyint lrint llrint lround llround remainder), float and double form:
 * the batched result equals the scalar one bit for bit (any NaN matches any
 * NaN), on wide inputs (NaN, +-Inf, +-0, subnormals, huge, random bits) and
 * on inputs where each function decides something: exact ties n + 1/2,
 * values at the 2^63 limit of the integer conversions, exponents that
 * overflow or give subnormal results, remainder ties. Also with uniform
 * arguments (scalar calls in the kernel), in a 32-bit-lane function (ilogbf,
 * ldexpf: shape n) and behind a per-lane branch. */
#include "exec_util.h"
#include "../common/test_filter.h"

/* Ties and near-ties of rint/lround, both sides of 2^52 (2^23 for float),
 * and the 2^63 range limit of lrint/lround. */
static double dom_round(rng_t *r) {
  double k = ldexp(rng_range(r, 0, 1), (int)rng_below(r, 54));
  double t = floor(k) + 0.5;
  switch (rng_below(r, 6)) {
  case 0:
    return rng_below(r, 2) ? t : -t;
  case 1:
    return nextafter(t, rng_below(r, 2) ? INFINITY : -INFINITY);
  case 2:
    return (rng_below(r, 2) ? 1 : -1) *
           (0x1p63 - ldexp(rng_range(r, 0, 2000), 10 * (int)rng_below(r, 2)));
  case 3: /* 2^52 - 1/2 and friends */
    return (rng_below(r, 2) ? 1 : -1) * (0x1p52 + 0.5 * (rng_below(r, 5) - 2.0));
  case 4: /* the float ones */
    return (rng_below(r, 2) ? 1 : -1) * (0x1p23 + 0.5 * (rng_below(r, 5) - 2.0));
  default:
    return gen_d(r);
  }
}
static float dom_round_f(rng_t *r) { return (float)dom_round(r); }
static float gen_f_any(rng_t *r) { return gen_f(r); }

/* Exponents over the whole range and past it (and past +-50000). */
static int dom_exp(rng_t *r) {
  static const int e[] = {0,     1,     -1,     24,     -126,  -127,
                          -149,  -150,  127,    128,    -1022, -1023,
                          -1074, -1075, 1023,   1024,   2098,  -2098,
                          50000, 50001, -50001, INT_MAX, INT_MIN};
  if (rng_below(r, 3) == 0)
    return e[rng_below(r, sizeof e / sizeof e[0])];
  return (int)rng_below(r, 4400) - 2200;
}

/* remainder: pairs with x = (2k + 1) y / 2 exactly, or anything. The
 * arrays of x and of y are filled one after the other, so pair i comes from
 * the i-th call of each generator (the same counter-seeded stream). */
static void rem_pair(uint64_t i, double *x, double *y) {
  rng_t r = {name_seed("rem") + 0x9e3779b97f4a7c15ULL * i};
  if (rng_below(&r, 3) == 0) {
    *x = gen_d(&r);
    *y = gen_d(&r);
    return;
  }
  *y = ldexp(1.0 + (double)rng_below(&r, 16) / 16, (int)rng_below(&r, 40) - 20);
  *x = (2.0 * (double)rng_below(&r, 1000) + 1) * *y / 2;
  if (rng_below(&r, 2))
    *x = -*x;
}
static uint64_t rem_nx, rem_ny;
static double dom_rem_x(rng_t *r) {
  (void)r;
  double x, y;
  rem_pair(rem_nx++, &x, &y);
  return x;
}
static double dom_rem_y(rng_t *r) {
  (void)r;
  double x, y;
  rem_pair(rem_ny++, &x, &y);
  return y;
}
static float dom_rem_x_f(rng_t *r) { return (float)dom_rem_x(r); }
static float dom_rem_y_f(rng_t *r) { return (float)dom_rem_y(r); }

/* Integer results: batch only ('diff' needs a floating return). */
#define EXACT1(fn, R, RF, DOM)                                                 \
  BD_BATCH RF m_##fn##f(float x) { return fn##f(x); }                          \
  BD_BATCH R m_##fn(double x) { return fn(x); }                                \
  DIFF1_AS(fn##f_wide, m_##fn##f, RF, CMP_BITS, 0, V, float, gen_f_any)        \
  DIFF1_AS(fn##f_dom, m_##fn##f, RF, CMP_BITS, 0, V, float, DOM##_f)           \
  DIFF1_AS(fn##_wide, m_##fn, R, CMP_BITS, 0, V, double, gen_d)                \
  DIFF1_AS(fn##_dom, m_##fn, R, CMP_BITS, 0, V, double, DOM)
#define EXACT2(fn, DOMX, DOMY)                                                 \
  BATCHDIFF float m_##fn##f(float x, float y) { return fn##f(x, y); }          \
  BATCHDIFF double m_##fn(double x, double y) { return fn(x, y); }             \
  DIFF2_AS(fn##f_wide, m_##fn##f, float, CMP_BITS, 0, V, float, gen_f_any, V,  \
           float, gen_f_any)                                                   \
  DIFF2_AS(fn##f_dom, m_##fn##f, float, CMP_BITS, 0, V, float, DOMX##_f, V,    \
           float, DOMY##_f)                                                    \
  DIFF2_AS(fn##_wide, m_##fn, double, CMP_BITS, 0, V, double, gen_d, V,        \
           double, gen_d)                                                      \
  DIFF2_AS(fn##_dom, m_##fn, double, CMP_BITS, 0, V, double, DOMX, V, double,  \
           DOMY)
#define EXACTI(fn, DOM)                                                        \
  BATCHDIFF float m_##fn##f(float x, int n) { return fn##f(x, n); }            \
  BATCHDIFF double m_##fn(double x, int n) { return fn(x, n); }                \
  DIFF2_AS(fn##f_wide, m_##fn##f, float, CMP_BITS, 0, V, float, gen_f_any, V,  \
           int, gen_i32)                                                       \
  DIFF2_AS(fn##f_dom, m_##fn##f, float, CMP_BITS, 0, V, float, gen_f_any, V,   \
           int, DOM)                                                           \
  DIFF2_AS(fn##_wide, m_##fn, double, CMP_BITS, 0, V, double, gen_d, V, int,   \
           gen_i32)                                                            \
  DIFF2_AS(fn##_dom, m_##fn, double, CMP_BITS, 0, V, double, gen_d, V, int,    \
           DOM)

EXACT1(rint, double, float, dom_round)
EXACT1(nearbyint, double, float, dom_round)
EXACT1(logb, double, float, dom_round)
EXACT1(ilogb, int, int, dom_round)
EXACT1(lrint, long, long, dom_round)
EXACT1(llrint, long long, long long, dom_round)
EXACT1(lround, long, long, dom_round)
EXACT1(llround, long long, long long, dom_round)
EXACT2(fdim, dom_round, dom_round)
EXACT2(nextafter, dom_round, dom_round)
EXACT2(remainder, dom_rem_x, dom_rem_y)
EXACTI(ldexp, dom_exp)
EXACTI(scalbn, dom_exp)

/* Uniform arguments are scalar calls in the kernel; ilogbf and ldexpf in a
 * float-only function run in 32-bit lanes; a per-lane branch masks them. */
BATCHDIFF float m_uniform_f(float x, BD_UNIFORM float u, BD_UNIFORM int k) {
  return ldexpf(x, ilogbf(u) + k) + rintf(u) + remainderf(x, u);
}
DIFF3_AS(uniform_f, m_uniform_f, float, CMP_BITS, 0, V, float, gen_f_any, U,
         float, gen_f_any, U, int, dom_exp)
BATCHDIFF double m_branchy(double x, double y) {
  if (ilogb(x) > 3)
    return (double)lround(x) - nextafter(x, y);
  if (x < y)
    return scalbn(fdim(y, x), (int)lrint(y) % 8);
  return logb(y) + nearbyint(x);
}
DIFF2_AS(branchy, m_branchy, double, CMP_BITS, 0, V, double, dom_round, V,
         double, dom_round)
/* lrintf gives 64-bit lanes to a float function (shape d). */
BATCHDIFF float m_lrintf_mixed(float x, int n) {
  long k = lrintf(x);
  return (float)k + ldexpf(x, n) + (float)ilogbf(x);
}
DIFF2_AS(lrintf_mixed, m_lrintf_mixed, float, CMP_BITS, 0, V, float,
         dom_round_f, V, int, dom_exp)

#define TM(fn)                                                                 \
  cmocka_unit_test(diff_##fn##f_wide), cmocka_unit_test(diff_##fn##f_dom),     \
      cmocka_unit_test(diff_##fn##_wide), cmocka_unit_test(diff_##fn##_dom)

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      TM(rint),      TM(nearbyint), TM(logb),
      TM(ilogb),     TM(lrint),     TM(llrint),
      TM(lround),    TM(llround),   TM(fdim),
      TM(nextafter), TM(remainder), TM(ldexp),
      TM(scalbn),    T_(uniform_f), T_(branchy),
      T_(lrintf_mixed),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_math_exact", tests, NULL, NULL);
}
