/* Every bd_* operation against the scalar C operator, lane by lane and bit
 * for bit, on edge values and random samples. Built for each width: 512-bit
 * (-march=x86-64-v4 and -mavx512f), 256-bit (-mavx2 -mfma) and 128-bit
 * (plain x86-64). Partial and masked memory access is checked against a
 * guard page. */
#include <batchdiff/batchdiff_rt.h>

#include "test_util.h"

#include "../common/test_filter.h"

#define NS 4096 /* samples per array; a multiple of every width */

/* Three sample arrays per element width; unsigned types reuse the signed
 * arrays (same representation, aliasing allowed). */
typedef struct {
  float f32[3][NS];
  double f64[3][NS];
  int32_t i32[3][NS];
  int64_t i64[3][NS];
} samples;

static const float f32_edges[] = {
    0.0f,     -0.0f,    1.0f,        -1.0f,          0.5f,
    -0.5f,    1.5f,     -1.5f,       2.5f,           -2.5f,
    3.0f,     -7.0f,    0.49999997f, INFINITY,       -INFINITY,
    NAN,      -NAN,     FLT_MIN,     FLT_TRUE_MIN,   -FLT_TRUE_MIN,
    FLT_MAX,  -FLT_MAX, 0x1p23f,     0x1p23f + 1,    0x1p24f,
    0x1p31f,  -0x1p31f, 0x1p32f,     0x1p32f - 256,  0x1p63f,
    -0x1p63f, 0x1p64f,  1e20f,       -0x1.fffffep30f};
static const double f64_edges[] = {0.0,
                                   -0.0,
                                   1.0,
                                   -1.0,
                                   0.5,
                                   -0.5,
                                   1.5,
                                   -1.5,
                                   2.5,
                                   -2.5,
                                   3.0,
                                   -7.0,
                                   0.49999999999999994,
                                   INFINITY,
                                   -INFINITY,
                                   NAN,
                                   -NAN,
                                   DBL_MIN,
                                   DBL_TRUE_MIN,
                                   -DBL_TRUE_MIN,
                                   DBL_MAX,
                                   -DBL_MAX,
                                   0x1p52,
                                   0x1p52 + 1,
                                   0x1p53,
                                   0x1p31,
                                   -0x1p31,
                                   -2147483648.5,
                                   2147483647.5,
                                   0x1p32,
                                   0x1p32 - 0.5,
                                   0x1p63,
                                   -0x1p63,
                                   0x1p64,
                                   1e300,
                                   -4294967295.9};
static const int64_t int_edges[] = {0,
                                    1,
                                    -1,
                                    2,
                                    -2,
                                    3,
                                    7,
                                    -7,
                                    31,
                                    32,
                                    33,
                                    63,
                                    64,
                                    127,
                                    128,
                                    255,
                                    256,
                                    -128,
                                    -129,
                                    32767,
                                    32768,
                                    -32768,
                                    65535,
                                    65536,
                                    INT32_MAX,
                                    INT32_MIN,
                                    INT32_MIN + 1,
                                    0xffffffffLL,
                                    0x1000001,
                                    (1LL << 53) + 1,
                                    INT64_MAX,
                                    INT64_MIN,
                                    INT64_MIN + 1};
#define NEDGE(a) (sizeof(a) / sizeof((a)[0]))

/* Edge x edge pairs first, so binary ops see every combination; then random
 * bit patterns, small values and values of random magnitude. */
static int setup(void **state) {
  samples *s = calloc(1, sizeof *s);
  uint64_t rng = 42;
  for (size_t j = 0; j < 3; j++) {
    for (size_t k = 0; k < NS; k++) {
      size_t e1 = k % NEDGE(f32_edges),
             e2 = (k / NEDGE(f32_edges) + j) % NEDGE(f32_edges);
      uint64_t r = tu_next(&rng);
      double u = tu_unit(&rng) * 2 - 1;
      int edge = k < 2048;
      size_t ef = j == 1 ? e2 : e1;
      size_t ed = j == 1 ? (k / NEDGE(f64_edges) + j) % NEDGE(f64_edges)
                         : k % NEDGE(f64_edges);
      size_t ei = j == 1 ? (k / NEDGE(int_edges) + j) % NEDGE(int_edges)
                         : k % NEDGE(int_edges);
      switch (edge ? 3 : r % 3) {
      case 0:
        s->f32[j][k] = tu_f32_bits((uint32_t)(r >> 7));
        s->f64[j][k] = tu_f64_bits(tu_next(&rng));
        s->i32[j][k] = (int32_t)(r >> 9);
        s->i64[j][k] = (int64_t)tu_next(&rng);
        break;
      case 1:
        s->f32[j][k] = (float)(u * 100);
        s->f64[j][k] = u * 100;
        s->i32[j][k] = (int32_t)(u * 50);
        s->i64[j][k] = (int64_t)(u * 50);
        break;
      case 2:
        s->f32[j][k] = (float)ldexp(u, (int)(r % 64) - 32);
        s->f64[j][k] = ldexp(u, (int)(r % 128) - 64);
        s->i32[j][k] = (int32_t)ldexp(u, (int)(r % 31));
        s->i64[j][k] = (int64_t)ldexp(u, (int)(r % 63));
        break;
      default:
        s->f32[j][k] = f32_edges[ef];
        s->f64[j][k] = f64_edges[ed];
        s->i32[j][k] = (int32_t)int_edges[ei];
        s->i64[j][k] = int_edges[ei];
      }
    }
  }
  *state = s;
  return 0;
}

static int teardown(void **state) {
  free(*state);
  return 0;
}

#define SRC_float(s, j) ((const float *)(s)->f32[j])
#define SRC_double(s, j) ((const double *)(s)->f64[j])
#define SRC_int32_t(s, j) ((const int32_t *)(s)->i32[j])
#define SRC_uint32_t(s, j) ((const uint32_t *)(s)->i32[j])
#define SRC_int64_t(s, j) ((const int64_t *)(s)->i64[j])
#define SRC_uint64_t(s, j) ((const uint64_t *)(s)->i64[j])

/* Runs `bd_<op>_<T>` over all samples; EXPR is the scalar reference in terms
 * of the lane inputs a, b, c. RT/RE: result vector and element type. */
#define LOOP(T, E, W, RE, what, CALL, EXPR)                                    \
  do {                                                                         \
    const E *A = SRC_##E(s, 0), *B = SRC_##E(s, 1), *C = SRC_##E(s, 2);        \
    for (size_t k = 0; k + (W) <= NS; k += (W)) {                              \
      bd_##T va = bd_load_##T(A + k), vb = bd_load_##T(B + k),                 \
             vc = bd_load_##T(C + k);                                          \
      (void)vb;                                                                \
      (void)vc;                                                                \
      __typeof__(CALL) r = CALL;                                               \
      for (int i = 0; i < (W); i++) {                                          \
        E a = A[k + i], b = B[k + i], c = C[k + i];                            \
        (void)b;                                                               \
        (void)c;                                                               \
        RE want = (RE)(EXPR), got = (RE)r[i];                                  \
        tu_check(want, got, what, k + i);                                      \
      }                                                                        \
    }                                                                          \
  } while (0)
#define BIN(T, E, W, op, EXPR)                                                 \
  LOOP(T, E, W, E, #op "_" #T, bd_##op##_##T(va, vb), EXPR)
#define UN(T, E, W, op, EXPR)                                                  \
  LOOP(T, E, W, E, #op "_" #T, bd_##op##_##T(va), EXPR)
#define CMP(T, E, W, ME, op, COND)                                             \
  LOOP(T, E, W, ME, "cmp" #op "_" #T, bd_cmp##op##_##T(va, vb),                \
       (COND) ? (ME)-1 : (ME)0)
#define CMPS(T, E, W, ME)                                                      \
  CMP(T, E, W, ME, eq, a == b);                                                \
  CMP(T, E, W, ME, ne, a != b);                                                \
  CMP(T, E, W, ME, lt, a < b);                                                 \
  CMP(T, E, W, ME, le, a <= b);                                                \
  CMP(T, E, W, ME, gt, a > b);                                                 \
  CMP(T, E, W, ME, ge, a >= b)

/* What clang emits for a contracted a * b + c (llvm.fmuladd). */
#pragma STDC FP_CONTRACT ON
static float ref_fmuladd_f(float a, float b, float c) { return a * b + c; }
static double ref_fmuladd_d(double a, double b, double c) { return a * b + c; }
#pragma STDC FP_CONTRACT OFF
#define REF_FMULADD(E)                                                         \
  _Generic((E)0, float : ref_fmuladd_f, double : ref_fmuladd_d)

#define FLOAT_TEST(T, E, W, MS, ME)                                            \
  static void test_float_##T(void **state) {                                   \
    const samples *s = *state;                                                 \
    BIN(T, E, W, add, a + b);                                                  \
    BIN(T, E, W, sub, a - b);                                                  \
    BIN(T, E, W, mul, a *b);                                                   \
    BIN(T, E, W, div, a / b);                                                  \
    LOOP(T, E, W, E, "divx_" #T, bd_divx_##T(va, vb, bd_recip_##T(vb)),       \
         a / b);                                                               \
    UN(T, E, W, neg, -a);                                                      \
    LOOP(T, E, W, E, "fmuladd_" #T, bd_fmuladd_##T(va, vb, vc),                \
         REF_FMULADD(E)(a, b, c));                                             \
    CMPS(T, E, W, ME);                                                         \
    LOOP(T, E, W, E, "select_" #T,                                             \
         bd_select_##T(bd_cmplt_##T(vc, bd_splat_##T(0)), va, vb),             \
         c < 0 ? a : b);                                                       \
    for (size_t k = 0; k + (W) <= NS; k += (W)) {                              \
      const E *A = SRC_##E(s, 0) + k;                                          \
      E want = A[0];                                                           \
      for (int i = 1; i < (W); i++)                                            \
        want += A[i];                                                          \
      E got = bd_hsum_##T(bd_load_##T(A));                                     \
      tu_check(want, got, "hsum_" #T, k);                                      \
    }                                                                          \
  }

#define REF_DIV(E, MIN)                                                        \
  (b == 0 ? (E)0 : ((MIN) != 0 && a == (E)(MIN) && b == (E)-1) ? a : a / b)
#define REF_REM(E, MIN)                                                        \
  (b == 0 ? (E)0 : ((MIN) != 0 && a == (E)(MIN) && b == (E)-1) ? 0 : a % b)

#define INT_TEST(T, E, UE, W, ME, BITS, MIN)                                   \
  static void test_int_##T(void **state) {                                     \
    const samples *s = *state;                                                 \
    BIN(T, E, W, add, (UE)a + (UE)b);                                          \
    BIN(T, E, W, sub, (UE)a - (UE)b);                                          \
    BIN(T, E, W, mul, (UE)a *(UE)b);                                           \
    UN(T, E, W, neg, -(UE)a);                                                  \
    BIN(T, E, W, div, REF_DIV(E, MIN));                                        \
    BIN(T, E, W, rem, REF_REM(E, MIN));                                        \
    BIN(T, E, W, and, a &b);                                                   \
    BIN(T, E, W, or, a | b);                                                   \
    BIN(T, E, W, xor, a ^ b);                                                  \
    UN(T, E, W, not, ~a);                                                      \
    BIN(T, E, W, shl, (UE)a << ((UE)b & (BITS - 1)));                          \
    BIN(T, E, W, shr, a >> ((UE)b & (BITS - 1)));                              \
    CMPS(T, E, W, ME);                                                         \
    LOOP(T, E, W, E, "select_" #T,                                             \
         bd_select_##T(bd_cmplt_##T(vc, vb), va, vb), c < b ? a : b);          \
  }

FLOAT_TEST(f32n, float, BD_WN, n, int32_t)
FLOAT_TEST(f32d, float, BD_WD, d, int64_t)
FLOAT_TEST(f64d, double, BD_WD, d, int64_t)
INT_TEST(i32n, int32_t, uint32_t, BD_WN, int32_t, 32, INT32_MIN)
INT_TEST(u32n, uint32_t, uint32_t, BD_WN, int32_t, 32, 0)
INT_TEST(i32d, int32_t, uint32_t, BD_WD, int64_t, 32, INT32_MIN)
INT_TEST(u32d, uint32_t, uint32_t, BD_WD, int64_t, 32, 0)
INT_TEST(i64d, int64_t, uint64_t, BD_WD, int64_t, 64, INT64_MIN)
INT_TEST(u64d, uint64_t, uint64_t, BD_WD, int64_t, 64, 0)

/* ---- narrow integers ---- */
#define NARROW_TEST(T, E, W)                                                   \
  static void test_narrow_##T(void **state) {                                  \
    const samples *s = *state;                                                 \
    UN(T, E, W, sext8, (E)(signed char)a);                                     \
    UN(T, E, W, zext8, (E)(unsigned char)a);                                   \
    UN(T, E, W, sext16, (E)(short)a);                                          \
    UN(T, E, W, zext16, (E)(unsigned short)a);                                 \
  }
NARROW_TEST(i32n, int32_t, BD_WN)
NARROW_TEST(u32n, uint32_t, BD_WN)
NARROW_TEST(i32d, int32_t, BD_WD)
NARROW_TEST(u32d, uint32_t, BD_WD)

/* ---- conversions ----
 * Float to integer: C truncation in range; documented MIN / 0 outside. */
static int32_t ref_f2i32(double v) {
  return v >= -0x1p31 && v < 0x1p31 ? (int32_t)v : INT32_MIN;
}
static uint32_t ref_f2u32(double v) {
  return v > -1.0 && v < 0x1p32 ? (uint32_t)v : 0;
}
static int64_t ref_f2i64(double v) {
  return v >= -0x1p63 && v < 0x1p63 ? (int64_t)v : INT64_MIN;
}
static uint64_t ref_f2u64(double v) {
  return v > -1.0 && v < 0x1p64 ? (uint64_t)v : 0;
}
#define REF_CVT_int32_t(a) ref_f2i32(a)
#define REF_CVT_uint32_t(a) ref_f2u32(a)
#define REF_CVT_int64_t(a) ref_f2i64(a)
#define REF_CVT_uint64_t(a) ref_f2u64(a)
#define CVT(X, EX, Y, EY, W)                                                   \
  LOOP(X, EX, W, EY, "cvt_" #X "_" #Y, bd_cvt_##X##_##Y(va), (EY)a)
#define CVTF(X, EX, Y, EY, W)                                                  \
  LOOP(X, EX, W, EY, "cvt_" #X "_" #Y, bd_cvt_##X##_##Y(va), REF_CVT_##EY(a))

static void test_cvt_n(void **state) {
  const samples *s = *state;
  CVTF(f32n, float, i32n, int32_t, BD_WN);
  CVTF(f32n, float, u32n, uint32_t, BD_WN);
  CVT(i32n, int32_t, f32n, float, BD_WN);
  CVT(u32n, uint32_t, f32n, float, BD_WN);
  CVT(i32n, int32_t, u32n, uint32_t, BD_WN);
  CVT(u32n, uint32_t, i32n, int32_t, BD_WN);
}

static void test_cvt_d(void **state) {
  const samples *s = *state;
  CVT(f64d, double, f32d, float, BD_WD);
  CVT(f32d, float, f64d, double, BD_WD);
  CVTF(f64d, double, i32d, int32_t, BD_WD);
  CVTF(f64d, double, u32d, uint32_t, BD_WD);
  CVTF(f64d, double, i64d, int64_t, BD_WD);
  CVTF(f64d, double, u64d, uint64_t, BD_WD);
  CVTF(f32d, float, i32d, int32_t, BD_WD);
  CVTF(f32d, float, u32d, uint32_t, BD_WD);
  CVTF(f32d, float, i64d, int64_t, BD_WD);
  CVTF(f32d, float, u64d, uint64_t, BD_WD);
  CVT(i32d, int32_t, f64d, double, BD_WD);
  CVT(i32d, int32_t, f32d, float, BD_WD);
  CVT(i32d, int32_t, u32d, uint32_t, BD_WD);
  CVT(i32d, int32_t, i64d, int64_t, BD_WD);
  CVT(i32d, int32_t, u64d, uint64_t, BD_WD);
  CVT(u32d, uint32_t, f64d, double, BD_WD);
  CVT(u32d, uint32_t, f32d, float, BD_WD);
  CVT(u32d, uint32_t, i32d, int32_t, BD_WD);
  CVT(u32d, uint32_t, i64d, int64_t, BD_WD);
  CVT(u32d, uint32_t, u64d, uint64_t, BD_WD);
  CVT(i64d, int64_t, f64d, double, BD_WD);
  CVT(i64d, int64_t, f32d, float, BD_WD);
  CVT(i64d, int64_t, i32d, int32_t, BD_WD);
  CVT(i64d, int64_t, u32d, uint32_t, BD_WD);
  CVT(i64d, int64_t, u64d, uint64_t, BD_WD);
  CVT(u64d, uint64_t, f64d, double, BD_WD);
  CVT(u64d, uint64_t, f32d, float, BD_WD);
  CVT(u64d, uint64_t, i32d, int32_t, BD_WD);
  CVT(u64d, uint64_t, u32d, uint32_t, BD_WD);
  CVT(u64d, uint64_t, i64d, int64_t, BD_WD);
}

/* ---- masks ---- */
#define MASK_TEST(S, M, ME, W)                                                 \
  static void test_mask_##S(void **state) {                                    \
    (void)state;                                                               \
    const int full = (1 << (W)) - 1;                                           \
    assert_int_equal(bd_mbits_##S(bd_mtrue_##S()), full);                      \
    assert_int_equal(bd_mbits_##S(bd_mfalse_##S()), 0);                        \
    for (size_t k = 0; k <= (W) + 2; k++) {                                    \
      M m = bd_mfirst_##S(k);                                                  \
      for (int i = 0; i < (W); i++)                                            \
        assert_int_equal(m[i], (size_t)i < k ? -1 : 0);                        \
    }                                                                          \
    for (int x = 0; x <= full; x++) {                                          \
      M m = bd_mfromint_##S(x);                                                \
      for (int i = 0; i < (W); i++)                                            \
        assert_int_equal(m[i], (x >> i & 1) ? -1 : 0);                         \
      assert_int_equal(bd_mbits_##S(m), x);                                    \
      assert_int_equal(bd_mcount_##S(m), __builtin_popcount(x));               \
      assert_int_equal(bd_any_m##S(m), x != 0);                                \
      assert_int_equal(bd_all_m##S(m), x == full);                             \
      assert_int_equal(bd_none_m##S(m), x == 0);                               \
      assert_int_equal(bd_mbits_##S(bd_not_m##S(m)), full & ~x);               \
      /* 16 lanes: every x, and y in steps of 257 (0 and full included), not   \
       * all 2^32 pairs. */                                                    \
      for (int y = 0; y <= full; y += (W) > 8 ? 257 : 1) {                     \
        M n = bd_mfromint_##S(y);                                              \
        assert_int_equal(bd_mbits_##S(bd_and_m##S(m, n)), x &y);               \
        assert_int_equal(bd_mbits_##S(bd_or_m##S(m, n)), x | y);               \
        assert_int_equal(bd_mbits_##S(bd_xor_m##S(m, n)), x ^ y);              \
        assert_int_equal(bd_mbits_##S(bd_andnot_m##S(m, n)), x & ~y);          \
        int sel = bd_mbits_##S(bd_select_m##S(m, n, bd_not_m##S(n)));          \
        assert_int_equal(sel, ((x & y) | (~x & ~y)) & full);                   \
      }                                                                        \
    }                                                                          \
  }
MASK_TEST(n, bd_mn, int32_t, BD_WN)
MASK_TEST(d, bd_md, int64_t, BD_WD)

#define CVTM_CHECK(S, T, E, W)                                                 \
  for (int x = 0; x < (1 << (W)); x++) {                                       \
    bd_##T v = bd_cvt_m##S##_##T(bd_mfromint_##S(x));                          \
    for (int i = 0; i < (W); i++) {                                            \
      E want = (E)(x >> i & 1), got = v[i];                                    \
      tu_check_bits(&want, &got, sizeof(E), "cvt_m" #S "_" #T, (size_t)x);     \
    }                                                                          \
  }
static void test_cvt_mask(void **state) {
  (void)state;
  CVTM_CHECK(n, f32n, float, BD_WN);
  CVTM_CHECK(n, i32n, int32_t, BD_WN);
  CVTM_CHECK(n, u32n, uint32_t, BD_WN);
  CVTM_CHECK(d, f64d, double, BD_WD);
  CVTM_CHECK(d, f32d, float, BD_WD);
  CVTM_CHECK(d, i32d, int32_t, BD_WD);
  CVTM_CHECK(d, u32d, uint32_t, BD_WD);
  CVTM_CHECK(d, i64d, int64_t, BD_WD);
  CVTM_CHECK(d, u64d, uint64_t, BD_WD);
}

/* Checks one vector lane (lanes have no address) against *want. */
#define CHKV(want, lane, what, idx)                                            \
  do {                                                                         \
    __typeof__(lane) got_ = (lane);                                            \
    tu_check_bits((want), &got_, sizeof got_, (what), (idx));                  \
  } while (0)

/* ---- memory: whole, partial, masked, gather/scatter; guard page ---- */
#define MEM_TEST(T, E, S, M, IDX, W)                                           \
  static void test_mem_##T(void **state) {                                     \
    const samples *s = *state;                                                 \
    const E *A = SRC_##E(s, 0);                                                \
    size_t page = gp_page();                                                   \
    /* data right before a PROT_NONE page */                                   \
    unsigned char *guard = (unsigned char *)gp_map(page) + page;               \
    E out[W];                                                                  \
    for (size_t k = 0; k + (W) <= 512; k += (W)) {                             \
      bd_##T v = bd_load_##T(A + k);                                           \
      bd_store_##T(out, v);                                                    \
      assert_memory_equal(out, A + k, sizeof out);                             \
      bd_##T sp = bd_splat_##T(A[k]);                                          \
      for (int i = 0; i < (W); i++) {                                          \
        CHKV(&A[k], sp[i], "splat_" #T, k);                                    \
        E x = bd_lane_##T(v, i);                                               \
        tu_check_bits(&A[k + i], &x, sizeof(E), "lane_" #T, k);                \
        bd_##T w = bd_insert_##T(v, i, A[k + 1]);                              \
        for (int j = 0; j < (W); j++)                                          \
          CHKV(j == i ? &A[k + 1] : &A[k + j], w[j], "insert_" #T, k);         \
      }                                                                        \
    }                                                                          \
    for (size_t k = 1; k <= (W); k++) {                                        \
      E *p = (E *)(guard - k * sizeof(E));                                     \
      memcpy(p, A + 7, k * sizeof(E));                                         \
      bd_##T v = bd_loadn_##T(p, k);                                           \
      for (size_t i = 0; i < (W); i++)                                         \
        CHKV(&p[i < k ? i : 0], v[i], "loadn_" #T, k);                         \
      memset(guard - page, 0xab, page);                                        \
      bd_storen_##T(p, bd_load_##T(A + 16), k);                                \
      for (size_t i = 0; i < k; i++)                                           \
        tu_check_bits(&A[16 + i], &p[i], sizeof(E), "storen_" #T, k);          \
      for (unsigned char *q = guard - page; q < (unsigned char *)p; q++)       \
        assert_int_equal(*q, 0xab);                                            \
    }                                                                          \
    /* Lanes >= j lie in the guard page; lanes < j on at random. */            \
    uint64_t rng = 7;                                                          \
    for (int rep = 0; rep < 64; rep++) {                                       \
      size_t j = (size_t)(rep % (W)) + 1;                                      \
      int bits = (int)(tu_next(&rng) & ((1u << j) - 1));                       \
      M m = bd_mfromint_##S(bits);                                             \
      E *p = (E *)(guard - j * sizeof(E));                                     \
      memcpy(p, A + rep, j * sizeof(E));                                       \
      bd_##T v = bd_maskload_##T(m, p);                                        \
      for (size_t i = 0; i < (W); i++) {                                       \
        E want = (bits >> i & 1) ? p[i] : (E)0;                                \
        CHKV(&want, v[i], "maskload_" #T, (size_t)rep);                        \
      }                                                                        \
      bd_maskstore_##T(m, p, bd_load_##T(A + 100));                            \
      for (size_t i = 0; i < j; i++)                                           \
        tu_check_bits((bits >> i & 1) ? &A[100 + i] : &A[rep + i], &p[i],      \
                      sizeof(E), "maskstore_" #T, (size_t)rep);                \
    }                                                                          \
    /* Gather/scatter: masked-off indices point into the guard page. */        \
    enum { NB = 64 };                                                          \
    E *base = (E *)(guard - NB * sizeof(E));                                   \
    for (int rep = 0; rep < 256; rep++) {                                      \
      memcpy(base, A + rep, NB * sizeof(E));                                   \
      int bits = (int)(tu_next(&rng) & ((1u << (W)) - 1));                     \
      M m = bd_mfromint_##S(bits);                                             \
      IDX idx;                                                                 \
      int narrow = rep & 1; /* collisions for scatter order */                 \
      for (int i = 0; i < (W); i++)                                            \
        idx[i] = (bits >> i & 1) ? (narrow ? (int)(tu_next(&rng) % 3)          \
                                           : (int)(tu_next(&rng) % NB))        \
                                 : NB + (int)(page / sizeof(E) / 2);           \
      bd_##T g = bd_gather_##T(m, base, idx);                                  \
      for (int i = 0; i < (W); i++) {                                          \
        E want = (bits >> i & 1) ? base[idx[i]] : (E)0;                        \
        CHKV(&want, g[i], "gather_" #T, (size_t)rep);                          \
      }                                                                        \
      E ref[NB];                                                               \
      memcpy(ref, base, sizeof ref);                                           \
      bd_##T v = bd_load_##T(A + 200 + rep);                                   \
      for (int i = 0; i < (W); i++)                                            \
        if (bits >> i & 1)                                                     \
          ref[idx[i]] = v[i];                                                  \
      bd_scatter_##T(m, base, idx, v);                                         \
      assert_memory_equal(ref, base, sizeof ref);                              \
    }                                                                          \
    gp_unmap(guard - page, page);                                              \
  }
MEM_TEST(f32n, float, n, bd_mn, bd_i32n, BD_WN)
MEM_TEST(i32n, int32_t, n, bd_mn, bd_i32n, BD_WN)
MEM_TEST(u32n, uint32_t, n, bd_mn, bd_i32n, BD_WN)
MEM_TEST(f64d, double, d, bd_md, bd_i64d, BD_WD)
MEM_TEST(f32d, float, d, bd_md, bd_i64d, BD_WD)
MEM_TEST(i32d, int32_t, d, bd_md, bd_i64d, BD_WD)
MEM_TEST(u32d, uint32_t, d, bd_md, bd_i64d, BD_WD)
MEM_TEST(i64d, int64_t, d, bd_md, bd_i64d, BD_WD)
MEM_TEST(u64d, uint64_t, d, bd_md, bd_i64d, BD_WD)

/* Small shared tables (bd_tgather): every length up to past the permute's
 * capacity (the gather's fallback), each table ending right before a
 * PROT_NONE page; active lanes' indices in the table, off lanes' anywhere
 * (huge, negative): the gather's values, and 0 in off lanes. */
#define TGATHER_TEST(T, E, S, M, IDX, W, CAP)                                  \
  static void test_tgather_##T(void **state) {                                 \
    const samples *s = *state;                                                 \
    const E *A = SRC_##E(s, 0);                                                \
    size_t page = gp_page();                                                   \
    unsigned char *guard = (unsigned char *)gp_map(page) + page;               \
    uint64_t rng = 11;                                                         \
    for (int len = 1; len <= (CAP) + 3; len++) {                               \
      E *base = (E *)(guard - (size_t)len * sizeof(E));                        \
      memcpy(base, A + len, (size_t)len * sizeof(E));                          \
      for (int rep = 0; rep < 64; rep++) {                                     \
        int bits = (int)(tu_next(&rng) & ((1u << (W)) - 1));                   \
        if (rep == 0)                                                          \
          bits = (int)((1u << (W)) - 1);                                       \
        M m = bd_mfromint_##S(bits);                                           \
        IDX idx;                                                               \
        for (int i = 0; i < (W); i++)                                          \
          idx[i] = (bits >> i & 1) ? (int)(tu_next(&rng) % (unsigned)len)      \
                   : rep & 1       ? -(int)(tu_next(&rng) % 100000) - 1        \
                                   : len + (int)(tu_next(&rng) % 100000);      \
        bd_##T g = bd_tgather_##T(m, base, len, idx);                          \
        for (int i = 0; i < (W); i++) {                                        \
          E want = (bits >> i & 1) ? base[idx[i]] : (E)0;                      \
          CHKV(&want, g[i], "tgather_" #T, (size_t)(len * 100 + rep));         \
        }                                                                      \
      }                                                                        \
    }                                                                          \
    gp_unmap(guard - page, page);                                              \
  }
TGATHER_TEST(f32n, float, n, bd_mn, bd_i32n, BD_WN, 32)
TGATHER_TEST(f64d, double, d, bd_md, bd_i64d, BD_WD, 16)

/* fmin/fmax: on a tie of zeros (-0, +0 or +0, -0) the first operand, bit
 * for bit, at every width and whatever the compiler can prove about the
 * operands (here: constants it sees through); a NaN operand gives the other
 * one; otherwise the smaller / larger. */
#define MINMAX_TEST(T, E, W)                                                   \
  static void test_minmax_##T(void **state) {                                  \
    (void)state;                                                               \
    static const E xs[] = {-0.0, 0.0, -0.0, 0.0, NAN, 1.0, NAN, -2.0, 3.0};    \
    static const E ys[] = {0.0, -0.0, -0.0, 0.0, 1.0, NAN, NAN, 5.0, -4.0};    \
    enum { K = sizeof xs / sizeof xs[0] };                                     \
    for (int i = 0; i < K; i++) {                                              \
      E xa[W], ya[W], mn[W], mx[W];                                            \
      for (int l = 0; l < W; l++) {                                            \
        xa[l] = xs[(i + l) % K];                                               \
        ya[l] = ys[(i + l) % K];                                               \
      }                                                                        \
      bd_store_##T(mn, bd_fmin_##T(bd_load_##T(xa), bd_load_##T(ya)));         \
      bd_store_##T(mx, bd_fmax_##T(bd_load_##T(xa), bd_load_##T(ya)));         \
      for (int l = 0; l < W; l++) {                                            \
        E x = xa[l], y = ya[l];                                                \
        E wmin = isnan(x) ? y : isnan(y) ? x : y < x ? y : x;                  \
        E wmax = isnan(x) ? y : isnan(y) ? x : y > x ? y : x;                  \
        if (isnan(wmin))                                                       \
          assert_true(isnan(mn[l]) && isnan(mx[l]));                           \
        else                                                                   \
          assert_true(memcmp(&mn[l], &wmin, sizeof(E)) == 0 &&                 \
                      memcmp(&mx[l], &wmax, sizeof(E)) == 0);                  \
      }                                                                        \
    }                                                                          \
    /* Constant operands: still the first operand on a tie. */                 \
    E r[W];                                                                    \
    bd_store_##T(r, bd_fmin_##T(bd_splat_##T(-0.0), bd_splat_##T(0.0)));       \
    assert_true(signbit(r[0]) && signbit(r[W - 1]));                           \
    bd_store_##T(r, bd_fmax_##T(bd_splat_##T(0.0), bd_splat_##T(-0.0)));       \
    assert_true(!signbit(r[0]) && !signbit(r[W - 1]));                         \
  }
MINMAX_TEST(f32n, float, BD_WN)
MINMAX_TEST(f32d, float, BD_WD)
MINMAX_TEST(f64d, double, BD_WD)

/* bd_divx (the primal's quotients by one divisor, from its reciprocal)
 * against the division, bit for bit, at the divisors whose reciprocal is
 * rounded farthest from 1/b: for float the 64 worst of every mantissa of
 * [1, 2), for double mantissas next to 1 and 2 and random ones; numerators
 * with every kind of mantissa, scaled across the range the fast path takes
 * and past it. (FLOAT_TEST above has the edge values.) */
static uint32_t worst_f32[64];
static void find_worst_f32(void) {
  double err[64] = {0};
  for (uint32_t m = 0; m < (1u << 23); m++) {
    float b = tu_f32_bits(0x3f800000u | m), r = 1.0f / b;
    double e = fabs((double)r * b - 1.0);
    int w = 0;
    for (int k = 1; k < 64; k++)
      w = err[k] < err[w] ? k : w;
    if (e > err[w]) {
      err[w] = e;
      worst_f32[w] = m;
    }
  }
}
#define DIVX_TEST(T, E, W, BITS, ONE, MBITS)                                   \
  static void test_divx_##T(void **state) {                                    \
    (void)state;                                                               \
    uint64_t rng = 7;                                                          \
    static const int scale[] = {0,   1,  -1,  40,   -40, 59, -59,             \
                                61,  -61, 499, -499, 501, -501};              \
    for (int j = 0; j < 256; j++) {                                            \
      uint64_t mb = j < 64 ? (sizeof(E) == 4 ? worst_f32[j] : (uint64_t)j)    \
                    : j < 128 ? ((1ull << (MBITS)) - 1 - (uint64_t)(j - 64))   \
                              : tu_next(&rng) & ((1ull << (MBITS)) - 1);       \
      E b = BITS((ONE) | mb);                                                  \
      if (j & 1)                                                               \
        b = -b;                                                                \
      for (int k = 0; k < 64; k++) {                                           \
        E a[W], q[W];                                                          \
        for (int l = 0; l < (W); l++) {                                        \
          uint64_t all = (1ull << (MBITS)) - 1;                                \
          uint64_t ma = (l + k) % 3 ? tu_next(&rng) & all : all - (uint64_t)l; \
          int sc = scale[(size_t)(k + l) % (sizeof scale / sizeof scale[0])];  \
          if (sizeof(E) == 4 && (sc > 100 || sc < -100))                       \
            sc /= 8; /* float's range: 2^+-60 */                               \
          a[l] = (E)ldexp((double)BITS((ONE) | ma), sc);                       \
        }                                                                      \
        bd_##T vb = bd_splat_##T(b);                                           \
        bd_store_##T(q, bd_divx_##T(bd_load_##T(a), vb, bd_recip_##T(vb)));    \
        for (int l = 0; l < (W); l++)                                          \
          tu_check(a[l] / b, q[l], "divx_" #T " (hard divisors)", (size_t)j);  \
      }                                                                        \
    }                                                                          \
  }
DIVX_TEST(f32n, float, BD_WN, tu_f32_bits, 0x3f800000u, 23)
DIVX_TEST(f32d, float, BD_WD, tu_f32_bits, 0x3f800000u, 23)
DIVX_TEST(f64d, double, BD_WD, tu_f64_bits, 0x3ff0000000000000ull, 52)

static void test_width(void **state) {
  (void)state;
#if defined(__AVX512F__)
  assert_int_equal(BD_VBYTES, 64);
#elif defined(__AVX2__)
  assert_int_equal(BD_VBYTES, 32);
#else
  assert_int_equal(BD_VBYTES, 16);
#endif
  assert_int_equal(sizeof(bd_f32n), BD_VBYTES);
  assert_int_equal(sizeof(bd_f32d) * 2, BD_VBYTES);
  assert_int_equal(sizeof(bd_md), BD_VBYTES);
  print_message("BD_VBYTES=%d BD_WN=%d BD_WD=%d\n", BD_VBYTES, BD_WN, BD_WD);
}

#define T(name) cmocka_unit_test(name)
int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T(test_width),       T(test_float_f32n),  T(test_float_f32d),
      T(test_float_f64d),  T(test_int_i32n),    T(test_int_u32n),
      T(test_int_i32d),    T(test_int_u32d),    T(test_int_i64d),
      T(test_int_u64d),    T(test_narrow_i32n), T(test_narrow_u32n),
      T(test_narrow_i32d), T(test_narrow_u32d), T(test_cvt_n),
      T(test_cvt_d),       T(test_mask_n),      T(test_mask_d),
      T(test_cvt_mask),    T(test_mem_f32n),    T(test_mem_i32n),
      T(test_mem_u32n),    T(test_mem_f64d),    T(test_mem_f32d),
      T(test_tgather_f32n), T(test_tgather_f64d),
      T(test_mem_i32d),    T(test_mem_u32d),    T(test_mem_i64d),
      T(test_mem_u64d),    T(test_minmax_f32n), T(test_minmax_f32d),
      T(test_minmax_f64d), T(test_divx_f32n),   T(test_divx_f32d),
      T(test_divx_f64d),
  };
  bd_test_filter(argc, argv);
  find_worst_f32();
  return cmocka_run_group_tests(tests, setup, teardown);
}
