/* 128-bit wrappers: bd_rt_<fn>f_4 (4 floats) and bd_rt_<fn>_2 (2 doubles).
 * Used by SSE2 builds and by the half-width f32d type of AVX2 builds, so they
 * call SLEEF's dispatchers, which pick the best 128-bit code for the CPU. */
#include <batchdiff/vmath.h>
#include <sleef.h>

#include "sleef_map.h"

#define BD__W1(cf, cd, base, acc)                                              \
  bd__v4f bd_rt_##cf##_4(bd__v4f x) { return Sleef_##base##f4_##acc(x); }      \
  bd__v2d bd_rt_##cd##_2(bd__v2d x) { return Sleef_##base##d2_##acc(x); }
#define BD__W2(cf, cd, base, acc)                                              \
  bd__v4f bd_rt_##cf##_4(bd__v4f x, bd__v4f y) {                               \
    return Sleef_##base##f4_##acc(x, y);                                       \
  }                                                                            \
  bd__v2d bd_rt_##cd##_2(bd__v2d x, bd__v2d y) {                               \
    return Sleef_##base##d2_##acc(x, y);                                       \
  }

BD_SLEEF1_LIST(BD__W1)
BD_SLEEF2_LIST(BD__W2)

/* SLEEF fmod is exact, like C fmod. */
bd__v4f bd_rt_fmodf_4(bd__v4f x, bd__v4f y) { return Sleef_fmodf4(x, y); }
bd__v2d bd_rt_fmod_2(bd__v2d x, bd__v2d y) { return Sleef_fmodd2(x, y); }
