/* The callees test_extern_retry.c's functions wait for and never get: this
 * translation unit's, called once per example. They record their calls
 * through xr_note (test_extern_retry.c). */
#include "extern_retry.h"

double xr_scale(double x, int *f) {
  xr_note(100, f ? 1 : 0);
  if (f)
    *f = x > 1.0;
  return x * 0.75;
}

int xr_sign(int k, int *s) {
  xr_note(200, k);
  *s = k % 3 == 0 ? -1 : 1;
  return k & 3;
}
