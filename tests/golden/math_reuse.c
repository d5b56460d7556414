/* A derivative rule that needs a math call the function already made on the
 * same operand reads the primal's result (Reverse.cpp, primalMath): sin's
 * rule needs cos(a), cos's needs sin(a), pow's (in its exponent) needs
 * log(x). So NAME_grad makes each call once per chain, in its forward sweep,
 * and its reverse sweep none; the same call in a sibling branch (tests/exec
 * covers its gradient) would not run where the rule does, and is not read.
 *
 * The CHECK lines (FileCheck, run by run_golden.sh) state that structure
 * independently of the exact text in math_reuse.expected.c. */
#include <batchdiff.h>
// DEFINES: rot rot_grad
#include <math.h>

BATCHDIFF double rot(double a, double x, double y) {
  double c = cos(a), s = sin(a);
  return c * x - s * y + pow(x, y) + log(x);
}
// CHECK-LABEL: void __bd_rot_gk(
// CHECK: = bd_cos_f64d(__bd_t0_0);
// CHECK: = bd_sin_f64d(__bd_t0_0);
// CHECK: = bd_pow_f64d(
// CHECK: = bd_log_f64d(__bd_t1_0);
// CHECK: = bd_log_f64d(__bd_t1_1);
// CHECK-NOT: bd_{{cos|sin|log}}_f64d(
// CHECK-LABEL: static void __bd_rot_gc(
