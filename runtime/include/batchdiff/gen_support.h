/* Scalar helpers used by code batchdiff generates for values shared by the
 * whole batch (uniform values). They keep C's results where C defines them
 * and never trap or invoke undefined behaviour where the generated code
 * evaluates an expression speculatively (both arms of a cheap ?:). */
#ifndef BATCHDIFF_GEN_SUPPORT_H
#define BATCHDIFF_GEN_SUPPORT_H
#include <batchdiff/macro_shield.h> /* hides the user's macros until its end */
#pragma clang system_header

#include <math.h>
#include <stdint.h>

#include "batchdiff/batchdiff_rt.h"
#include "batchdiff/tape.h"

#define BD_GS_INL static inline __attribute__((__always_inline__, __unused__))
/* C99's _Bool; the same type as C++'s bool (this header compiles as C++). */
#ifdef __cplusplus
#define BD_GS_BOOL bool
#else
#define BD_GS_BOOL _Bool
#endif

/* Bytes per tape slot: one vector register of the compile target. The same
 * as a constant of the language: generated code is compiled after
 * preprocessing too (-save-temps), where no macro is left. It asserts that
 * its vectors fit. */
#define BD_TAPE_SLOT BD_VBYTES
enum { bd_tape_slot_bytes = BD_TAPE_SLOT };

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

/* simd.h's bd_recip / bd_divr / bd_divx for uniform values. */
#define BD_GS_RECIP(T, S)                                                      \
  BD_GS_INL T bd_srecip_##S(T b) { return 1 / b; }                             \
  BD_GS_INL T bd_sdivr_##S(T a, T b, T r) {                                    \
    return __builtin_isnormal(r) ? a * r : a / b;                              \
  }                                                                            \
  BD_GS_INL T bd_sdivx_##S(T a, T b, T r) { return (void)r, a / b; }
BD_GS_RECIP(float, f32)
BD_GS_RECIP(double, f64)
#undef BD_GS_RECIP

/* The chunk loops' streams (an argument's array, one example after
 * another): the lines of bytes [off, off + n) of p, prefetched for
 * reading or writing. The generated loop asks for the step about 1 KB
 * ahead where it is before the chunk's end (so within the array): the
 * hardware prefetchers alone left lognormal_nll_grad and
 * logistic_loss_batched slower on arrays larger than L2
 * (docs/performance.md). */
BD_GS_INL void bd_prefetch_r(const void *p, size_t off, size_t n) {
  /* No loop for the n the chunk loops pass (at most 4 chains of one 64-byte
   * vector: 256): a loop of 1 to 4 constant trips cost LLVM's loop passes
   * at every call (issue 8: 1.1% of a file of 20 functions' compile), for
   * the same prefetches. */
  const char *q = (const char *)p + off;
  if (n > 0)
    __builtin_prefetch(q, 0);
  if (n > 64)
    __builtin_prefetch(q + 64, 0);
  if (n > 128)
    __builtin_prefetch(q + 128, 0);
  if (n > 192)
    __builtin_prefetch(q + 192, 0);
  for (size_t b = 256; b < n; b += 64)
    __builtin_prefetch(q + b, 0);
}
BD_GS_INL void bd_prefetch_w(void *p, size_t off, size_t n) {
  char *q = (char *)p + off;
  if (n > 0)
    __builtin_prefetch(q, 1);
  if (n > 64)
    __builtin_prefetch(q + 64, 1);
  if (n > 128)
    __builtin_prefetch(q + 128, 1);
  if (n > 192)
    __builtin_prefetch(q + 192, 1);
  for (size_t b = 256; b < n; b += 64)
    __builtin_prefetch(q + b, 1);
}

/* Local arrays. An index outside the array is undefined in C; here it is
 * clamped, so a masked-off lane holding garbage never touches memory
 * outside the array. Varying arrays are arrays of vectors: lane l of
 * element i lives in a[i][l]. */
BD_GS_INL int32_t bd_sclamp_idx(int32_t i, int32_t n) {
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}
#define BD_GS_ARR(T, E, W, IDX, M)                                             \
  BD_GS_INL bd_##T bd_agather_##T(const bd_##T *a, int32_t n, bd_##IDX idx) {  \
    bd_##T r = a[0];                                                           \
    for (int l = 0; l < W; l++)                                                \
      r[l] = a[bd_sclamp_idx(idx[l], n)][l];                                   \
    return r;                                                                  \
  }                                                                            \
  BD_GS_INL void bd_ascatter_##T(bd_##T *a, int32_t n, bd_##IDX idx, bd_##M m, \
                                 bd_##T v) {                                   \
    for (int l = 0; l < W; l++)                                                \
      if (m[l])                                                                \
        a[bd_sclamp_idx(idx[l], n)][l] = v[l];                                 \
  }                                                                            \
  BD_GS_INL bd_##T bd_sgather_##T(const E *a, int32_t n, bd_##IDX idx) {       \
    bd_##T r = {0};                                                            \
    for (int l = 0; l < W; l++)                                                \
      r[l] = a[bd_sclamp_idx(idx[l], n)];                                      \
    return r;                                                                  \
  }
BD_GS_ARR(f32n, float, BD_WN, i32n, mn)
BD_GS_ARR(i32n, int32_t, BD_WN, i32n, mn)
BD_GS_ARR(u32n, uint32_t, BD_WN, i32n, mn)
BD_GS_ARR(f64d, double, BD_WD, i32d, md)
BD_GS_ARR(f32d, float, BD_WD, i32d, md)
BD_GS_ARR(i32d, int32_t, BD_WD, i32d, md)
BD_GS_ARR(u32d, uint32_t, BD_WD, i32d, md)
BD_GS_ARR(i64d, int64_t, BD_WD, i32d, md)
BD_GS_ARR(u64d, uint64_t, BD_WD, i32d, md)
#undef BD_GS_ARR
/* A local variable-length array's declaration zeroes as many elements as
 * the largest size c (0..cap) among the lanes of mask m: lanes that do not
 * run it count for nothing. A size above cap gives cap + 1, which
 * bd_vla_reserve reports. */
#define BD_GS_VLA(S, W, IDX)                                                   \
  BD_GS_INL int32_t bd_vla_count_##S(bd_##IDX c, bd_m##S m, int32_t cap) {     \
    int32_t r = 0;                                                             \
    for (int l = 0; l < W; l++)                                                \
      if (m[l] && c[l] > r)                                                    \
        r = c[l];                                                              \
    return r <= cap ? r : cap + 1;                                             \
  }
BD_GS_VLA(n, BD_WN, i32n)
BD_GS_VLA(d, BD_WD, i32d)
#undef BD_GS_VLA
/* A local variable-length array's memory for one chunk call: cap
 * elements per chain (chains one after the other), from the arena. A
 * declaration that needs more takes a new block of at least twice the
 * size (the array's content is dead where it is declared; the old block
 * goes back to the arena when the chunk call returns). */
typedef struct bd_vla {
  char *data;
  int32_t cap;
} bd_vla;
#define BD_VLA_MAX 65536 /* elements: the largest local array (LowerVla.cpp) */
BD_GS_INL void bd_vla_reserve(bd_arena *ar, bd_vla *v, int32_t need,
                              size_t bytes) {
  if (need > BD_VLA_MAX) /* C would take it; the batch cannot hold it */
    bd_arena_fail(ar, "a local variable-length array of more than 65536 "
                      "elements (the largest local array batchdiff holds)");
  if (need <= v->cap)
    return;
  int32_t cap = v->cap * 2 > need ? v->cap * 2 : need;
  v->data = (char *)bd_arena_alloc(ar, (size_t)cap * bytes);
  v->cap = cap;
}
/* _Bool arrays: masks (all-ones lanes) when varying, _Bool when uniform. */
#define BD_GS_MARR(S, W, IDX)                                                  \
  BD_GS_INL bd_m##S bd_agather_m##S(const bd_m##S *a, int32_t n,               \
                                    bd_##IDX idx) {                            \
    bd_m##S r = a[0];                                                          \
    for (int l = 0; l < W; l++)                                                \
      r[l] = a[bd_sclamp_idx(idx[l], n)][l];                                   \
    return r;                                                                  \
  }                                                                            \
  BD_GS_INL void bd_ascatter_m##S(bd_m##S *a, int32_t n, bd_##IDX idx,         \
                                  bd_m##S m, bd_m##S v) {                      \
    for (int l = 0; l < W; l++)                                                \
      if (m[l])                                                                \
        a[bd_sclamp_idx(idx[l], n)][l] = v[l];                                 \
  }                                                                            \
  BD_GS_INL bd_m##S bd_sgather_m##S(const BD_GS_BOOL *a, int32_t n,            \
                                    bd_##IDX idx) {                            \
    bd_m##S r = {0};                                                           \
    for (int l = 0; l < W; l++)                                                \
      r[l] = a[bd_sclamp_idx(idx[l], n)] ? -1 : 0;                             \
    return r;                                                                  \
  }
BD_GS_MARR(n, BD_WN, i32n)
BD_GS_MARR(d, BD_WD, i32d)
#undef BD_GS_MARR

/* Gradient of a load from an array parameter: adds v into base[idx] lane
 * by lane, in lane order, so lanes that share an element (a BD_UNIFORM
 * array's shadow, or stride 0) all contribute. */
#define BD_GS_SCATTERADD(T, E, W, IDX, M)                                      \
  BD_GS_INL void bd_scatteradd_##T(bd_##M m, E *base, bd_##IDX idx,            \
                                   bd_##T v) {                                 \
    for (int l = 0; l < W; l++)                                                \
      if (m[l])                                                                \
        base[idx[l]] += v[l];                                                  \
  }
BD_GS_SCATTERADD(f32n, float, BD_WN, i32n, mn)
BD_GS_SCATTERADD(f64d, double, BD_WD, i64d, md)
BD_GS_SCATTERADD(f32d, float, BD_WD, i64d, md)
#undef BD_GS_SCATTERADD

/* An in-place call of another file's function through its NAME_grad
 * (docs/calls-in-place.md): p is the callee's promise,
 * batchdiff.inplace:NAME:I:J, an array of the promises of other files'
 * functions it relies on (weak: 0 where no file defines one) ending with its
 * own address. It holds where it and every one it lists hold; otherwise the
 * call fails (the arena's fail hook: default, print msg and abort). */
static __attribute__((__unused__)) int bd_inplace_holds(const void *const *p,
                                                         int d) {
  if (!p || d > 64)
    return 0;
  for (int k = 0; p[k] != (const void *)p; k++)
    if (!bd_inplace_holds((const void *const *)p[k], d + 1))
      return 0;
  return 1;
}
BD_GS_INL void bd_inplace_check(const void *const *p, const char *msg) {
  if (!bd_inplace_holds(p, 0))
    bd_arena_fail(bd_arena_get(), msg);
}

/* Makes room for row k of the current execution of a loop. */
BD_GS_INL void bd_tape_reserve(bd_arena *ar, bd_tape *tp, int32_t k) {
  if (tp->top + (size_t)k >= tp->cap)
    bd_tape_grow(ar, tp, tp->top + (size_t)k + 1);
}

#include <batchdiff/macro_shield.h>
#endif
