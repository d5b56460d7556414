/* Scalar helpers used by code batchdiff generates for values shared by the
 * whole batch (uniform values). They keep C's results where C defines them
 * and never trap or invoke undefined behaviour where the generated code
 * evaluates an expression speculatively (both arms of a cheap ?:). */
#ifndef BATCHDIFF_GEN_SUPPORT_H
#define BATCHDIFF_GEN_SUPPORT_H
#pragma clang system_header

#include <math.h>
#include <stdint.h>

#include "batchdiff/tape.h"

#define BD_GS_INL static inline __attribute__((always_inline, unused))

/* clang turns a contracted a*b+c into llvm.fmuladd: fused when the target
 * has FMA, separately rounded otherwise. */
BD_GS_INL float bd_sfmuladd_f32(float a, float b, float c) {
#ifdef __FMA__
  return __builtin_fmaf(a, b, c);
#else
  float p = a * b;
  return p + c;
#endif
}
BD_GS_INL double bd_sfmuladd_f64(double a, double b, double c) {
#ifdef __FMA__
  return __builtin_fma(a, b, c);
#else
  double p = a * b;
  return p + c;
#endif
}

/* Division by zero gives 0 and MIN / -1 gives MIN instead of trapping. */
#define BD_GS_DIV(T, S, MIN)                                                   \
  BD_GS_INL T bd_sdiv_##S(T a, T b) {                                          \
    if (b == 0)                                                                \
      return 0;                                                                \
    if (MIN != 0 && a == (T)MIN && b == (T)-1)                                 \
      return a;                                                                \
    return a / b;                                                              \
  }                                                                            \
  BD_GS_INL T bd_srem_##S(T a, T b) {                                          \
    if (b == 0)                                                                \
      return 0;                                                                \
    if (MIN != 0 && a == (T)MIN && b == (T)-1)                                 \
      return 0;                                                                \
    return a % b;                                                              \
  }
BD_GS_DIV(int32_t, i32, INT32_MIN)
BD_GS_DIV(int64_t, i64, INT64_MIN)
BD_GS_DIV(uint32_t, u32, 0)
BD_GS_DIV(uint64_t, u64, 0)
#undef BD_GS_DIV

/* Tape rows for iteration k of the current execution of a loop. */
#define BD_TAPE_RESERVE(ar, tp, k)                                             \
  do {                                                                         \
    if ((tp)->top + (size_t)(k) >= (tp)->cap)                                  \
      bd_tape_grow((ar), (tp), (tp)->top + (size_t)(k) + 1);                   \
  } while (0)
#define BD_TAPE_AT(tp, k, slot, T)                                             \
  (*(T *)((tp)->data +                                                         \
          (((tp)->top + (size_t)(k)) * (tp)->row + (size_t)(slot)) *           \
              BD_TAPE_SLOT))

#endif
