/* One loop with a per-example trip count and a break.
 *
 * Batched: the loop runs while any lane is active. Each lane's mask is the
 * entry mask ANDed with "condition true and no break yet"; a break sets the
 * lane's break flag under its mask, statements after it in the body run
 * under "not broken", and the loop mask drops the lane at the end of the
 * iteration. Gradient: the forward loop counts iterations (k) and records
 * each lane's trip count; the reverse loop runs k = count-1 .. 0 with lane
 * mask k < trip[lane].
 *
 * The CHECK lines (FileCheck, run by run_golden.sh) state that structure
 * independently of the exact text in loop_break.expected.c. */
#include <batchdiff.h>
// DEFINES: first_over first_over_batched first_over_grad

BATCHDIFF double first_over(double x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s += x;
    if (s > 10.0)
      break;
  }
  return s;
}

// The loop is rotated: `if (0 < n)` guards a do/while whose condition is
// tested at the end of the body, so the reverse sweep needs no record of it
// (this loop stores nothing on a tape). The guard is a varying branch with
// no fast path: its side is only the loop, whose body runs under the loop's
// mask either way, so a copy for "every lane enters" would gain nothing.
// The kernel runs two independent chains of lanes (suffixes _0 and _1),
// each with its own masks; lane tests cover both. The break's if is
// branch-free: its flag is blended under its mask with no lane test.
// The counter i is one scalar for all lanes (analysis/LoopCounters): every
// lane still in the loop has run the same trips; no half-width int vector.
// CHECK-LABEL: first_over_batched: shape d
// CHECK: int32_t [[I:__bd_v[0-9]+_i]] = 0;
// CHECK-NOT: bd_i32d __bd_v{{[0-9]+}}_i
// CHECK: bd_md [[G:__bd_t[0-9]+_0]] = bd_cmplt_i32d(
// CHECK-NEXT: bd_md [[G1:__bd_t[0-9]+_1]] = bd_cmplt_i32d(
// CHECK-NOT: bd_all_md
// CHECK-NEXT: bd_md [[EM:__bd_t[0-9]+_0]] = bd_and_md(__bd_m_0, [[G]]);
// CHECK-NEXT: bd_md [[EM1:__bd_t[0-9]+_1]] = bd_and_md(__bd_m_1, [[G1]]);
// CHECK-NEXT: if ((bd_any_md([[EM]]) || bd_any_md([[EM1]]){{.*}})) {
// CHECK-NEXT: [[LV:__bd_v[0-9]+_lanes_0]] = [[EM]];
// CHECK-NEXT: {{__bd_v[0-9]+_lanes_1}} = [[EM1]];
// CHECK-NEXT: do {
// CHECK-NEXT: bd_md [[LM:__bd_t[0-9]+_0]] = [[LV]];
// CHECK: bd_select_f64d([[LM]],
// CHECK: bd_md [[BM:__bd_t[0-9]+_0]] = bd_and_md([[LM]], {{__bd_t[0-9]+_0}});
// CHECK-NOT: bd_any_md
// CHECK: [[BRK:__bd_v[0-9]+_break_0]] = bd_select_md([[BM]], bd_mtrue_d(), [[BRK]]);
// CHECK: bd_not_md(
// CHECK: [[I]] = __bd_t{{[0-9]+}};
// CHECK: [[LV]] = [[NL:__bd_t[0-9]+_0]];
// CHECK-NEXT: {{__bd_v[0-9]+_lanes_1}} = [[NL1:__bd_t[0-9]+_1]];
// CHECK: } while ((bd_any_md([[NL]]) || bd_any_md([[NL1]]){{.*}}));
// CHECK-NOT: do {
// CHECK-LABEL: first_over_grad: shape d
// CHECK-NOT: bd_all_md
// CHECK-NOT: bd_tape_reserve(
// CHECK: [[TRIP:__bd_v[0-9]+_trip_0]] = bd_select_i32d({{__bd_t[0-9]+_0}}, bd_splat_i32d({{__bd_t[0-9]+}}), [[TRIP]]);
// CHECK: } while ((bd_any_md(
// CHECK: for ([[K:__bd_k[0-9]+]] = {{__bd_t[0-9]+}} - 1; [[K]] >= 0; --[[K]]) {
// CHECK-NEXT: int32_t [[KT:__bd_t[0-9]+]] = [[K]];
// CHECK-NEXT: bd_md [[RAN:__bd_t[0-9]+_0]] = bd_cmpgt_i32d({{__bd_t[0-9]+_0}}, bd_splat_i32d([[KT]]));
// CHECK-NEXT: bd_md [[RAN1:__bd_t[0-9]+_1]] = bd_cmpgt_i32d({{__bd_t[0-9]+_1}}, bd_splat_i32d([[KT]]));
// CHECK-NEXT: bd_md {{__bd_t[0-9]+_0}} = bd_and_md({{__bd_t[0-9]+_0}}, [[RAN]]);
