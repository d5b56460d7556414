/* A derivative rule's own math call on primal values is made in the
 * forward sweep, right after the primal call (Reverse.cpp, hoistRuleMath):
 * erfc's rule needs exp(-x*x), sin's cos(x) where the function computes no
 * cos itself. There the call overlaps the forward's dependency chain; in
 * the reverse sweep it lengthened the adjoint's. The same call on the same
 * operands: the same bits (tests/exec covers the gradients). A call inside
 * a loop stays in the reverse sweep (it would take a tape slot; tests/loops),
 * and so does one whose adjoint not every gradient needs (q's sin(b): its rule
 * runs under a need-flag test, for the gradient of b only).
 *
 * The CHECK lines (FileCheck, run by run_golden.sh) state that structure
 * independently of the exact text in rule_math_early.expected.c. */
#include <batchdiff.h>
// DEFINES: ncdf ncdf_grad wave wave_grad q q_grad
#include <math.h>

BATCHDIFF double ncdf(double x, double s) {
  return 0.5 * erfc(-x * s) + x;
}
// CHECK-LABEL: void __bd_ncdf_gk(
// CHECK: = bd_erfc_f64d(
// CHECK-NEXT: = bd_erfc_f64d(
// CHECK: = bd_exp_f64d(
// CHECK-NEXT: = bd_exp_f64d(
// CHECK: d___ret_0 = __bd_t{{[0-9]+}}_0;
// CHECK-NOT: bd_{{exp|erfc}}_f64d(
// CHECK-LABEL: static void __bd_ncdf_gc(

BATCHDIFF double wave(double a, double t) { return sin(a * t) * t; }
// CHECK-LABEL: void __bd_wave_gk(
// CHECK: = bd_sin_f64d(
// CHECK-NEXT: = bd_sin_f64d(
// CHECK-NEXT: = bd_cos_f64d(
// CHECK-NEXT: = bd_cos_f64d(
// CHECK: d___ret_0 = __bd_t{{[0-9]+}}_0;
// CHECK-NOT: bd_{{sin|cos}}_f64d(
// CHECK-LABEL: static void __bd_wave_gc(

BATCHDIFF double q(double a, double b) { return a * a + sin(b); }
// CHECK-LABEL: void __bd_q_gk(
// CHECK: = bd_sin_f64d(
// CHECK-NOT: bd_cos_f64d(
// CHECK: d___ret_0 = __bd_t{{[0-9]+}}_0;
// CHECK: if (
// CHECK: = bd_cos_f64d(
// CHECK-LABEL: static void __bd_q_gc(
