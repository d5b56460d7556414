/* With several chains of lanes (-fplugin-arg-batchdiff-chains=4), a
 * partial step declares each chain's count, first example and full flag:
 * a _Bool or narrow result, stored through a lane buffer, reads no full
 * flag (-Wunused-variable __bd_full_0; robust seed 2837), and an array
 * passed by stride no first example (__bd_i_0: genwarn/pointer_types.c's
 * next_uniform). */
#include <batchdiff.h>

BD_BATCH _Bool above(double x, int n) {
  _Bool b = x > 0.0;
  for (int i = 0; i < n; i++)
    b = b != (x * i > 3.0);
  return b;
}
BD_BATCH char sign8(double x) { return x > 0 ? 1 : x < 0 ? -1 : 0; }
BD_BATCH short clamp16(float x) { return x > 100.0f ? 100 : (short)x; }
BATCHDIFF double mixed(double x, unsigned char k) { return x * k; }
