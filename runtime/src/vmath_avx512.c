/* 512-bit wrappers: bd_rt_<fn>f_16 (16 floats) and bd_rt_<fn>_8 (8 doubles).
 * This file is compiled with -mavx512f and only reached from code compiled
 * with AVX-512F, so it calls SLEEF's AVX-512F variants directly (no
 * dispatch). The 8-float half-width type of those builds uses the AVX2
 * wrappers (vmath_avx2.c). */
#include <batchdiff/vmath.h>
#include <sleef.h>

#include "sleef_map.h"

#if BD_VBYTES != 64
#error "vmath_avx512.c must be compiled with -mavx512f"
#endif

#define NF 16
#define ND 8
typedef bd__v16f VF;
typedef bd__v8d VD;
typedef bd__v16i VFI;
#define SLF(base, acc) Sleef_##base##f16_##acc##avx512f
#define SLD(base, acc) Sleef_##base##d8_##acc##avx512f
#define SLF0(base) Sleef_##base##f16_avx512f
#define SLD0(base) Sleef_##base##d8_avx512f
#define SLD_HALVES(fn, d)                                                      \
  __builtin_shufflevector(                                                     \
      fn(__builtin_shufflevector(d, d, 0, 1, 2, 3, 4, 5, 6, 7)),               \
      fn(__builtin_shufflevector(d, d, 8, 9, 10, 11, 12, 13, 14, 15)), 0, 1,   \
      2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

#define BD__W1(cf, cd, base, acc)                                              \
  VF bd_rt_##cf##_16(VF x) { return SLF(base, acc)(x); }                       \
  VD bd_rt_##cd##_8(VD x) { return SLD(base, acc)(x); }
#define BD__W2(cf, cd, base, acc)                                              \
  VF bd_rt_##cf##_16(VF x, VF y) { return SLF(base, acc)(x, y); }              \
  VD bd_rt_##cd##_8(VD x, VD y) { return SLD(base, acc)(x, y); }

BD_SLEEF1_LIST(BD__W1)
BD_SLEEF2_LIST(BD__W2)

#include "vmath_impl.h"
