/* NAME_hvp with a struct parameter (NAME_grad and NAME_jvp have them). */
#include <batchdiff.h>
typedef struct { double x, y; } pt;
__attribute__((batch, diff(hvp))) double f(pt p) {
  // CHECK: struct-param-hvp.c:[[@LINE-1]]:42: error: diff(hvp) does not support the struct parameter 'p' yet; pass its members as scalar parameters, or drop diff(hvp)
  return p.x * p.y;
}
