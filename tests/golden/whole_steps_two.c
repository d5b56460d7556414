/* A Newton iteration whose NAME_grad keeps two chains (ncosx's sin and cos
 * make its tape rows wider than 8 slots; docs/loops.md) while its
 * NAME_batched has four: with two chains the gradient's wrapper has one
 * path, without the whole-step split of whole_steps_grad.c.
 *
 * The CHECK lines (FileCheck, run by run_golden.sh) state that structure
 * independently of the exact text in whole_steps_two.expected.c. */
#include <batchdiff.h>
// DEFINES: ncosx ncosx_batched ncosx_grad
#include <math.h>

BATCHDIFF double ncosx(double a) {
  double x = a;
  for (int i = 0; i < 40; i++) {
    double d = (cos(x) - a * x) / (-sin(x) - a);
    x = x - d;
    if (fabs(d) <= 1e-13)
      break;
  }
  return x;
}

// CHECK-LABEL: static void __bd_ncosx_bc(
// CHECK: int __bd_all = __bd_k == (4 * (sizeof(bd_md) / 8));
// CHECK-LABEL: static void __bd_ncosx_gc(
// CHECK-NOT: __bd_all
// CHECK: __bd_ncosx_gk(
// CHECK-NOT: __bd_all
// CHECK: bd_tape_end(
