/* whole_steps.c's Newton iteration under diff only: its NAME_grad keeps
 * four chains too, its tape rows staying within 8 slots (x and d per chain;
 * docs/loops.md), so the gradient's wrapper also has the path of its own
 * for a step whose chains are all full; one kernel call.
 * whole_steps_two.c has a gradient that keeps two chains.
 *
 * The CHECK lines (FileCheck, run by run_golden.sh) state that structure
 * independently of the exact text in whole_steps_grad.expected.c. */
#include <batchdiff.h>
// DEFINES: nsqrt nsqrt_grad
#include <math.h>

BD_DIFF double nsqrt(double a, BD_UNIFORM double tol) {
  double x = a > 1.0 ? a : 1.0;
  for (int i = 0; i < 60; i++) {
    double d = (x * x - a) / (2.0 * x);
    x = x - d;
    if (fabs(d) <= tol * x)
      break;
  }
  return x;
}

// CHECK-LABEL: static void __bd_nsqrt_gc(
// CHECK: int __bd_all = __bd_k == (4 * (sizeof(bd_md) / 8));
// CHECK-COUNT-1: __bd_nsqrt_gk(
// CHECK: __bd_acc1 = bd_add_f64d(__bd_acc1, bd_select_f64d(__bd_mk_3,
