/* The bd_rt_* wrappers that are one SLEEF call (the others, patched for
 * SLEEF's weak spots, are in vmath_impl.h; docs/runtime.md has the
 * measurements). X(cname_f, cname_d, sleef_base, accuracy)
 * names Sleef_<base>f8_<acc>, Sleef_<base>d4_<acc>, ... */
#ifndef BATCHDIFF_SRC_SLEEF_MAP_H
#define BATCHDIFF_SRC_SLEEF_MAP_H

#define BD_SLEEF1_LIST(X)                                                      \
  X(cbrtf, cbrt, cbrt, u10)                                                    \
  X(exp2f, exp2, exp2, u10)                                                    \
  X(exp10f, exp10, exp10, u10)                                                 \
  X(expm1f, expm1, expm1, u10)                                                 \
  X(logf, log, log, u10)                                                       \
  X(log2f, log2, log2, u10)                                                    \
  X(log10f, log10, log10, u10)                                                 \
  X(asinf, asin, asin, u10)                                                    \
  X(acosf, acos, acos, u10)                                                    \
  X(atanf, atan, atan, u10)

#define BD_SLEEF2_LIST(X)                                                      \
  X(atan2f, atan2, atan2, u10)

#endif
