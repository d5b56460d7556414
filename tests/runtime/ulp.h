/* ULP error of a float/double result against a long double reference. The
 * reference (x87 80-bit libm, 11 more bits than double) is good to a small
 * fraction of a double ULP, which is what the bounds need. */
#ifndef BATCHDIFF_TEST_ULP_H
#define BATCHDIFF_TEST_ULP_H

#include <math.h>

/* p: precision in bits (24 or 53); emin: exponent of the smallest normal. */
static inline double ulp_error(long double got, long double ref, int p,
                               int emin, long double rounded_ref) {
  if (isnan(ref))
    return isnan(got) ? 0.0 : INFINITY;
  if (isnan(got))
    return INFINITY;
  if (isinf(got) || isinf(ref))
    return got == rounded_ref ? 0.0 : INFINITY;
  int e = ref == 0 ? emin : ilogbl(ref);
  if (e < emin)
    e = emin;
  long double ulp = ldexpl(1.0L, e - p + 1);
  return (double)(fabsl(got - ref) / ulp);
}

static inline double ulp_error_f(float got, long double ref) {
  return ulp_error(got, ref, 24, -126, (float)ref);
}

static inline double ulp_error_d(double got, long double ref) {
  return ulp_error(got, ref, 53, -1022, (double)ref);
}

#endif
