/* Per-lane branches with cheap sides that cannot fault become branch-free:
 * both sides are computed for every lane and their writes blended under
 * their masks, with no lane test (bd_any/bd_all). Under the entry mask the
 * condition itself is the then-side's mask (lanes that are off are dead).
 * A branch whose sides are expensive (three expf calls, over the cost
 * limit) keeps its lane tests and skips a side no lane takes.
 *
 * The CHECK lines (FileCheck, run by run_golden.sh) state that structure
 * independently of the exact text in branch_free.expected.c. */
#include <batchdiff.h>
// DEFINES: ramp ramp_batched ramp_grad costly costly_batched costly_grad
#include <math.h>

BATCHDIFF float ramp(float x, float lo) {
  float y;
  if (x < lo)
    y = lo - x;
  else
    y = x * 0.5f;
  if (y > 1.0f)
    y = 1.0f;
  return y;
}

BATCHDIFF float costly(float x) {
  float y = x;
  if (x > 0.0f)
    y = expf(x) + expf(-x) + expf(0.5f * x);
  return y;
}

// CHECK-LABEL: void __bd_ramp_bk(
// CHECK-NOT: bd_any_mn
// CHECK-NOT: bd_all_mn
// CHECK: bd_mn [[C:__bd_t[0-9]+]] = bd_cmplt_f32n(
// CHECK: = bd_select_f32n([[C]],
// CHECK: bd_mn [[E:__bd_t[0-9]+]] = bd_not_mn([[C]]);
// CHECK: = bd_select_f32n([[E]],
// CHECK-NOT: bd_any_mn
// CHECK: struct __bd_ramp_bx
// CHECK-LABEL: void __bd_ramp_gk(
// CHECK-NOT: bd_any_mn
// CHECK: struct __bd_ramp_gx
// CHECK-LABEL: void __bd_costly_bk(
// CHECK: if (bd_all_mn(
// CHECK: bd_exp_f32n(
// CHECK: bd_any_mn(
