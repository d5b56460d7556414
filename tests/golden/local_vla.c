/* A local variable-length array of a per-example size: room taken where it
 * is declared (bd_vla_reserve, the largest size among the lanes that run
 * the declaration), indices clamped into it (__bd_capV), the adjoint zeroed
 * as far as any declaration used the array (docs/subset.md). */
#include <batchdiff.h>

BATCHDIFF double local_vla(int n, const double x[n]) {
  double t[n];
  double s = 0;
  for (int i = 0; i < n; i++)
    t[i] = x[i] * 2;
  for (int i = 0; i < n; i++)
    s += t[i] * t[i];
  return s;
}
