/* 256-bit wrappers: bd_rt_<fn>f_8 (8 floats) and bd_rt_<fn>_4 (4 doubles).
 * This file is compiled with -mavx2 -mfma and only reached from code compiled
 * with AVX2, so it calls SLEEF's AVX2 variants directly (no dispatch). */
#include <batchdiff/vmath.h>
#include <sleef.h>

#include "sleef_map.h"

#if BD_VBYTES != 32
#error "vmath_avx2.c must be compiled with -mavx2 -mfma"
#endif

#define BD__W1(cf, cd, base, acc)                                              \
  bd__v8f bd_rt_##cf##_8(bd__v8f x) {                                          \
    return Sleef_##base##f8_##acc##avx2(x);                                    \
  }                                                                            \
  bd__v4d bd_rt_##cd##_4(bd__v4d x) { return Sleef_##base##d4_##acc##avx2(x); }
#define BD__W2(cf, cd, base, acc)                                              \
  bd__v8f bd_rt_##cf##_8(bd__v8f x, bd__v8f y) {                               \
    return Sleef_##base##f8_##acc##avx2(x, y);                                 \
  }                                                                            \
  bd__v4d bd_rt_##cd##_4(bd__v4d x, bd__v4d y) {                               \
    return Sleef_##base##d4_##acc##avx2(x, y);                                 \
  }

BD_SLEEF1_LIST(BD__W1)
BD_SLEEF2_LIST(BD__W2)

bd__v8f bd_rt_fmodf_8(bd__v8f x, bd__v8f y) { return Sleef_fmodf8_avx2(x, y); }
bd__v4d bd_rt_fmod_4(bd__v4d x, bd__v4d y) { return Sleef_fmodd4_avx2(x, y); }
