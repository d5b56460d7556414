/* Shared helpers for the execution tests (tests/exec).
 *
 * - guard-page buffers: gp_in() gives an input array whose last element ends
 *   right before a PROT_NONE page and that is made read-only after filling;
 *   gp_out() gives an output array that ends right before a PROT_NONE page.
 *   gp_reset() unmaps everything (tests/common/guard_pages.h, with the RNG).
 * - generators of random + edge values for every scalar type the subset
 *   allows;
 * - bit-exact and ULP comparisons (relative ones: close_to, in
 *   tests/common/close.h);
 * - DIFFk(...) macros: one CMocka test that runs NAME_batched against a loop
 *   over NAME for every n in test_ns[] with fresh inputs, once into a
 *   guard-page output and once into a sentinel-framed output.
 */
#ifndef BATCHDIFF_EXEC_UTIL_H
#define BATCHDIFF_EXEC_UTIL_H

#include <batchdiff.h>

#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cmocka.h>

#ifndef __BATCHDIFF__
#error "tests/exec must be compiled with the batchdiff plugin"
#endif

#define WF BD_WN /* float lanes */
#define WD BD_WD /* double lanes */

/* Every n the contract singles out, for both lane widths. */
static const size_t test_ns[] = {0,      1,      WF - 1, WF,         WF + 1,
                                 WD - 1, WD,     WD + 1, 2 * WF + 3, 2 * WD + 3,
                                 1000};
#define N_TEST_NS (sizeof test_ns / sizeof test_ns[0])

#include "../common/close.h"
#include "../common/guard_pages.h"

/* Thresholds the test functions branch on appear among the edge values. */
static const double edge_common[] = {
    0.0,   -0.0, 1.0,  -1.0, 2.0,  -2.0, 0.5, -0.5, 3.0,   10.0,
    -10.0, 20.0, 0.25, 1.5,  -3.0, 4.0,  5.0, 100.0, 1e-3, -1e-3};

static float gen_f(rng_t *r) {
  static const float edge[] = {NAN,       -NAN,     INFINITY, -INFINITY,
                               FLT_MIN,   -FLT_MIN, 1e-40f,   -1e-40f,
                               FLT_MAX,   -FLT_MAX, 3e38f,    1e30f,
                               -1e30f,    1e-30f,   0x1p-149f, 16777217.0f,
                               1e10f,     -1e10f,   88.7f,    -104.0f};
  int k = rng_below(r, 10);
  if (k == 0)
    return edge[rng_below(r, sizeof edge / sizeof edge[0])];
  if (k <= 2)
    return (float)edge_common[rng_below(
        r, sizeof edge_common / sizeof edge_common[0])];
  if (k == 3) { /* any bit pattern */
    uint32_t u = (uint32_t)rng_u64(r);
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
  }
  if (k == 4)
    return (float)rng_range(r, -1e6, 1e6);
  return (float)rng_range(r, -25.0, 25.0);
}

static double gen_d(rng_t *r) {
  static const double edge[] = {NAN,       -NAN,        INFINITY, -INFINITY,
                                DBL_MIN,   -DBL_MIN,    1e-310,   -1e-310,
                                DBL_MAX,   -DBL_MAX,    1e300,    -1e300,
                                1e-300,    0x1p-1074,   9007199254740993.0,
                                1e20,      -1e20,       709.7,    -745.0,
                                FLT_MAX,   1e-40};
  int k = rng_below(r, 10);
  if (k == 0)
    return edge[rng_below(r, sizeof edge / sizeof edge[0])];
  if (k <= 2)
    return edge_common[rng_below(r, sizeof edge_common / sizeof edge_common[0])];
  if (k == 3) {
    uint64_t u = rng_u64(r);
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
  }
  if (k == 4)
    return rng_range(r, -1e12, 1e12);
  return rng_range(r, -25.0, 25.0);
}

/* Finite, moderate values only (for functions where Inf/NaN would only
 * test libm's special cases). */
static float gen_f_mod(rng_t *r) {
  if (rng_below(r, 5) == 0)
    return (float)edge_common[rng_below(
        r, sizeof edge_common / sizeof edge_common[0])];
  return (float)rng_range(r, -12.0, 12.0);
}
static double gen_d_mod(rng_t *r) {
  if (rng_below(r, 5) == 0)
    return edge_common[rng_below(r, sizeof edge_common / sizeof edge_common[0])];
  return rng_range(r, -12.0, 12.0);
}

#define GEN_INT(name, T, MINV, MAXV)                                           \
  static T name(rng_t *r) {                                                    \
    static const T edge[] = {0, 1, (T)-1, 2, 3, 7, (T)-7, MINV, MAXV,          \
                             (T)(MINV + 1), (T)(MAXV - 1), 10, 100};           \
    int k = rng_below(r, 4);                                                   \
    if (k == 0)                                                                \
      return edge[rng_below(r, sizeof edge / sizeof edge[0])];                 \
    if (k == 1)                                                                \
      return (T)rng_u64(r);                                                    \
    return (T)(rng_below(r, 41) - 20);                                         \
  }
GEN_INT(gen_i32, int, INT_MIN, INT_MAX)
GEN_INT(gen_u32, unsigned, 0u, UINT_MAX)
GEN_INT(gen_i64, long, LONG_MIN, LONG_MAX)
GEN_INT(gen_u64, unsigned long, 0ul, ULONG_MAX)
GEN_INT(gen_i16, short, SHRT_MIN, SHRT_MAX)
GEN_INT(gen_u16, unsigned short, 0, USHRT_MAX)
GEN_INT(gen_i8, signed char, SCHAR_MIN, SCHAR_MAX)
GEN_INT(gen_u8, unsigned char, 0, UCHAR_MAX)
GEN_INT(gen_c, char, CHAR_MIN, CHAR_MAX)
static _Bool gen_b(rng_t *r) { return (_Bool)(rng_u64(r) & 1); }
/* Small ints (branch selectors, divisors that are often 0). */
static int gen_i32s(rng_t *r) { return rng_below(r, 9) - 4; }

/* ---- comparisons -------------------------------------------------------- */

static int64_t ord_f(float x) {
  int32_t i;
  memcpy(&i, &x, sizeof i);
  return i < 0 ? -(int64_t)(i & 0x7fffffff) : (int64_t)i;
}
static int64_t ord_d(double x) {
  int64_t i;
  memcpy(&i, &x, sizeof i);
  return i < 0 ? -(i & 0x7fffffffffffffffLL) : i;
}
/* Distance in representable values; any NaN equals any NaN here. */
static double ulp_dist_f(float a, float b) {
  if (isnan(a) || isnan(b))
    return isnan(a) && isnan(b) ? 0 : INFINITY;
  return fabs((double)(ord_f(a) - ord_f(b)));
}
static double ulp_dist_d(double a, double b) {
  if (isnan(a) || isnan(b))
    return isnan(a) && isnan(b) ? 0 : INFINITY;
  int64_t d = ord_d(a) - ord_d(b);
  return fabs((double)d);
}
#define ULP_DIST(a, b)                                                         \
  _Generic((a), float: ulp_dist_f((float)(a), (float)(b)),                     \
           default: ulp_dist_d((double)(a), (double)(b)))

/* Error of a float/double result in ULPs of the exact value, approximated
 * by a long double (x87, 64-bit mantissa) reference. p: precision in bits;
 * emin: exponent of the smallest normal. Inf/NaN must match exactly (after
 * rounding the reference to the result type). */
static double ulp_err(long double got, long double ref, int p, int emin,
                      long double rounded_ref) {
  if (isnan(ref))
    return isnan(got) ? 0.0 : INFINITY;
  if (isnan(got))
    return INFINITY;
  if (isinf(got) || isinf(rounded_ref))
    return got == rounded_ref ? 0.0 : INFINITY;
  int e = ref == 0 ? emin : ilogbl(ref);
  if (e < emin)
    e = emin;
  return (double)(fabsl(got - ref) / ldexpl(1.0L, e - p + 1));
}
static double ulp_err_f(float got, long double ref) {
  return ulp_err(got, ref, 24, -126, (float)ref);
}
static double ulp_err_d(double got, long double ref) {
  return ulp_err(got, ref, 53, -1022, (double)ref);
}

/* Values printed in failure messages: decimal and hex bits. */
static void print_bits(const char *what, const void *p, size_t sz) {
  uint64_t u = 0;
  memcpy(&u, p, sz);
  print_error("%s=0x%0*" PRIx64 " ", what, (int)(2 * sz), u);
}
#define PV(name, v)                                                            \
  do {                                                                         \
    __typeof__(v) pv_ = (v);                                                   \
    print_error("%s=%.17g ", name,                                             \
                _Generic(pv_, float: (double)pv_, double: (double)pv_,         \
                         default: (double)pv_));                               \
    print_bits("bits", &pv_, sizeof pv_);                                      \
  } while (0)

/* Example e's result: tol 0, the same bits; else within tol relative to
 * |want| + 1 (results whose terms cancel). Fails the test where not. */
static void same_result(const char *what, size_t e, double got, double want,
                        double tol) {
  int ok = tol == 0.0 ? memcmp(&got, &want, sizeof got) == 0
                      : close_to(got, want, tol);
  if (!ok) {
    print_error("%s example %zu: %.17g, want %.17g\n", what, e, got, want);
    fail();
  }
}

/* ---- differential test machinery --------------------------------------- */

static uint64_t name_seed(const char *s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
  return h | 1;
}

/* Per-argument kinds: V = varying (array of n), U = uniform (one value). */
#define V_DECL(i, T, G)                                                        \
  T *a##i = gp_alloc(n * sizeof(T));                                           \
  for (size_t b_ = 0; b_ < n; b_++)                                            \
    a##i[b_] = G(&rng);                                                        \
  gp_seal(a##i);
#define U_DECL(i, T, G) T a##i = G(&rng);
#define V_SARG(i) a##i[b]
#define V_B1(i) (a##i + b)
#define U_B1(i) a##i
#define U_SARG(i) a##i
#define V_PRINT(i) PV("arg" #i, a##i[b])
#define U_PRINT(i) PV("uarg" #i, a##i)

/* Compare modes.
 * CMP_STRICT: identical bits, NaNs included. For functions that only move,
 *   negate or select values (fneg, fabs, copysign, select are bit-exact in
 *   LLVM's semantics, NaN payload and sign included).
 * CMP_BITS: identical bits, except that any NaN matches any NaN. LLVM leaves
 *   the sign and payload of a NaN produced by arithmetic non-deterministic
 *   (LangRef, "Behavior of Floating-Point NaN values"), and it does commute
 *   operands: on SSE2, `p + z` with p = +NaN, z = -NaN compiles to
 *   `addps %xmm1,%xmm0` with z in xmm0 and yields -NaN, while the scalar
 *   `addss` yields +NaN. No C compiler guarantees more, so neither can the
 *   generated code.
 * CMP_ULP: within `ulp_bound` representable values (any NaN matches). */
static int same_bits_or_nan(const void *a, const void *b, size_t sz,
                            int isfp) {
  if (memcmp(a, b, sz) == 0)
    return 1;
  if (!isfp)
    return 0;
  if (sz == sizeof(float)) {
    float x, y;
    memcpy(&x, a, sz);
    memcpy(&y, b, sz);
    return isnan(x) && isnan(y);
  }
  double x, y;
  memcpy(&x, a, sz);
  memcpy(&y, b, sz);
  return isnan(x) && isnan(y);
}
#define IS_FP(v) _Generic((v), float: 1, double: 1, default: 0)
/* CMP(got, want, <the scalar arguments>): a macro or a function. */
#define CMP_STRICT(got, want, ...)                                             \
  (memcmp(&(got), &(want), sizeof(want)) == 0)
#define CMP_BITS(got, want, ...)                                               \
  same_bits_or_nan(&(got), &(want), sizeof(want), IS_FP(want))
#define CMP_ULP(got, want, ...) (ULP_DIST(got, want) <= ulp_bound)

/* Number of input sets per n. */
#ifndef DIFF_REPS
#define DIFF_REPS 6
#endif

#define DIFF_BODY(fn, R, CMP, BOUND, DECLS, BARGS, B1ARGS, SARGS, PRINTS)      \
  double ulp_bound = (BOUND);                                                  \
  (void)ulp_bound;                                                             \
  gp_reset(); /* in case an earlier test failed mid-way */                   \
  int lane_dep = 0; /* reported once, failed at the end */                     \
  rng_t rng = {name_seed(#fn)};                                                \
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {                                  \
    size_t n = test_ns[ni];                                                    \
    for (int rep = 0; rep < DIFF_REPS; rep++) {                                \
      DECLS                                                                    \
      /* 1: output ends at a guard page, pre-filled with garbage. */           \
      R *out = gp_alloc(n * sizeof(R));                                        \
      memset(out, 0xA5, n * sizeof(R));                                        \
      fn##_batched(n BARGS, out);                                              \
      /* 2: output framed by sentinels. */                                     \
      enum { SENT = 2 * WF + 2 };                                              \
      R *frame = malloc((n + 2 * SENT) * sizeof(R));                           \
      memset(frame, 0x5A, (n + 2 * SENT) * sizeof(R));                         \
      fn##_batched(n BARGS, frame + SENT);                                     \
      const unsigned char *fb = (const unsigned char *)frame;                  \
      for (size_t k = 0; k < SENT * sizeof(R); k++) {                          \
        if (fb[k] != 0x5A ||                                                   \
            fb[(n + SENT) * sizeof(R) + k] != 0x5A) {                          \
          print_error("%s_batched: n=%zu wrote outside [0,n)\n", #fn, n);      \
          fail();                                                              \
        }                                                                      \
      }                                                                        \
      for (size_t b = 0; b < n; b++) {                                         \
        R want = fn(SARGS);                                                    \
        R got = out[b];                                                        \
        if (!(CMP(got, want, SARGS)) ||                                               \
            memcmp(&frame[SENT + b], &got, sizeof got) != 0) {                 \
          print_error("%s_batched mismatch n=%zu b=%zu: ", #fn, n, b);         \
          PRINTS PV("got", got);                                               \
          PV("frame", frame[SENT + b]);                                        \
          PV("want", want);                                                    \
          print_error("\n");                                                   \
          free(frame);                                                         \
          gp_reset();                                                          \
          fail();                                                              \
        }                                                                      \
        /* Every example independent: alone (n = 1) it gives the same bits \
         * as inside the batch, whatever its neighbours are (NaN: any). */    \
        if (b % (n > 40 ? 13 : 1) == 0) {                                      \
          R one_;                                                              \
          fn##_batched(1 B1ARGS, &one_);                                       \
          if (!same_bits_or_nan(&one_, &got, sizeof got, IS_FP(got)) &&       \
              !lane_dep++) {                                                   \
            print_error("%s_batched: example %zu alone differs from the "      \
                        "same example in a batch of %zu: ", #fn, b, n);        \
            PRINTS PV("alone", one_);                                          \
            PV("batch", got);                                                  \
            print_error("\n");                                                 \
          }                                                                    \
        }                                                                      \
      }                                                                        \
      free(frame);                                                             \
      gp_reset();                                                              \
    }                                                                          \
  }                                                                            \
  if (lane_dep) {                                                              \
    print_error("%s_batched: %d examples depend on their neighbours\n", #fn,  \
                lane_dep);                                                     \
    fail();                                                                    \
  }

#define DIFF1_AS(tn, fn, R, CMP, BOUND, K1, T1, G1)                                   \
  static void diff_##tn(void **state_) {                                       \
    (void)state_;                                                              \
    DIFF_BODY(fn, R, CMP, BOUND, K1##_DECL(1, T1, G1), DIFF_COMMA a1,        \
              DIFF_COMMA K1##_B1(1), K1##_SARG(1), K1##_PRINT(1);)                                                  \
  }
#define DIFF2_AS(tn, fn, R, CMP, BOUND, K1, T1, G1, K2, T2, G2)                       \
  static void diff_##tn(void **state_) {                                       \
    (void)state_;                                                              \
    DIFF_BODY(fn, R, CMP, BOUND, K1##_DECL(1, T1, G1) K2##_DECL(2, T2, G2),    \
              DIFF_COMMA a1 DIFF_COMMA a2,                                     \
              DIFF_COMMA K1##_B1(1) DIFF_COMMA K2##_B1(2),                     \
              K1##_SARG(1) DIFF_COMMA K2##_SARG(2),                            \
              K1##_PRINT(1); K2##_PRINT(2);)                                   \
  }
#define DIFF3_AS(tn, fn, R, CMP, BOUND, K1, T1, G1, K2, T2, G2, K3, T3, G3)           \
  static void diff_##tn(void **state_) {                                       \
    (void)state_;                                                              \
    DIFF_BODY(fn, R, CMP, BOUND,                                               \
              K1##_DECL(1, T1, G1) K2##_DECL(2, T2, G2) K3##_DECL(3, T3, G3),  \
              DIFF_COMMA a1 DIFF_COMMA a2 DIFF_COMMA a3,                       \
              DIFF_COMMA K1##_B1(1) DIFF_COMMA K2##_B1(2)                      \
                  DIFF_COMMA K3##_B1(3),                                       \
              K1##_SARG(1) DIFF_COMMA K2##_SARG(2) DIFF_COMMA K3##_SARG(3),    \
              K1##_PRINT(1); K2##_PRINT(2); K3##_PRINT(3);)                    \
  }
#define DIFF4_AS(tn, fn, R, CMP, BOUND, K1, T1, G1, K2, T2, G2, K3, T3, G3, K4, T4,   \
              G4)                                                              \
  static void diff_##tn(void **state_) {                                       \
    (void)state_;                                                              \
    DIFF_BODY(fn, R, CMP, BOUND,                                               \
              K1##_DECL(1, T1, G1) K2##_DECL(2, T2, G2) K3##_DECL(3, T3, G3)   \
                  K4##_DECL(4, T4, G4),                                        \
              DIFF_COMMA a1 DIFF_COMMA a2 DIFF_COMMA a3 DIFF_COMMA a4,         \
              DIFF_COMMA K1##_B1(1) DIFF_COMMA K2##_B1(2)                      \
                  DIFF_COMMA K3##_B1(3) DIFF_COMMA K4##_B1(4),                 \
              K1##_SARG(1) DIFF_COMMA K2##_SARG(2) DIFF_COMMA K3##_SARG(3)     \
                  DIFF_COMMA K4##_SARG(4),                                     \
              K1##_PRINT(1); K2##_PRINT(2); K3##_PRINT(3); K4##_PRINT(4);)     \
  }
#define DIFF_COMMA ,
#define DIFF1(fn, ...) DIFF1_AS(fn, fn, __VA_ARGS__)
#define DIFF2(fn, ...) DIFF2_AS(fn, fn, __VA_ARGS__)
#define DIFF3(fn, ...) DIFF3_AS(fn, fn, __VA_ARGS__)
#define DIFF4(fn, ...) DIFF4_AS(fn, fn, __VA_ARGS__)

/* Shorthands for the common all-varying, bit-exact case. */
#define BITS1(fn, R, T1, G1) DIFF1(fn, R, CMP_BITS, 0, V, T1, G1)
#define BITS2(fn, R, T1, G1, T2, G2)                                           \
  DIFF2(fn, R, CMP_BITS, 0, V, T1, G1, V, T2, G2)
#define BITS3(fn, R, T1, G1, T2, G2, T3, G3)                                   \
  DIFF3(fn, R, CMP_BITS, 0, V, T1, G1, V, T2, G2, V, T3, G3)

#define BITS4(fn, R, T1, G1, T2, G2, T3, G3, T4, G4)                           \
  DIFF4(fn, R, CMP_BITS, 0, V, T1, G1, V, T2, G2, V, T3, G3, V, T4, G4)

#define T_(fn) cmocka_unit_test(diff_##fn)

#endif /* BATCHDIFF_EXEC_UTIL_H */
