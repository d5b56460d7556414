/* The callees of test_batched_callee.c, compiled with the plugin as their
 * own file: each defines NAME_batched / NAME_grad as its attributes ask. */
#include "batched_callee.h"

#include <math.h>

BATCHDIFF double bc_kink(double x, double y) {
  return x > 0 ? sin(x) * y : x * x * y - x;
}

BATCHDIFF double bc_root(double c, int iters) {
  double r = c > 1 ? c : 1.0;
  for (int i = 0; i < iters; i++)
    r = 0.5 * (r + c / r);
  return r;
}

BATCHDIFF float bc_sqf(float x) { return x * x * 0.5f + sinf(x); }

BATCHDIFF double bc_mix(double x, BD_UNIFORM double u, BD_NODIFF double w,
                        float y) {
  return x * u + w * exp(0.25 * x) + (double)(y * y);
}

BD_BATCH double bc_plain(double x) { return x < 1 ? x * 3 : log(x); }

BD_DIFF double bc_gradonly(double x) { return tanh(x) * x; }

BD_BATCH int bc_sign(double x) { return (x > 0) - (x < 0); }

BATCHDIFF double bc_cube(double x) { return x * x * x; }
