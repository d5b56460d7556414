/* The callee of test_lane_grad_struct_array.c, compiled with its
 * generated functions (lane_grad_struct_array.h). */
#include "lane_grad_struct_array.h"

#include <math.h>

BATCHDIFF double lgs_step(double x, lgs_st *s) {
  s->a = s->a * x;
  for (int k = 0; k < 3; k++)
    s->eb[k] = s->eb[k] * s->eb[k] + x * k;
  s->m[1][0] = sin(x) * s->m[0][1];
  return s->eb[2] * x + s->m[1][1];
}
