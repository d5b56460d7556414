/* Tolerance checks shared by the tests.
 *
 *   close_to(got, want, tol)       |got - want| <= tol (|want| + 1): relative,
 *                                  absolute near zero (where terms cancel);
 *                                  false where either is NaN;
 *   close_nan_inf(got, want, tol)  the same, but NaN matches NaN and an
 *                                  infinity only itself (close_to alone
 *                                  takes any finite got for an infinite
 *                                  want).
 *
 * Where a check must fail on NaN, write !close_to(got, want, tol), not
 * fabs(got - want) > tol * ...: that comparison is false for NaN. */
#ifndef BATCHDIFF_TESTS_COMMON_CLOSE_H
#define BATCHDIFF_TESTS_COMMON_CLOSE_H

#include <math.h>

static int close_to(double got, double want, double tol) {
  return fabs(got - want) <= tol * (fabs(want) + 1.0);
}

static int close_nan_inf(double got, double want, double tol) {
  if (isnan(want) || isnan(got))
    return isnan(want) && isnan(got);
  if (isinf(want) || isinf(got))
    return got == want;
  return close_to(got, want, tol);
}

#endif
