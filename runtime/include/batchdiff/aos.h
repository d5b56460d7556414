#pragma clang system_header
/* batchdiff vector API: records (AoS) <-> one vector per member (SoA) in
 * registers, for W contiguous records of M = 2 ... 8 members of one
 * element type and no padding (vec2, vec3, vec4 of float or double,
 * complex numbers, a 6-vector, a 2x4 matrix, ...).
 *
 *   bd_aos_load<M>_<T>(const E *p, bd_<T> *v0, ..., bd_<T> *v<M-1>)
 *     reads exactly the M * W elements at p (W records) with M vector loads
 *     and gives lane j of v<m> = p[j * M + m] (permutes, no gathers);
 *   bd_aos_store<M>_<T>(E *p, bd_<T> v0, ..., bd_<T> v<M-1>)
 *     writes exactly those M * W elements, p[j * M + m] = lane j of v<m>.
 *
 * The values are copied bit for bit (NaN payloads, -0.0). Only whole groups
 * of W records: generated code reads a batch's last, partial group record by
 * record (docs/abi.md, "Structs"), so nothing past the last record is
 * touched. Generic __builtin_shufflevector index lists: LLVM picks the
 * permutes of each width (vpermt2pd at 64 bytes, blends and shuffles at 32
 * and 16). See docs/runtime.md.
 *
 * M = 5 ... 8: the M loaded vectors are concatenated into two of 4W
 * elements (the last repeated where M < 8) and each member vector is one
 * __builtin_shufflevector of those, one index list for every M, W and
 * element type. Hand-written staged transposes (unpack / 128-bit lane
 * permutes) would need a different network per M and width (36 cases);
 * LLVM lowers each such shuffle to a tree of two-source permutes of the
 * vectors its lanes come from (min(M, W) - 1 of them per member), and the
 * loads stay M whole vectors, so nothing past the M * W elements is read
 * (docs/performance.md, "Records", has the measurement). */
#ifndef BATCHDIFF_AOS_H
#define BATCHDIFF_AOS_H
#include <batchdiff/macro_shield.h> /* hides the user's macros until its end */

#include <batchdiff/simd.h>

/* The index lists, as literals (generated, aos_idx.h): arithmetic on the
 * indices in the preprocessor cost clang 0.8 G instructions of parsing in
 * every file that includes the runtime (0.2 G with literals). */
#include <batchdiff/aos_idx.h>

/* Lane counts as literals (token pasting): W, 2W, 3W, 4W per shape. */
#if BD_VBYTES == 64
#define BD__AW_n 16
#define BD__AW2_n 32
#define BD__AW3_n 48
#define BD__AW4_n 64
#define BD__AW_d 8
#define BD__AW2_d 16
#define BD__AW3_d 24
#define BD__AW4_d 32
#elif BD_VBYTES == 32
#define BD__AW_n 8
#define BD__AW2_n 16
#define BD__AW3_n 24
#define BD__AW4_n 32
#define BD__AW_d 4
#define BD__AW2_d 8
#define BD__AW3_d 12
#define BD__AW4_d 16
#else
#define BD__AW_n 4
#define BD__AW2_n 8
#define BD__AW3_n 12
#define BD__AW4_n 16
#define BD__AW_d 2
#define BD__AW2_d 4
#define BD__AW3_d 6
#define BD__AW4_d 8
#endif

/* Shuffles of A and B (ext vectors of 2W, or W for M = 2). */
#define BD__ADE(S, M, m, A, B)                                                 \
  __builtin_shufflevector(A, B BD__AIX_DE_##S##_##M##_##m)
#define BD__ACAT(S, A, B) __builtin_shufflevector(A, B BD__AIX_CAT2_##S)
#define BD__AIN(S, M, A, B) __builtin_shufflevector(A, B BD__AIX_IN_##S##_##M)
/* Four vectors as one of 4W; member (BD__BIX_LD) or records' vector
 * (BD__BIX_ST) m of the concatenation of A and B (4W each). */
#define BD__ACAT4(S, a, b, c, d)                                               \
  __builtin_shufflevector(BD__ACAT(S, a, b), BD__ACAT(S, c, d) BD__AIX_CAT4_##S)
#define BD__AGET(T, S, X, M, m, A, B)                                          \
  (bd_##T) __builtin_shufflevector(A, B BD__BIX_##X##_##S##_##M##_##m)
#define BD__ALD(T, S, p, k) bd_load_##T((p) + (k)*BD__AW_##S)
/* M = 5 ... 8 vectors v[] as A (the first four) and B (the rest, v[4]
 * repeated); an index list of m >= M is valid too (below 8W) and dead. */
#define BD__AIN8(T, S, M, v, A, B)                                             \
  bd__a4_##T A = BD__ACAT4(S, v[0], v[1], v[2], v[3]),                         \
             B = BD__ACAT4(S, v[4], v[(M) > 5 ? 5 : 4], v[(M) > 6 ? 6 : 4],    \
                           v[(M) > 7 ? 7 : 4])
#define BD__AOUT(T, S, M, m, A, B, o)                                          \
  if ((m) < (M))                                                               \
  *o[m] = BD__AGET(T, S, LD, M, m, A, B)
#define BD__ALOADM(T, S, M, p, o)                                              \
  bd_##T v[8];                                                                 \
  for (int k = 0; k < 8; k++)                                                  \
    v[k] = BD__ALD(T, S, p, k < (M) ? k : 4);                                  \
  BD__AIN8(T, S, M, v, A, B);                                                  \
  BD__AOUT(T, S, M, 0, A, B, o);                                               \
  BD__AOUT(T, S, M, 1, A, B, o);                                               \
  BD__AOUT(T, S, M, 2, A, B, o);                                               \
  BD__AOUT(T, S, M, 3, A, B, o);                                               \
  BD__AOUT(T, S, M, 4, A, B, o);                                               \
  BD__AOUT(T, S, M, 5, A, B, o);                                               \
  BD__AOUT(T, S, M, 6, A, B, o);                                               \
  BD__AOUT(T, S, M, 7, A, B, o)
#define BD__APUT(T, S, M, m, A, B, p)                                          \
  if ((m) < (M)) {                                                             \
    bd_##T x_ = BD__AGET(T, S, ST, M, m, A, B);                                \
    memcpy((p) + (m)*BD__AW_##S, &x_, sizeof x_);                              \
  }
#define BD__ASTOREM(T, S, M, p, v)                                             \
  BD__AIN8(T, S, M, v, A, B);                                                  \
  BD__APUT(T, S, M, 0, A, B, p)                                                \
  BD__APUT(T, S, M, 1, A, B, p)                                                \
  BD__APUT(T, S, M, 2, A, B, p)                                                \
  BD__APUT(T, S, M, 3, A, B, p)                                                \
  BD__APUT(T, S, M, 4, A, B, p)                                                \
  BD__APUT(T, S, M, 5, A, B, p)                                                \
  BD__APUT(T, S, M, 6, A, B, p)                                                \
  BD__APUT(T, S, M, 7, A, B, p)

#define BD__AOS(T, E, S)                                                       \
  typedef E bd__a2_##T __attribute__((__ext_vector_type__(BD__AW2_##S)));      \
  typedef E bd__a3_##T __attribute__((__ext_vector_type__(BD__AW3_##S)));      \
  typedef E bd__a4_##T __attribute__((__ext_vector_type__(BD__AW4_##S)));      \
  BD_INL void bd_aos_load2_##T(const E *p, bd_##T *v0, bd_##T *v1) {           \
    bd_##T a = bd_load_##T(p), b = bd_load_##T(p + BD__AW_##S);                \
    *v0 = (bd_##T)BD__ADE(S, 2, 0, a, b);                                      \
    *v1 = (bd_##T)BD__ADE(S, 2, 1, a, b);                                      \
  }                                                                            \
  BD_INL void bd_aos_load3_##T(const E *p, bd_##T *v0, bd_##T *v1,             \
                               bd_##T *v2) {                                   \
    bd_##T a = bd_load_##T(p), b = bd_load_##T(p + BD__AW_##S),                \
           c = bd_load_##T(p + 2 * BD__AW_##S);                                \
    bd__a2_##T A = BD__ACAT(S, a, b), B = BD__ACAT(S, c, c);                   \
    *v0 = (bd_##T)BD__ADE(S, 3, 0, A, B);                                      \
    *v1 = (bd_##T)BD__ADE(S, 3, 1, A, B);                                      \
    *v2 = (bd_##T)BD__ADE(S, 3, 2, A, B);                                      \
  }                                                                            \
  BD_INL void bd_aos_load4_##T(const E *p, bd_##T *v0, bd_##T *v1, bd_##T *v2, \
                               bd_##T *v3) {                                   \
    bd_##T a = bd_load_##T(p), b = bd_load_##T(p + BD__AW_##S),                \
           c = bd_load_##T(p + 2 * BD__AW_##S),                                \
           d = bd_load_##T(p + 3 * BD__AW_##S);                                \
    bd__a2_##T A = BD__ACAT(S, a, b), B = BD__ACAT(S, c, d);                   \
    *v0 = (bd_##T)BD__ADE(S, 4, 0, A, B);                                      \
    *v1 = (bd_##T)BD__ADE(S, 4, 1, A, B);                                      \
    *v2 = (bd_##T)BD__ADE(S, 4, 2, A, B);                                      \
    *v3 = (bd_##T)BD__ADE(S, 4, 3, A, B);                                      \
  }                                                                            \
  BD_INL void bd_aos_store2_##T(E *p, bd_##T v0, bd_##T v1) {                  \
    bd__a2_##T o = BD__AIN(S, 2, v0, v1);                                      \
    memcpy(p, &o, sizeof o);                                                   \
  }                                                                            \
  BD_INL void bd_aos_store3_##T(E *p, bd_##T v0, bd_##T v1, bd_##T v2) {       \
    bd__a2_##T A = BD__ACAT(S, v0, v1), B = BD__ACAT(S, v2, v2);               \
    bd__a3_##T o = BD__AIN(S, 3, A, B);                                        \
    memcpy(p, &o, sizeof(E) * 3 * BD__AW_##S);                                 \
  }                                                                            \
  BD_INL void bd_aos_store4_##T(E *p, bd_##T v0, bd_##T v1, bd_##T v2,         \
                                bd_##T v3) {                                   \
    bd__a2_##T A = BD__ACAT(S, v0, v1), B = BD__ACAT(S, v2, v3);               \
    bd__a4_##T o = BD__AIN(S, 4, A, B);                                        \
    memcpy(p, &o, sizeof o);                                                   \
  }                                                                            \
  BD_INL void bd_aos_load5_##T(const E *p, bd_##T *v0, bd_##T *v1, bd_##T *v2, \
                               bd_##T *v3, bd_##T *v4) {                       \
    bd_##T *o[8] = {v0, v1, v2, v3, v4, 0, 0, 0};                              \
    BD__ALOADM(T, S, 5, p, o);                                                 \
  }                                                                            \
  BD_INL void bd_aos_load6_##T(const E *p, bd_##T *v0, bd_##T *v1, bd_##T *v2, \
                               bd_##T *v3, bd_##T *v4, bd_##T *v5) {           \
    bd_##T *o[8] = {v0, v1, v2, v3, v4, v5, 0, 0};                             \
    BD__ALOADM(T, S, 6, p, o);                                                 \
  }                                                                            \
  BD_INL void bd_aos_load7_##T(const E *p, bd_##T *v0, bd_##T *v1, bd_##T *v2, \
                               bd_##T *v3, bd_##T *v4, bd_##T *v5,             \
                               bd_##T *v6) {                                   \
    bd_##T *o[8] = {v0, v1, v2, v3, v4, v5, v6, 0};                            \
    BD__ALOADM(T, S, 7, p, o);                                                 \
  }                                                                            \
  BD_INL void bd_aos_load8_##T(const E *p, bd_##T *v0, bd_##T *v1, bd_##T *v2, \
                               bd_##T *v3, bd_##T *v4, bd_##T *v5, bd_##T *v6, \
                               bd_##T *v7) {                                   \
    bd_##T *o[8] = {v0, v1, v2, v3, v4, v5, v6, v7};                           \
    BD__ALOADM(T, S, 8, p, o);                                                 \
  }                                                                            \
  BD_INL void bd_aos_store5_##T(E *p, bd_##T v0, bd_##T v1, bd_##T v2,         \
                                bd_##T v3, bd_##T v4) {                        \
    bd_##T v[8] = {v0, v1, v2, v3, v4, v4, v4, v4};                            \
    BD__ASTOREM(T, S, 5, p, v);                                                \
  }                                                                            \
  BD_INL void bd_aos_store6_##T(E *p, bd_##T v0, bd_##T v1, bd_##T v2,         \
                                bd_##T v3, bd_##T v4, bd_##T v5) {             \
    bd_##T v[8] = {v0, v1, v2, v3, v4, v5, v4, v4};                            \
    BD__ASTOREM(T, S, 6, p, v);                                                \
  }                                                                            \
  BD_INL void bd_aos_store7_##T(E *p, bd_##T v0, bd_##T v1, bd_##T v2,         \
                                bd_##T v3, bd_##T v4, bd_##T v5, bd_##T v6) {  \
    bd_##T v[8] = {v0, v1, v2, v3, v4, v5, v6, v4};                            \
    BD__ASTOREM(T, S, 7, p, v);                                                \
  }                                                                            \
  BD_INL void bd_aos_store8_##T(E *p, bd_##T v0, bd_##T v1, bd_##T v2,         \
                                bd_##T v3, bd_##T v4, bd_##T v5, bd_##T v6,    \
                                bd_##T v7) {                                   \
    bd_##T v[8] = {v0, v1, v2, v3, v4, v5, v6, v7};                            \
    BD__ASTOREM(T, S, 8, p, v);                                                \
  }

BD__AOS(f32n, float, n)
BD__AOS(i32n, int32_t, n)
BD__AOS(u32n, uint32_t, n)
BD__AOS(f32d, float, d)
BD__AOS(i32d, int32_t, d)
BD__AOS(u32d, uint32_t, d)
BD__AOS(f64d, double, d)
BD__AOS(i64d, int64_t, d)
BD__AOS(u64d, uint64_t, d)

#include <batchdiff/macro_shield.h>
#endif /* BATCHDIFF_AOS_H */
