/* 256-bit wrappers: bd_rt_<fn>f_8 (8 floats) and bd_rt_<fn>_4 (4 doubles).
 * This file is compiled with -mavx2 -mfma and only reached from code compiled
 * with AVX2, so it calls SLEEF's AVX2 variants directly (no dispatch). */
#include <batchdiff/vmath.h>
#include <sleef.h>

#include "sleef_map.h"

#if BD_VBYTES != 32
#error "vmath_avx2.c must be compiled with -mavx2 -mfma"
#endif

#define NF 8
#define ND 4
typedef bd__v8f VF;
typedef bd__v4d VD;
typedef bd__v8i VFI;
#define SLF(base, acc) Sleef_##base##f8_##acc##avx2
#define SLD(base, acc) Sleef_##base##d4_##acc##avx2
#define SLF0(base) Sleef_##base##f8_avx2
#define SLD0(base) Sleef_##base##d4_avx2
#define SLD_HALVES(fn, d)                                                      \
  __builtin_shufflevector(fn(__builtin_shufflevector(d, d, 0, 1, 2, 3)),       \
                          fn(__builtin_shufflevector(d, d, 4, 5, 6, 7)), 0, 1, \
                          2, 3, 4, 5, 6, 7)

#define BD__W1(cf, cd, base, acc)                                              \
  VF bd_rt_##cf##_8(VF x) { return SLF(base, acc)(x); }                        \
  VD bd_rt_##cd##_4(VD x) { return SLD(base, acc)(x); }
#define BD__W2(cf, cd, base, acc)                                              \
  VF bd_rt_##cf##_8(VF x, VF y) { return SLF(base, acc)(x, y); }               \
  VD bd_rt_##cd##_4(VD x, VD y) { return SLD(base, acc)(x, y); }

BD_SLEEF1_LIST(BD__W1)
BD_SLEEF2_LIST(BD__W2)

#include "vmath_impl.h"
