/* diff(hvp) with a BD_POINTERS array of records (NAME_hvp takes packed
   and pointer arrays of scalars, records only strided so far). */
#include <batchdiff.h>
typedef struct { double x, y; } pt;
__attribute__((batch, diff(hvp))) double f(BD_POINTERS const pt *p, int n) {
  // CHECK: struct-array-packed-hvp.c:[[@LINE-1]]:42: error: diff(hvp) does not support the BD_POINTERS array of records 'p' yet; NAME_hvp needs a strided array of records (drop BD_POINTERS, or drop diff(hvp))
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += p[i].x * p[i].y;
  return s;
}
