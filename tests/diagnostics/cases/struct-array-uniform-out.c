/* A BD_UNIFORM record out-parameter: every example would write it. */
#include <batchdiff.h>
typedef struct { double x, y; } pt;
BATCHDIFF void f(double a, BD_UNIFORM pt *out) {
  // CHECK: struct-array-uniform-out.c:[[@LINE-1]]:43: error: BD_UNIFORM output array 'out': every example would write the same array; make it varying (one array per example) or const
  out->x = a;
  out->y = a * a;
}
