/* BD_PACKED on an array of records (only strided arrays of records yet). */
#include <batchdiff.h>
typedef struct { double x, y; } pt;
BATCHDIFF double f(BD_PACKED const pt *p, int n) {
  // CHECK: struct-array-packed.c:[[@LINE-1]]:40: error: BD_PACKED on the array of records 'p' is not supported yet in a batch/diff function; pass the records strided (drop BD_PACKED)
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += p[i].x * p[i].y;
  return s;
}
