#pragma clang system_header
/* batchdiff vector API: the x86 instructions that simd.h cannot express
 * with vector extensions (movemask, k-masks, masked loads and stores,
 * gathers, scatters, cvttps2dq), as clang's __builtin_ia32_* builtins: the
 * same calls <immintrin.h> makes, without its 0.3 s of parsing (and SIMDe's
 * 0.1-0.4 s) in every file that includes the runtime. Each macro names the
 * intrinsic it stands for.
 *
 * Usage: included by simd.h after BD_VBYTES is set. Arguments are cast to
 * the builtins' own vector and pointer types (long long, not int64_t). */
#ifndef BATCHDIFF_SIMD_X86_H
#define BATCHDIFF_SIMD_X86_H
#include <batchdiff/macro_shield.h> /* hides the user's macros until its end */

#define BD__XV(E, N) E __attribute__((__vector_size__(N)))
typedef BD__XV(int, 16) bd__x4si;
typedef BD__XV(long long, 16) bd__x2di;
typedef BD__XV(float, 16) bd__x4sf;
typedef BD__XV(double, 16) bd__x2df;

#if BD_VBYTES == 16
#if defined(__SSE2__)
#define BD__MOVEMASK_N(m) __builtin_ia32_movmskps((bd__x4sf)(m))
#define BD__MOVEMASK_D(m) __builtin_ia32_movmskpd((bd__x2df)(m))
#define BD__CVTTPS_I32N(v) __builtin_ia32_cvttps2dq((bd__x4sf)(v))
#else
/* Not x86: the sign bit of each lane, and truncation with cvttps2dq's
 * INT32_MIN for NaN and out-of-range lanes (never converting those). */
#define BD__MOVEMASK_GENERIC(m, W)                                             \
  __extension__({                                                              \
    int bd__r = 0;                                                             \
    for (int bd__i = 0; bd__i < (W); bd__i++)                                  \
      bd__r |= (m)[bd__i] < 0 ? 1 << bd__i : 0;                                \
    bd__r;                                                                     \
  })
#define BD__MOVEMASK_N(m) BD__MOVEMASK_GENERIC((bd__x4si)(m), 4)
#define BD__MOVEMASK_D(m) BD__MOVEMASK_GENERIC((bd__x2di)(m), 2)
#define BD__CVTTPS_I32N(v)                                                     \
  __extension__({                                                              \
    bd__x4sf bd__v = (bd__x4sf)(v);                                            \
    bd__x4si bd__ok = (bd__v >= -2147483648.0f) & (bd__v < 2147483648.0f);     \
    bd__x4si bd__t = __builtin_convertvector(                                  \
        (bd__x4sf)((bd__x4si)bd__v & bd__ok), bd__x4si);                       \
    (bd__t & bd__ok) | ((bd__x4si){0} + (-2147483647 - 1) & ~bd__ok);          \
  })
#endif
#else
typedef BD__XV(int, 32) bd__x8si;
typedef BD__XV(long long, 32) bd__x4di;
typedef BD__XV(float, 32) bd__x8sf;
typedef BD__XV(double, 32) bd__x4df;

/* AVX2 masks, loads, stores and gathers (also the half-width types of
 * AVX-512 builds without AVX-512VL). */
#define BD__MOVMSKPS256(m) __builtin_ia32_movmskps256((bd__x8sf)(m))
#define BD__MOVMSKPD256(m) __builtin_ia32_movmskpd256((bd__x4df)(m))
#define BD__MASKLOAD_PS256(p, m)                                               \
  __builtin_ia32_maskloadps256((const bd__x8sf *)(p), (bd__x8si)(m))
#define BD__MASKLOAD_EPI32_256(p, m)                                           \
  __builtin_ia32_maskloadd256((const bd__x8si *)(p), (bd__x8si)(m))
#define BD__MASKLOAD_PD256(p, m)                                               \
  __builtin_ia32_maskloadpd256((const bd__x4df *)(p), (bd__x4di)(m))
#define BD__MASKLOAD_EPI64_256(p, m)                                           \
  __builtin_ia32_maskloadq256((const bd__x4di *)(p), (bd__x4di)(m))
#define BD__MASKLOAD_PS128(p, m)                                               \
  __builtin_ia32_maskloadps((const bd__x4sf *)(p), (bd__x4si)(m))
#define BD__MASKLOAD_EPI32_128(p, m)                                           \
  __builtin_ia32_maskloadd((const bd__x4si *)(p), (bd__x4si)(m))
#define BD__MASKSTORE_PS256(p, m, v)                                           \
  __builtin_ia32_maskstoreps256((bd__x8sf *)(p), (bd__x8si)(m), (bd__x8sf)(v))
#define BD__MASKSTORE_EPI32_256(p, m, v)                                       \
  __builtin_ia32_maskstored256((bd__x8si *)(p), (bd__x8si)(m), (bd__x8si)(v))
#define BD__MASKSTORE_PD256(p, m, v)                                           \
  __builtin_ia32_maskstorepd256((bd__x4df *)(p), (bd__x4di)(m), (bd__x4df)(v))
#define BD__MASKSTORE_EPI64_256(p, m, v)                                       \
  __builtin_ia32_maskstoreq256((bd__x4di *)(p), (bd__x4di)(m), (bd__x4di)(v))
#define BD__MASKSTORE_PS128(p, m, v)                                           \
  __builtin_ia32_maskstoreps((bd__x4sf *)(p), (bd__x4si)(m), (bd__x4sf)(v))
#define BD__MASKSTORE_EPI32_128(p, m, v)                                       \
  __builtin_ia32_maskstored((bd__x4si *)(p), (bd__x4si)(m), (bd__x4si)(v))
/* _mm256_mask_i32gather_ps(0, b, x, m, 4) and the like: masked-off lanes 0. */
#define BD__GATHER_D_PS256(b, x, m)                                            \
  __builtin_ia32_gatherd_ps256((bd__x8sf){0}, (const float *)(b),              \
                               (bd__x8si)(x), (bd__x8sf)(m), 4)
#define BD__GATHER_D_EPI32_256(b, x, m)                                        \
  __builtin_ia32_gatherd_d256((bd__x8si){0}, (const int *)(b), (bd__x8si)(x),  \
                              (bd__x8si)(m), 4)
#define BD__GATHER_Q_PD256(b, x, m)                                            \
  __builtin_ia32_gatherq_pd256((bd__x4df){0}, (const double *)(b),             \
                               (bd__x4di)(x), (bd__x4df)(m), 8)
#define BD__GATHER_Q_EPI64_256(b, x, m)                                        \
  __builtin_ia32_gatherq_q256((bd__x4di){0}, (const long long *)(b),           \
                              (bd__x4di)(x), (bd__x4di)(m), 8)
#define BD__GATHER_Q_PS256(b, x, m)                                            \
  __builtin_ia32_gatherq_ps256((bd__x4sf){0}, (const float *)(b),              \
                               (bd__x4di)(x), (bd__x4sf)(m), 4)
#define BD__GATHER_Q_EPI32_256(b, x, m)                                        \
  __builtin_ia32_gatherq_d256((bd__x4si){0}, (const int *)(b), (bd__x4di)(x),  \
                              (bd__x4si)(m), 4)
#define BD__CVTTPS_I32N_256(v) __builtin_ia32_cvttps2dq256((bd__x8sf)(v))
/* _mm256_permutevar8x32_ps(a, i), _mm256_blendv_ps(a, b, m). */
#define BD__PERMVAR_PS256(a, i)                                                \
  __builtin_ia32_permvarsf256((bd__x8sf)(a), (bd__x8si)(i))
#define BD__BLENDV_PS256(a, b, m)                                              \
  __builtin_ia32_blendvps256((bd__x8sf)(a), (bd__x8sf)(b), (bd__x8sf)(m))

#if BD_VBYTES == 64
typedef BD__XV(int, 64) bd__x16si;
typedef BD__XV(long long, 64) bd__x8di;
typedef BD__XV(float, 64) bd__x16sf;
typedef BD__XV(double, 64) bd__x8df;
/* _mm512_cmplt_epi32_mask(m, 0) (_MM_CMPINT_LT = 1): the sign bits. */
#define BD__KMASK_N(m)                                                         \
  ((unsigned short)__builtin_ia32_cmpd512_mask((bd__x16si)(m), (bd__x16si){0}, \
                                               1, (unsigned short)-1))
#define BD__KMASK_D(m)                                                         \
  ((unsigned char)__builtin_ia32_cmpq512_mask((bd__x8di)(m), (bd__x8di){0}, 1, \
                                              (unsigned char)-1))
#define BD__MASKZ_LOADU_PS512(k, p)                                            \
  __builtin_ia32_loadups512_mask((const float *)(p), (bd__x16sf){0}, (k))
#define BD__MASKZ_LOADU_EPI32_512(k, p)                                        \
  __builtin_ia32_loaddqusi512_mask((const int *)(p), (bd__x16si){0}, (k))
#define BD__MASKZ_LOADU_PD512(k, p)                                            \
  __builtin_ia32_loadupd512_mask((const double *)(p), (bd__x8df){0}, (k))
#define BD__MASKZ_LOADU_EPI64_512(k, p)                                        \
  __builtin_ia32_loaddqudi512_mask((const long long *)(p), (bd__x8di){0}, (k))
#define BD__MASK_STOREU_PS512(p, k, v)                                         \
  __builtin_ia32_storeups512_mask((float *)(p), (bd__x16sf)(v), (k))
#define BD__MASK_STOREU_EPI32_512(p, k, v)                                     \
  __builtin_ia32_storedqusi512_mask((int *)(p), (bd__x16si)(v), (k))
#define BD__MASK_STOREU_PD512(p, k, v)                                         \
  __builtin_ia32_storeupd512_mask((double *)(p), (bd__x8df)(v), (k))
#define BD__MASK_STOREU_EPI64_512(p, k, v)                                     \
  __builtin_ia32_storedqudi512_mask((long long *)(p), (bd__x8di)(v), (k))
/* AVX-512VL: k-masked 256-bit loads and stores. */
#define BD__MASKZ_LOADU_PS256(k, p)                                            \
  __builtin_ia32_loadups256_mask((const bd__x8sf *)(p), (bd__x8sf){0}, (k))
#define BD__MASKZ_LOADU_EPI32_256(k, p)                                        \
  __builtin_ia32_loaddqusi256_mask((const bd__x8si *)(p), (bd__x8si){0}, (k))
#define BD__MASK_STOREU_PS256(p, k, v)                                         \
  __builtin_ia32_storeups256_mask((bd__x8sf *)(p), (bd__x8sf)(v), (k))
#define BD__MASK_STOREU_EPI32_256(p, k, v)                                     \
  __builtin_ia32_storedqusi256_mask((bd__x8si *)(p), (bd__x8si)(v), (k))
/* _mm512_mask_i32gather_ps(0, k, x, b, 4) and the like. */
#define BD__GATHER_D_PS512(k, x, b)                                            \
  __builtin_ia32_gathersiv16sf((bd__x16sf){0}, (const void *)(b),              \
                               (bd__x16si)(x), (k), 4)
#define BD__GATHER_D_EPI32_512(k, x, b)                                        \
  __builtin_ia32_gathersiv16si((bd__x16si){0}, (const void *)(b),              \
                               (bd__x16si)(x), (k), 4)
#define BD__GATHER_Q_PD512(k, x, b)                                            \
  __builtin_ia32_gatherdiv8df((bd__x8df){0}, (const void *)(b), (bd__x8di)(x), \
                              (k), 8)
#define BD__GATHER_Q_EPI64_512(k, x, b)                                        \
  __builtin_ia32_gatherdiv8di((bd__x8di){0}, (const void *)(b), (bd__x8di)(x), \
                              (k), 8)
#define BD__GATHER_Q_PS512(k, x, b)                                            \
  __builtin_ia32_gatherdiv16sf((bd__x8sf){0}, (const void *)(b),               \
                               (bd__x8di)(x), (k), 4)
#define BD__GATHER_Q_EPI32_512(k, x, b)                                        \
  __builtin_ia32_gatherdiv16si((bd__x8si){0}, (const void *)(b),               \
                               (bd__x8di)(x), (k), 4)
/* _mm512_permutex2var_pd(a, i, b), _mm512_permutex2var_ps(a, i, b). */
#define BD__PERMX2_PD512(a, i, b)                                              \
  __builtin_ia32_vpermi2varpd512((bd__x8df)(a), (bd__x8di)(i), (bd__x8df)(b))
#define BD__PERMX2_PS512(a, i, b)                                              \
  __builtin_ia32_vpermi2varps512((bd__x16sf)(a), (bd__x16si)(i), (bd__x16sf)(b))
/* _mm512_mask_i32scatter_ps(b, k, x, v, 4) and the like. */
#define BD__SCATTER_D_PS512(b, k, x, v)                                        \
  __builtin_ia32_scattersiv16sf((void *)(b), (k), (bd__x16si)(x),              \
                                (bd__x16sf)(v), 4)
#define BD__SCATTER_D_EPI32_512(b, k, x, v)                                    \
  __builtin_ia32_scattersiv16si((void *)(b), (k), (bd__x16si)(x),              \
                                (bd__x16si)(v), 4)
#define BD__SCATTER_Q_PD512(b, k, x, v)                                        \
  __builtin_ia32_scatterdiv8df((void *)(b), (k), (bd__x8di)(x), (bd__x8df)(v), \
                               8)
#define BD__SCATTER_Q_EPI64_512(b, k, x, v)                                    \
  __builtin_ia32_scatterdiv8di((void *)(b), (k), (bd__x8di)(x), (bd__x8di)(v), \
                               8)
#define BD__SCATTER_Q_PS512(b, k, x, v)                                        \
  __builtin_ia32_scatterdiv16sf((void *)(b), (k), (bd__x8di)(x),               \
                                (bd__x8sf)(v), 4)
#define BD__SCATTER_Q_EPI32_512(b, k, x, v)                                    \
  __builtin_ia32_scatterdiv16si((void *)(b), (k), (bd__x8di)(x),               \
                                (bd__x8si)(v), 4)
/* _mm512_cvttps_epi32 (_MM_FROUND_CUR_DIRECTION = 4). */
#define BD__CVTTPS_I32N(v)                                                     \
  __builtin_ia32_cvttps2dq512_mask((bd__x16sf)(v), (bd__x16si){0},             \
                                   (unsigned short)-1, 4)
#else
#define BD__CVTTPS_I32N(v) BD__CVTTPS_I32N_256(v)
#endif
#endif

#include <batchdiff/macro_shield.h>
#endif /* BATCHDIFF_SIMD_X86_H */
