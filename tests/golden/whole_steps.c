/* A Newton iteration (a division in its loop, no array parameter) gets four
 * chains in NAME_batched (docs/loops.md). With four chains a step whose
 * chains are all full reads and writes on a path of its own: constant
 * counts and offsets, whole-vector loads and stores; the per-chain counts
 * and partial loads only on the other path; one kernel call.
 * whole_steps_grad.c has the same function's NAME_grad (four chains too);
 * whole_steps_two.c a gradient that keeps two.
 *
 * The CHECK lines (FileCheck, run by run_golden.sh) state that structure
 * independently of the exact text in whole_steps.expected.c. */
#include <batchdiff.h>
// DEFINES: nsqrt nsqrt_batched
#include <math.h>

BD_BATCH double nsqrt(double a, BD_UNIFORM double tol) {
  double x = a > 1.0 ? a : 1.0;
  for (int i = 0; i < 60; i++) {
    double d = (x * x - a) / (2.0 * x);
    x = x - d;
    if (fabs(d) <= tol * x)
      break;
  }
  return x;
}

// CHECK-LABEL: static void __bd_nsqrt_bc(
// CHECK: int __bd_all = __bd_k == (4 * (sizeof(bd_md) / 8));
// CHECK: if (__bd_all) {
// CHECK: size_t __bd_k_3 = (sizeof(bd_md) / 8), __bd_i_3 = __bd_i + 3 * (sizeof(bd_md) / 8);
// CHECK: } else {
// CHECK: size_t __bd_k_3 = __bd_k <= 3 * (sizeof(bd_md) / 8) ? 0 :
// CHECK: }
// CHECK-COUNT-1: __bd_nsqrt_bk(
// CHECK: if (__bd_all) {
// CHECK: bd_store_f64d((double *)(__bd_ret + __bd_i_3), __bd_o0_3);
// CHECK: } else {
