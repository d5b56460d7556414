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
 * (docs/performance-arrays.md, "Records", has the measurement). */
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

/* ---- Rows: the same elements of W arrays, one vector per element ----
 *   bd_rows_load_<T>(const E *p, ptrdiff_t stride, int len, bd_<T> *out,
 *                    int ostep)
 *     lane j of out[t * ostep] = p[j * stride + t] for t < len: element t of
 *     W arrays (rows) stride elements apart (any stride: 0, negative, the
 *     rows may overlap). Reads only the rows' first len elements: per row
 *     and block of W elements one whole-vector load (the last block ends at
 *     len, overlapping the one before; len < W: one masked load of len
 *     elements), then a W x W transpose in registers (log2(W) stages of W
 *     two-source shuffles); rows back to back (stride == len) of 2 ... 4
 *     elements: bd_aos_load<len> (len loads, fewer permutes). len is a constant where generated code calls it
 *     (per-example arrays of a static extent, docs/abi.md): the loops
 *     unroll. See docs/performance-arrays.md, "Per-example arrays".
 *   bd_rows_store_<T>(E *p, ptrdiff_t stride, int len, const bd_<T> *in,
 *                     int istep)
 *     the inverse: p[j * stride + t] = lane j of in[t * istep] for t < len,
 *     writing exactly the rows' first len elements (whole-vector stores,
 *     masked below W elements; overlapping blocks store the same values
 *     twice). The rows must not overlap (|stride| >= len). */
#define BD__ZLO_2 0, 2
#define BD__ZHI_2 1, 3
#define BD__ZLO_4 0, 4, 1, 5
#define BD__ZHI_4 2, 6, 3, 7
#define BD__ZLO_8 0, 8, 1, 9, 2, 10, 3, 11
#define BD__ZHI_8 4, 12, 5, 13, 6, 14, 7, 15
#define BD__ZLO_16 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23
#define BD__ZHI_16 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31
#define BD__ZX2(H, W) BD__Z##H##_##W
#define BD__ZX(H, W) BD__ZX2(H, W)
/* One stage: row 2i (2i + 1) interleaves the low (high) halves of rows i
 * and i + W/2; log2(W) stages transpose. */
#define BD__ROWS(T, E, S)                                                      \
  BD_INL void bd__rows_zip_##T(bd_##T *r) {                                    \
    bd_##T t[BD__AW_##S];                                                      \
    for (int i = 0; i < BD__AW_##S / 2; i++) {                                 \
      t[2 * i] = __builtin_shufflevector(r[i], r[i + BD__AW_##S / 2],          \
                                         BD__ZX(LO, BD__AW_##S));              \
      t[2 * i + 1] = __builtin_shufflevector(r[i], r[i + BD__AW_##S / 2],      \
                                             BD__ZX(HI, BD__AW_##S));          \
    }                                                                          \
    for (int i = 0; i < BD__AW_##S; i++)                                       \
      r[i] = t[i];                                                             \
  }                                                                            \
  /* Rows back to back (stride == len, 2 ... 4): the records' transposes,      \
   * len loads and a few permutes instead of W masked loads and a W x W        \
   * network (at 5 ... 8 the network is the cheaper: bench_arrays). */         \
  BD_INL void bd__rows_aos_load_##T(const E *p, int len, bd_##T *out,          \
                                    int ostep) {                               \
    bd_##T v[4];                                                               \
    if (len == 2)                                                              \
      bd_aos_load2_##T(p, &v[0], &v[1]);                                       \
    else if (len == 3)                                                         \
      bd_aos_load3_##T(p, &v[0], &v[1], &v[2]);                                \
    else                                                                       \
      bd_aos_load4_##T(p, &v[0], &v[1], &v[2], &v[3]);                         \
    for (int t = 0; t < len; t++)                                              \
      out[t * ostep] = v[t];                                                   \
  }                                                                            \
  BD_INL void bd__rows_aos_store_##T(E *p, int len, const bd_##T *in,          \
                                     int istep) {                              \
    if (len == 2)                                                              \
      bd_aos_store2_##T(p, in[0], in[istep]);                                  \
    else if (len == 3)                                                         \
      bd_aos_store3_##T(p, in[0], in[istep], in[2 * istep]);                   \
    else                                                                       \
      bd_aos_store4_##T(p, in[0], in[istep], in[2 * istep], in[3 * istep]);    \
  }                                                                            \
  BD_INL void bd_rows_load_##T(const E *p, ptrdiff_t stride, int len,          \
                               bd_##T *out, int ostep) {                       \
    /* expect 0: the strided path keeps its layout (within 5% measured) */     \
    if (__builtin_expect(stride == len, 0) && len >= 2 && len <= 4) {          \
      bd__rows_aos_load_##T(p, len, out, ostep);                               \
      return;                                                                  \
    }                                                                          \
    for (int b = 0; b < len; b += BD__AW_##S) {                                \
      int o = len < BD__AW_##S        ? 0                                      \
              : b + BD__AW_##S <= len ? b                                      \
                                      : len - BD__AW_##S;                      \
      bd_##T r[BD__AW_##S];                                                    \
      for (int j = 0; j < BD__AW_##S; j++) {                                   \
        const E *q = p + (ptrdiff_t)j * stride + o;                            \
        r[j] = len < BD__AW_##S                                                \
                   ? bd_maskload_##T(bd_mfirst_##S((size_t)len), q)            \
                   : bd_load_##T(q);                                           \
      }                                                                        \
      for (int s = 1; s < BD__AW_##S; s *= 2)                                  \
        bd__rows_zip_##T(r);                                                   \
      for (int m = 0; m < BD__AW_##S; m++)                                     \
        if (o + m >= b && o + m < len)                                         \
          out[(o + m) * ostep] = r[m];                                         \
    }                                                                          \
  }                                                                            \
  BD_INL void bd_rows_store_##T(E *p, ptrdiff_t stride, int len,               \
                                const bd_##T *in, int istep) {                 \
    if (__builtin_expect(stride == len, 0) && len >= 2 && len <= 4) {          \
      bd__rows_aos_store_##T(p, len, in, istep);                               \
      return;                                                                  \
    }                                                                          \
    for (int b = 0; b < len; b += BD__AW_##S) {                                \
      int o = len < BD__AW_##S        ? 0                                      \
              : b + BD__AW_##S <= len ? b                                      \
                                      : len - BD__AW_##S;                      \
      bd_##T r[BD__AW_##S];                                                    \
      for (int m = 0; m < BD__AW_##S; m++)                                     \
        r[m] = in[(o + m < len ? o + m : len - 1) * istep];                    \
      for (int s = 1; s < BD__AW_##S; s *= 2)                                  \
        bd__rows_zip_##T(r);                                                   \
      for (int j = 0; j < BD__AW_##S; j++) {                                   \
        E *q = p + (ptrdiff_t)j * stride + o;                                  \
        if (len < BD__AW_##S)                                                  \
          bd_maskstore_##T(bd_mfirst_##S((size_t)len), q, r[j]);               \
        else                                                                   \
          bd_store_##T(q, r[j]);                                               \
      }                                                                        \
    }                                                                          \
  }

BD__ROWS(f32n, float, n)
BD__ROWS(i32n, int32_t, n)
BD__ROWS(u32n, uint32_t, n)
BD__ROWS(f32d, float, d)
BD__ROWS(i32d, int32_t, d)
BD__ROWS(u32d, uint32_t, d)
BD__ROWS(f64d, double, d)
BD__ROWS(i64d, int64_t, d)
BD__ROWS(u64d, uint64_t, d)

/* ---- Blocks of ragged rows: W elements of each lane's row from i0 ----
 *   int bd_rblock_load_<T>(bd_m<S> m, const E *p, bd_<S>idx offs,
 *                          bd_i32<S> n, int32_t i0, bd_<T> *out,
 *                          bd_i32<S> *end)
 *     when every lane j in m has W elements below its bound n_j from i0
 *     (n_j - i0 >= W): lane j of out[t] = p[offs_j + i0 + t] for t < W (0
 *     in lanes off m, which read nothing), end_j = i0 + W in m (i0 off
 *     it), and returns 1: per lane one whole-vector load (masked when m is
 *     not full), then the W x W transpose of bd_rows_load. Otherwise reads
 *     nothing, leaves out and end as they are and returns 0 (near the
 *     bounds a gather per element costs less than a block). Generated code
 *     serves W trips of a loop `for (i = ...; i < n; i++) ... x[i]` from
 *     one block instead of a gather per trip (docs/performance-arrays.md, "Ragged
 *     rows read in blocks"). */
#define BD__RBLOCK(T, E, S, IE)                                                \
  BD_INL int bd_rblock_load_##T(bd_m##S m, const E *p, bd_##S##idx offs,       \
                                bd_i32##S n, int32_t i0, bd_##T *out,          \
                                bd_i32##S *end) {                              \
    if (i0 > INT32_MAX - BD__AW_##S ||                                         \
        !bd_none_m##S(bd_andnot_m##S(                                          \
            m, bd_cmpge_i32##S(n, bd_splat_i32##S(i0 + BD__AW_##S)))))         \
      return 0;                                                                \
    IE ob[BD__AW_##S];                                                         \
    memcpy(ob, &offs, sizeof ob);                                              \
    bd_##T r[BD__AW_##S];                                                      \
    if (bd_all_m##S(m)) {                                                      \
      for (int j = 0; j < BD__AW_##S; j++)                                     \
        r[j] = bd_load_##T(p + (ptrdiff_t)ob[j] + i0);                         \
    } else {                                                                   \
      int bits = bd_mbits_##S(m);                                              \
      for (int j = 0; j < BD__AW_##S; j++)                                     \
        r[j] = bd_maskload_##T(                                                \
            bd_mfirst_##S(bits >> j & 1 ? (size_t)BD__AW_##S : 0),             \
            p + (ptrdiff_t)ob[j] + i0);                                        \
    }                                                                          \
    for (int s = 1; s < BD__AW_##S; s *= 2)                                    \
      bd__rows_zip_##T(r);                                                     \
    for (int t = 0; t < BD__AW_##S; t++)                                       \
      out[t] = r[t];                                                           \
    *end = bd_select_i32##S(m, bd_splat_i32##S(i0 + BD__AW_##S),               \
                            bd_splat_i32##S(i0));                              \
    return 1;                                                                  \
  }

BD__RBLOCK(f32n, float, n, int32_t)
BD__RBLOCK(i32n, int32_t, n, int32_t)
BD__RBLOCK(u32n, uint32_t, n, int32_t)
BD__RBLOCK(f32d, float, d, int64_t)
BD__RBLOCK(i32d, int32_t, d, int64_t)
BD__RBLOCK(u32d, uint32_t, d, int64_t)
BD__RBLOCK(f64d, double, d, int64_t)
BD__RBLOCK(i64d, int64_t, d, int64_t)
BD__RBLOCK(u64d, uint64_t, d, int64_t)

#include <batchdiff/macro_shield.h>
#endif /* BATCHDIFF_AOS_H */
