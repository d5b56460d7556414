/* Differential tests, floating point: NAME_batched must equal a loop over
 * NAME bit for bit for arithmetic, comparisons, logic, ?:, compound
 * assignment, ++/--, and float/double/int conversions, on random and edge
 * inputs (NaN, +-Inf, +-0, subnormals, huge) for every interesting n. */
#include "exec_util.h"
#include "../common/test_filter.h"

/* One template, instantiated for float (S=f) and double (S=d). Contracted
 * a*b+c expressions are included on purpose: the scalar code uses FMA when
 * the target has it, and the batched code must do the same. */
#define ARITH_FUNCS(T, S)                                                      \
  BATCHDIFF T add_##S(T x, T y) { return x + y; }                              \
  BATCHDIFF T sub_##S(T x, T y) { return x - y; }                              \
  BATCHDIFF T mul_##S(T x, T y) { return x * y; }                              \
  BATCHDIFF T div_##S(T x, T y) { return x / y; }                              \
  BATCHDIFF T neg_##S(T x) { return -x; }                                      \
  BATCHDIFF T plus_##S(T x) { return +x; }                                     \
  BATCHDIFF T poly_##S(T x, T y, T z) {                                        \
    return x * x * y - (T)3 * x + y / (T)7 + z * (T)0.1;                       \
  }                                                                            \
  BATCHDIFF T fmaish_##S(T x, T y, T z) { return x * y + z; }                  \
  BATCHDIFF T fmsish_##S(T x, T y, T z) { return z - x * y; }                  \
  BATCHDIFF T nofma_##S(T x, T y, T z) {                                       \
    T p = x * y; /* separate statement: not contracted */                      \
    return p + z;                                                              \
  }                                                                            \
  BD_BATCH int cmp_##S(T x, T y) {                                             \
    return (x < y) + 2 * (x <= y) + 4 * (x > y) + 8 * (x >= y) +               \
           16 * (x == y) + 32 * (x != y);                                      \
  }                                                                            \
  BD_BATCH int logic_##S(T x, T y) {                                           \
    return ((x > 0 && y > 0) || !(x < y)) + 2 * !x + 4 * (x || y) +            \
           8 * (!(x == x) && y != y);                                          \
  }                                                                            \
  BATCHDIFF T sel_##S(T x, T y) { return x > y ? x - y : y * (T)2; }           \
  BATCHDIFF T sel2_##S(T x, T y) {                                             \
    return x != x ? (T)1 : (y < (T)0 ? -y : (x == (T)0 ? (T)3 : x));           \
  }                                                                            \
  BATCHDIFF T compound_##S(T x, T y) {                                         \
    T z = x;                                                                   \
    z += y;                                                                    \
    z *= (T)2;                                                                 \
    z -= x;                                                                    \
    z /= (T)3;                                                                 \
    z += z * y;                                                                \
    return z;                                                                  \
  }                                                                            \
  BATCHDIFF T incdec_##S(T x) {                                                \
    x++;                                                                       \
    T y = x--;                                                                 \
    ++x;                                                                       \
    T w = --x;                                                                 \
    T v = ++y;                                                                 \
    return x * y + w * (T)0.5 - v;                                             \
  }                                                                            \
  BATCHDIFF T consts_##S(T x) {                                                \
    T r = x;                                                                   \
    if (x > (T)1e30)                                                           \
      r = (T)INFINITY;                                                         \
    if (x < (T)-1e30)                                                          \
      r = -(T)INFINITY;                                                        \
    if (x == (T)3)                                                             \
      r = (T)NAN;                                                              \
    return r + (T)0.0 * x;                                                     \
  }                                                                            \
  BATCHDIFF T negzero_##S(T x) { return x * (T)-0.0 + (T)-0.0; }               \
  BATCHDIFF T inttimes_##S(T x, int k) { return x * k + (T)k / (T)3; }         \
  BATCHDIFF T locals_##S(T x, T y) {                                           \
    T a = x + y, b = x - y;                                                    \
    T c = a * b;                                                               \
    { T a = c * (T)2; c = a - b; } /* shadowing */                             \
    return c + a;                                                              \
  }

ARITH_FUNCS(float, f)
ARITH_FUNCS(double, d)

BITS2(add_f, float, float, gen_f, float, gen_f)
BITS2(sub_f, float, float, gen_f, float, gen_f)
BITS2(mul_f, float, float, gen_f, float, gen_f)
BITS2(div_f, float, float, gen_f, float, gen_f)
DIFF1(neg_f, float, CMP_STRICT, 0, V, float, gen_f)
DIFF1(plus_f, float, CMP_STRICT, 0, V, float, gen_f)
BITS3(poly_f, float, float, gen_f, float, gen_f, float, gen_f)
BITS3(fmaish_f, float, float, gen_f, float, gen_f, float, gen_f)
BITS3(fmsish_f, float, float, gen_f, float, gen_f, float, gen_f)
BITS3(nofma_f, float, float, gen_f, float, gen_f, float, gen_f)
BITS2(cmp_f, int, float, gen_f, float, gen_f)
BITS2(logic_f, int, float, gen_f, float, gen_f)
BITS2(sel_f, float, float, gen_f, float, gen_f)
BITS2(sel2_f, float, float, gen_f, float, gen_f)
BITS2(compound_f, float, float, gen_f, float, gen_f)
BITS1(incdec_f, float, float, gen_f)
BITS1(consts_f, float, float, gen_f)
BITS1(negzero_f, float, float, gen_f)
BITS2(inttimes_f, float, float, gen_f, int, gen_i32)
BITS2(locals_f, float, float, gen_f, float, gen_f)

BITS2(add_d, double, double, gen_d, double, gen_d)
BITS2(sub_d, double, double, gen_d, double, gen_d)
BITS2(mul_d, double, double, gen_d, double, gen_d)
BITS2(div_d, double, double, gen_d, double, gen_d)
DIFF1(neg_d, double, CMP_STRICT, 0, V, double, gen_d)
DIFF1(plus_d, double, CMP_STRICT, 0, V, double, gen_d)
BITS3(poly_d, double, double, gen_d, double, gen_d, double, gen_d)
BITS3(fmaish_d, double, double, gen_d, double, gen_d, double, gen_d)
BITS3(fmsish_d, double, double, gen_d, double, gen_d, double, gen_d)
BITS3(nofma_d, double, double, gen_d, double, gen_d, double, gen_d)
BITS2(cmp_d, int, double, gen_d, double, gen_d)
BITS2(logic_d, int, double, gen_d, double, gen_d)
BITS2(sel_d, double, double, gen_d, double, gen_d)
BITS2(sel2_d, double, double, gen_d, double, gen_d)
BITS2(compound_d, double, double, gen_d, double, gen_d)
BITS1(incdec_d, double, double, gen_d)
BITS1(consts_d, double, double, gen_d)
BITS1(negzero_d, double, double, gen_d)
BITS2(inttimes_d, double, double, gen_d, int, gen_i32)
BITS2(locals_d, double, double, gen_d, double, gen_d)

/* ---- FP contraction: exactly where clang fuses, and nowhere else ------- */

#define CONTRACT_FUNCS(T, S)                                                   \
  BATCHDIFF T ct_addeq_##S(T x, T y, T z) {                                    \
    z += x * y;                                                                \
    return z;                                                                  \
  }                                                                            \
  BATCHDIFF T ct_subeq_##S(T x, T y, T z) {                                    \
    z -= x * y;                                                                \
    return z;                                                                  \
  }                                                                            \
  BATCHDIFF T ct_neg_##S(T x, T y, T z) { return -(x * y) + z; }              \
  BATCHDIFF T ct_negb_##S(T x, T y, T z) { return z + -(x * y); }             \
  BATCHDIFF T ct_msub_##S(T x, T y, T z) { return x * y - z; }                \
  BATCHDIFF T ct_two_##S(T x, T y, T z) { return x * y + z * x; }             \
  BATCHDIFF T ct_chain_##S(T x, T y, T z) { return x * y + z * z + x; }       \
  BATCHDIFF T ct_paren_##S(T x, T y, T z) { return (x * y) + (z); }           \
  BATCHDIFF T ct_const_##S(T x) { return (T)2 * (T)3 + x * (T)0.1; }          \
  BATCHDIFF T ct_tern_##S(T x, T y, T z) {                                     \
    return (x > y ? x * y : z) + z;                                            \
  }                                                                            \
  BATCHDIFF T ct_div_##S(T x, T y, T z) { return x / y + z; }                 \
  BATCHDIFF T ct_mulmul_##S(T x, T y, T z) { return x * y * z + x; }          \
  BATCHDIFF T ct_uni_##S(T x, BD_UNIFORM T w, BD_UNIFORM T u) {                \
    T a = w * u + w;  /* uniform only: scalar fmuladd */                       \
    return w * u + x + a * x - u;                                              \
  }
CONTRACT_FUNCS(float, f)
CONTRACT_FUNCS(double, d)
/* Float product promoted before the add: not contracted (different type). */
BATCHDIFF double ct_promote(float x, float y, double z) {
  return (double)(x * y) + z;
}
BATCHDIFF double ct_promote2(float x, float y, double z) { return x * y + z; }
BATCHDIFF float ct_cast(double x, double y, float z) {
  return (float)(x * y) + z;
}

#define CT3(fn, T, G) BITS3(fn, T, T, G, T, G, T, G)
CT3(ct_addeq_f, float, gen_f) CT3(ct_subeq_f, float, gen_f)
CT3(ct_neg_f, float, gen_f) CT3(ct_negb_f, float, gen_f)
CT3(ct_msub_f, float, gen_f) CT3(ct_two_f, float, gen_f)
CT3(ct_chain_f, float, gen_f) CT3(ct_paren_f, float, gen_f)
BITS1(ct_const_f, float, float, gen_f)
CT3(ct_tern_f, float, gen_f) CT3(ct_div_f, float, gen_f)
CT3(ct_mulmul_f, float, gen_f)
DIFF3(ct_uni_f, float, CMP_BITS, 0, V, float, gen_f, U, float, gen_f, U,
      float, gen_f)
CT3(ct_addeq_d, double, gen_d) CT3(ct_subeq_d, double, gen_d)
CT3(ct_neg_d, double, gen_d) CT3(ct_negb_d, double, gen_d)
CT3(ct_msub_d, double, gen_d) CT3(ct_two_d, double, gen_d)
CT3(ct_chain_d, double, gen_d) CT3(ct_paren_d, double, gen_d)
BITS1(ct_const_d, double, double, gen_d)
CT3(ct_tern_d, double, gen_d) CT3(ct_div_d, double, gen_d)
CT3(ct_mulmul_d, double, gen_d)
DIFF3(ct_uni_d, double, CMP_BITS, 0, V, double, gen_d, U, double, gen_d, U,
      double, gen_d)
BITS3(ct_promote, double, float, gen_f, float, gen_f, double, gen_d)
BITS3(ct_promote2, double, float, gen_f, float, gen_f, double, gen_d)
BITS3(ct_cast, float, double, gen_d, double, gen_d, float, gen_f)

/* ---- float <-> double mixes ------------------------------------------- */

BATCHDIFF double mix_fd(double x, float y) { return x * y + y; }
BATCHDIFF float mix_df(float y, double x) {
  float r = x; /* double -> float rounding, overflow to Inf, subnormals */
  return r + y;
}
BATCHDIFF float mix_promote(float x, float y) {
  return (float)((double)x * (double)y) - x * y; /* double rounding */
}
BATCHDIFF double mix_lit(float x) { return x * 0.1 + 0.1f; } /* 0.1 vs 0.1f */
BATCHDIFF float mix_lit_f(float x) { return x * 0.1 + 0.1f; } /* in double */
BATCHDIFF float mix_cmp(float x, double y) { return x < y ? x : (float)y; }

BITS2(mix_fd, double, double, gen_d, float, gen_f)
BITS2(mix_df, float, float, gen_f, double, gen_d)
BITS2(mix_promote, float, float, gen_f, float, gen_f)
BITS1(mix_lit, double, float, gen_f)
BITS1(mix_lit_f, float, float, gen_f)
BITS2(mix_cmp, float, float, gen_f, double, gen_d)

/* ---- int <-> float conversions ---------------------------------------- */

/* In-range values only: converting an out-of-range float to an integer is
 * undefined in C, so there is no scalar result to compare against. */
static float gen_f_i32ok(rng_t *r) {
  static const float e[] = {0.0f,   -0.0f,  0.5f,        -0.5f, 0.99999994f,
                            -1.5f,  2.5f,   2147483520.0f, -2147483648.0f,
                            1e-40f, 127.9f, -128.9f,     32767.5f};
  if (rng_below(r, 3) == 0)
    return e[rng_below(r, sizeof e / sizeof e[0])];
  return (float)rng_range(r, -3e9 / 1.5, 3e9 / 1.5);
}
static double gen_d_i32ok(rng_t *r) {
  static const double e[] = {0.0,  -0.0,         0.5,         -0.9999999999,
                             2.5,  2147483647.9, -2147483648.9, 1e-310,
                             127.9, -128.9,      65535.99};
  if (rng_below(r, 3) == 0)
    return e[rng_below(r, sizeof e / sizeof e[0])];
  return rng_range(r, -2.1e9, 2.1e9);
}
static double gen_d_u32ok(rng_t *r) {
  static const double e[] = {0.0,          -0.0, 0.5, 4294967295.9,
                             2147483648.0, 3e9,  1.0};
  if (rng_below(r, 3) == 0)
    return e[rng_below(r, sizeof e / sizeof e[0])];
  return rng_range(r, 0, 4.29e9);
}
static double gen_d_i64ok(rng_t *r) {
  static const double e[] = {0.0,     -0.0, 0.5, 9.2e18, -9.2e18, 4503599627370497.0,
                             -1.5,    3e9,  -3e9};
  if (rng_below(r, 3) == 0)
    return e[rng_below(r, sizeof e / sizeof e[0])];
  return rng_range(r, -9e18, 9e18);
}

BD_BATCH int cvt_f_i32(float x) { return (int)x; }
BD_BATCH int cvt_d_i32(double x) { return (int)x; }
BD_BATCH unsigned cvt_d_u32(double x) { return (unsigned)x; }
BD_BATCH long cvt_d_i64(double x) { return (long)x; }
BD_BATCH long cvt_f_i64(float x) { return (long)x; }
BD_BATCH short cvt_f_i16(float x) { return (short)(int)x; }
BD_BATCH signed char cvt_d_i8(double x) { return (signed char)(int)x; }
BD_BATCH unsigned char cvt_d_u8(double x) { return (unsigned char)(int)x; }
BD_BATCH _Bool cvt_f_bool(float x) { return (_Bool)x; } /* NaN -> 1, -0 -> 0 */
BD_BATCH _Bool cvt_d_bool(double x) { return x; }

BITS1(cvt_f_i32, int, float, gen_f_i32ok)
BITS1(cvt_d_i32, int, double, gen_d_i32ok)
BITS1(cvt_d_u32, unsigned, double, gen_d_u32ok)
BITS1(cvt_d_i64, long, double, gen_d_i64ok)
BITS1(cvt_f_i64, long, float, gen_f_i32ok)
BITS1(cvt_f_i16, short, float, gen_f_i32ok)
BITS1(cvt_d_i8, signed char, double, gen_d_i32ok)
BITS1(cvt_d_u8, unsigned char, double, gen_d_i32ok)
BITS1(cvt_f_bool, _Bool, float, gen_f)
BITS1(cvt_d_bool, _Bool, double, gen_d)

BATCHDIFF float cvt_i32_f(int k) { return (float)k; } /* rounds above 2^24 */
BATCHDIFF double cvt_i32_d(int k) { return k; }
BATCHDIFF float cvt_u32_f(unsigned k) { return (float)k; }
BATCHDIFF double cvt_u32_d(unsigned k) { return k; }
BATCHDIFF float cvt_i64_f(long k) { return (float)k; } /* no double rounding */
BATCHDIFF double cvt_i64_d(long k) { return (double)k; }
BATCHDIFF float cvt_u64_f(unsigned long k) { return (float)k; }
BATCHDIFF double cvt_u64_d(unsigned long k) { return (double)k; }
BATCHDIFF float cvt_i16_f(short k) { return k; }
BATCHDIFF double cvt_u16_d(unsigned short k) { return k; }
BATCHDIFF float cvt_i8_f(signed char k) { return k * 0.5f; }
BATCHDIFF double cvt_u8_d(unsigned char k) { return k * 0.5; }
BATCHDIFF float cvt_c_f(char k) { return k; }
BATCHDIFF double cvt_b_d(_Bool k) { return k + 0.25; }

BITS1(cvt_i32_f, float, int, gen_i32)
BITS1(cvt_i32_d, double, int, gen_i32)
BITS1(cvt_u32_f, float, unsigned, gen_u32)
BITS1(cvt_u32_d, double, unsigned, gen_u32)
BITS1(cvt_i64_f, float, long, gen_i64)
BITS1(cvt_i64_d, double, long, gen_i64)
BITS1(cvt_u64_f, float, unsigned long, gen_u64)
BITS1(cvt_u64_d, double, unsigned long, gen_u64)
BITS1(cvt_i16_f, float, short, gen_i16)
BITS1(cvt_u16_d, double, unsigned short, gen_u16)
BITS1(cvt_i8_f, float, signed char, gen_i8)
BITS1(cvt_u8_d, double, unsigned char, gen_u8)
BITS1(cvt_c_f, float, char, gen_c)
BITS1(cvt_b_d, double, _Bool, gen_b)

/* Usual arithmetic conversions in mixed expressions. */
BATCHDIFF float uac_1(float x, int k, unsigned u) {
  return x + k * 2 + (float)(u / 3u) + (k < 0 ? 1.0f : 0.0f);
}
BATCHDIFF double uac_2(double x, long l, short s, unsigned char c) {
  return x * s + (double)(l / 5) - c;
}
BATCHDIFF float uac_3(int k, float x) {
  int j = x > 0 ? 1 : -1; /* float compare feeding an int */
  float r = k;            /* implicit int -> float */
  r += j;                 /* int into float compound */
  int t = k;
  t += x > 1 ? 2 : 3;
  return r * (float)t;
}

BITS3(uac_1, float, float, gen_f, int, gen_i32s, unsigned, gen_u32)
BITS4(uac_2, double, double, gen_d, long, gen_i64, short, gen_i16,
      unsigned char, gen_u8)
BITS2(uac_3, float, int, gen_i32s, float, gen_f)

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T_(add_f),       T_(sub_f),       T_(mul_f),       T_(div_f),
      T_(neg_f),       T_(plus_f),      T_(poly_f),      T_(fmaish_f),
      T_(fmsish_f),    T_(nofma_f),     T_(cmp_f),       T_(logic_f),
      T_(sel_f),       T_(sel2_f),      T_(compound_f),  T_(incdec_f),
      T_(consts_f),    T_(negzero_f),   T_(inttimes_f),  T_(locals_f),
      T_(add_d),       T_(sub_d),       T_(mul_d),       T_(div_d),
      T_(neg_d),       T_(plus_d),      T_(poly_d),      T_(fmaish_d),
      T_(fmsish_d),    T_(nofma_d),     T_(cmp_d),       T_(logic_d),
      T_(sel_d),       T_(sel2_d),      T_(compound_d),  T_(incdec_d),
      T_(consts_d),    T_(negzero_d),   T_(inttimes_d),  T_(locals_d),
      T_(mix_fd),      T_(mix_df),      T_(mix_promote), T_(mix_lit),
      T_(mix_lit_f),   T_(mix_cmp),     T_(cvt_f_i32),   T_(cvt_d_i32),
      T_(cvt_d_u32),   T_(cvt_d_i64),   T_(cvt_f_i64),   T_(cvt_f_i16),
      T_(cvt_d_i8),    T_(cvt_d_u8),    T_(cvt_f_bool),  T_(cvt_d_bool),
      T_(cvt_i32_f),   T_(cvt_i32_d),   T_(cvt_u32_f),   T_(cvt_u32_d),
      T_(cvt_i64_f),   T_(cvt_i64_d),   T_(cvt_u64_f),   T_(cvt_u64_d),
      T_(cvt_i16_f),   T_(cvt_u16_d),   T_(cvt_i8_f),    T_(cvt_u8_d),
      T_(cvt_c_f),     T_(cvt_b_d),     T_(uac_1),       T_(uac_2),
      T_(uac_3),
      T_(ct_addeq_f),  T_(ct_subeq_f),  T_(ct_neg_f),    T_(ct_negb_f),
      T_(ct_msub_f),   T_(ct_two_f),    T_(ct_chain_f),  T_(ct_paren_f),
      T_(ct_const_f),  T_(ct_tern_f),   T_(ct_div_f),    T_(ct_mulmul_f),
      T_(ct_uni_f),    T_(ct_addeq_d),  T_(ct_subeq_d),  T_(ct_neg_d),
      T_(ct_negb_d),   T_(ct_msub_d),   T_(ct_two_d),    T_(ct_chain_d),
      T_(ct_paren_d),  T_(ct_const_d),  T_(ct_tern_d),   T_(ct_div_d),
      T_(ct_mulmul_d), T_(ct_uni_d),    T_(ct_promote),  T_(ct_promote2),
      T_(ct_cast),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_arith", tests, NULL, NULL);
}
