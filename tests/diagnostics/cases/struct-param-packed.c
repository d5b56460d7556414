/* BD_PACKED on a struct passed by value. */
#include <batchdiff.h>
typedef struct { double x, y; } pt;
BATCHDIFF double f(BD_PACKED pt p) {
  // CHECK: struct-param-packed.c:[[@LINE-1]]:33: error: BD_PACKED on struct parameter 'p': a struct passed by value is one record per example; remove it
  return p.x * p.y;
}
