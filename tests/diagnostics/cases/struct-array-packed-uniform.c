/* BD_PACKED on a BD_UNIFORM array of records (one array for the batch). */
#include <batchdiff.h>
typedef struct { double x, y; } pt;
BATCHDIFF double f(BD_UNIFORM BD_PACKED const pt *p, double a) {
  // CHECK: struct-array-packed-uniform.c:[[@LINE-1]]:51: error: BD_UNIFORM array of records 'p' cannot be BD_PACKED: one array for the whole batch has no per-example layout; drop one of the two
  return p[0].x * a + p[1].y;
}
