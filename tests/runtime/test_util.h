/* Shared helpers of the runtime tests: deterministic samples with edge values,
 * bitwise checks with readable failure messages; guard pages from
 * ../common/guard_pages.h (gp_map / gp_unmap). */
#ifndef BATCHDIFF_TEST_UTIL_H
#define BATCHDIFF_TEST_UTIL_H

#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../common/guard_pages.h"

static inline uint64_t tu_next(uint64_t *s) {
  /* splitmix64: tiny and good enough to spread bits. */
  uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static inline double tu_unit(uint64_t *s) {
  return (double)(tu_next(s) >> 11) * 0x1p-53;
}

static inline float tu_f32_bits(uint32_t b) {
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}

static inline double tu_f64_bits(uint64_t b) {
  double f;
  memcpy(&f, &b, sizeof f);
  return f;
}

static inline uint32_t tu_bits_f32(float f) {
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  return b;
}

static inline uint64_t tu_bits_f64(double f) {
  uint64_t b;
  memcpy(&b, &f, sizeof b);
  return b;
}

/* Fails the test with the op name, sample index and both bit patterns. */
static inline void tu_check_bits(const void *want, const void *got, size_t sz,
                                 const char *what, size_t idx) {
  if (memcmp(want, got, sz) == 0)
    return;
  uint64_t w = 0, g = 0;
  memcpy(&w, want, sz);
  memcpy(&g, got, sz);
  fail_msg("%s: sample %zu: want 0x%llx got 0x%llx", what, idx,
           (unsigned long long)w, (unsigned long long)g);
}

/* Like tu_check_bits, but any NaN equals any NaN: LLVM treats fadd/fmul as
 * commutative, so which operand's payload survives is not specified, for
 * scalar code either. */
static inline void tu_check_f32(float want, float got, const char *what,
                                size_t idx) {
  if (want != want && got != got)
    return;
  tu_check_bits(&want, &got, sizeof want, what, idx);
}
static inline void tu_check_f64(double want, double got, const char *what,
                                size_t idx) {
  if (want != want && got != got)
    return;
  tu_check_bits(&want, &got, sizeof want, what, idx);
}
static inline void tu_check_i32(int32_t want, int32_t got, const char *what,
                                size_t idx) {
  tu_check_bits(&want, &got, sizeof want, what, idx);
}
static inline void tu_check_i64(int64_t want, int64_t got, const char *what,
                                size_t idx) {
  tu_check_bits(&want, &got, sizeof want, what, idx);
}
#define tu_check(want, got, what, idx)                                         \
  _Generic((want), float                                                       \
           : tu_check_f32, double                                              \
           : tu_check_f64, int32_t                                             \
           : tu_check_i32, uint32_t                                            \
           : tu_check_i32, int64_t                                             \
           : tu_check_i64, uint64_t                                            \
           : tu_check_i64)(want, got, what, idx)

#endif
