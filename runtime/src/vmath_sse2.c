/* 128-bit wrappers: bd_rt_<fn>f_4 (4 floats) and bd_rt_<fn>_2 (2 doubles).
 * Used by SSE2 builds and by the half-width f32d type of AVX2 builds, so they
 * call SLEEF's dispatchers, which pick the best 128-bit code for the CPU. */
#include <batchdiff/vmath.h>
#include <sleef.h>

#include "sleef_map.h"

#define NF 4
#define ND 2
typedef bd__v4f VF;
typedef bd__v2d VD;
typedef bd__v4i VFI;
#define SLF(base, acc) Sleef_##base##f4_##acc
#define SLD(base, acc) Sleef_##base##d2_##acc
#define SLF0(base) Sleef_##base##f4
#define SLD0(base) Sleef_##base##d2
#define SLD_HALVES(fn, d)                                                      \
  __builtin_shufflevector(fn(__builtin_shufflevector(d, d, 0, 1)),             \
                          fn(__builtin_shufflevector(d, d, 2, 3)), 0, 1, 2, 3)

#define BD__W1(cf, cd, base, acc)                                              \
  VF bd_rt_##cf##_4(VF x) { return SLF(base, acc)(x); }                        \
  VD bd_rt_##cd##_2(VD x) { return SLD(base, acc)(x); }
#define BD__W2(cf, cd, base, acc)                                              \
  VF bd_rt_##cf##_4(VF x, VF y) { return SLF(base, acc)(x, y); }               \
  VD bd_rt_##cd##_2(VD x, VD y) { return SLD(base, acc)(x, y); }

BD_SLEEF1_LIST(BD__W1)
BD_SLEEF2_LIST(BD__W2)

#include "vmath_impl.h"
