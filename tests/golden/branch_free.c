/* Per-lane branches with cheap sides that cannot fault become branch-free:
 * both sides are computed for every lane and their writes blended under
 * their masks, with no lane test (bd_any/bd_all). Under the entry mask the
 * condition itself is the then-side's mask (lanes that are off are dead).
 * A branch whose sides are expensive (three expf calls, over the cost
 * limit) keeps its lane tests and skips a side no lane takes. costly_grad
 * (three expf calls, no other effect) calls them without their rare-lane
 * tests (bd_dfr_exp_f32n with __bd_careful 0) and runs a step again through
 * its careful copy __bd_costly_gkc when one reported a lane (docs/runtime.md).
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
// CHECK-LABEL: void __bd_costly_gk(
// CHECK-SAME: int __bd_careful, int *__bd_bad) {
// CHECK-NOT: bd_exp_f32n(
// CHECK: bd_dfr_exp_f32n(__bd_careful, __bd_bad,
// CHECK-LABEL: void __bd_costly_gkc(
// CHECK: __bd_costly_gk({{.*}}, 1, &__bd_bad);
// CHECK-LABEL: static void __bd_costly_gc(
// CHECK: __bd_costly_gk({{.*}}, 0, &__bd_bad);
// CHECK-NEXT: if (__builtin_expect(__bd_bad, 0)) {
// CHECK: __bd_costly_gkc(
