/* Shared helpers for the loop tests (tests/loops).
 *
 * - guard-page buffers and the RNG from tests/common/guard_pages.h;
 * - bit comparisons (any NaN matches any NaN; everything else bit for bit);
 * - LOOP_DIFF: one CMocka test that runs NAME_batched against a loop over NAME
 *   for every n in loop_ns[] and every input pattern (see below), output
 *   ending at a guard page.
 *
 * Input patterns (pat), chosen by each generator:
 *   0, 1: random (trip counts random per lane);
 *   2:    "staircase": lane b gets a value that makes its trip count differ
 *         from every other lane of its SIMD chunk (0, 1, 2, ... iterations);
 *   3:    every lane the same (uniform trip count, possibly 0);
 *   4:    zero trips for most lanes, one long lane per chunk.
 */
#ifndef BATCHDIFF_LOOPS_UTIL_H
#define BATCHDIFF_LOOPS_UTIL_H

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
#error "tests/loops must be compiled with the batchdiff plugin"
#endif

#define WF BD_WN /* float lanes */
#define WD BD_WD /* double lanes */

/* Around 1, 2 and 4 vectors: kernels of loops process 2 or 4 vectors of
 * examples per step (independent chains), each with its own tail. */
static const size_t loop_ns[] = {
    0,          1,          WD - 1,     WD,         WD + 1,     2 * WD - 1,
    2 * WD + 1, WF - 1,     WF,         WF + 1,     2 * WF - 1, 2 * WF,
    2 * WF + 1, 2 * WF + 3, 4 * WF - 1, 4 * WF + 1, 1000};
#define N_LOOP_NS (sizeof loop_ns / sizeof loop_ns[0])
#define N_PATS 5

#include "../common/guard_pages.h"

static uint64_t name_seed(const char *s) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
  return h | 1;
}

/* ---- comparisons ---------------------------------------------------------- */

static int same_f(float a, float b) {
  return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}
static int same_d(double a, double b) {
  return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}
static int same_i(long long a, long long b) { return a == b; }
#define SAME(a, b)                                                             \
  _Generic((a), float: same_f((float)(a), (float)(b)),                         \
           double: same_d((double)(a), (double)(b)),                           \
           default: same_i((long long)(a), (long long)(b)))
#define PV(name, v)                                                            \
  print_error("%s=%.17g ", name, (double)(v))

/* ---- differential driver -------------------------------------------------- */

/* V(i, T, G): varying argument i of type T, lane b's value G(&rng, pat, b).
 * U(i, T, G): uniform argument i, G(&rng, pat). */
#define V_DECL(i, T, G)                                                        \
  T *a##i = gp_alloc(n * sizeof(T));                                           \
  for (size_t b_ = 0; b_ < n; b_++)                                            \
    a##i[b_] = G(&rng, pat, b_);                                               \
  gp_seal(a##i);
#define U_DECL(i, T, G) T a##i = G(&rng, pat);
#define V_SARG(i) a##i[b]
#define U_SARG(i) a##i
#define V_PRINT(i) PV("arg" #i, a##i[b]);
#define U_PRINT(i) PV("uarg" #i, a##i);
#define C_ ,

#define LOOP_DIFF_BODY(fn, R, DECLS, BARGS, SARGS, PRINTS)                     \
  rng_t rng = {name_seed(#fn)};                                                \
  for (size_t ni = 0; ni < N_LOOP_NS; ni++) {                                  \
    size_t n = loop_ns[ni];                                                    \
    for (int pat = 0; pat < N_PATS; pat++) {                                   \
      DECLS                                                                    \
      R *out = gp_alloc(n * sizeof(R));                                        \
      memset(out, 0xA5, n * sizeof(R));                                        \
      fn##_batched(n BARGS, out);                                              \
      for (size_t b = 0; b < n; b++) {                                         \
        R want = fn(SARGS);                                                    \
        if (!SAME(out[b], want)) {                                             \
          print_error("%s_batched mismatch n=%zu pat=%d b=%zu: ", #fn, n,      \
                      pat, b);                                                 \
          PRINTS PV("got", out[b]);                                            \
          PV("want", want);                                                    \
          print_error("\n");                                                   \
          gp_reset();                                                          \
          fail();                                                              \
        }                                                                      \
      }                                                                        \
      gp_reset();                                                              \
    }                                                                          \
  }

#define LOOP_DIFF1(fn, R, K1, T1, G1)                                          \
  static void diff_##fn(void **st_) {                                          \
    (void)st_;                                                                 \
    LOOP_DIFF_BODY(fn, R, K1##_DECL(1, T1, G1), C_ a1, K1##_SARG(1),          \
                   K1##_PRINT(1))                                              \
  }
#define LOOP_DIFF2(fn, R, K1, T1, G1, K2, T2, G2)                              \
  static void diff_##fn(void **st_) {                                          \
    (void)st_;                                                                 \
    LOOP_DIFF_BODY(fn, R, K1##_DECL(1, T1, G1) K2##_DECL(2, T2, G2),          \
                   C_ a1 C_ a2, K1##_SARG(1) C_ K2##_SARG(2),                  \
                   K1##_PRINT(1) K2##_PRINT(2))                                \
  }
#define LOOP_DIFF3(fn, R, K1, T1, G1, K2, T2, G2, K3, T3, G3)                  \
  static void diff_##fn(void **st_) {                                          \
    (void)st_;                                                                 \
    LOOP_DIFF_BODY(fn, R,                                                      \
                   K1##_DECL(1, T1, G1) K2##_DECL(2, T2, G2)                   \
                       K3##_DECL(3, T3, G3),                                   \
                   C_ a1 C_ a2 C_ a3,                                          \
                   K1##_SARG(1) C_ K2##_SARG(2) C_ K3##_SARG(3),               \
                   K1##_PRINT(1) K2##_PRINT(2) K3##_PRINT(3))                  \
  }
#define T_(fn) cmocka_unit_test(diff_##fn)

#endif /* BATCHDIFF_LOOPS_UTIL_H */
