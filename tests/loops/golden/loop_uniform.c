/* A loop whose trip count depends only on a uniform parameter: every lane
 * runs the same iterations, so neither the batched loop nor the reverse
 * loop of the gradient carries a lane mask (no bd_any_md, no blends of the
 * loop variables; the condition is a scalar _Bool). */
#include <batchdiff.h>
// DEFINES: geom geom_batched geom_grad

BATCHDIFF double geom(double x, BD_UNIFORM int n) {
  double s = 0.0, p = 1.0;
  for (int i = 0; i < n; i++) {
    s += p;
    p *= x;
  }
  return s;
}

// CHECK-LABEL: geom_batched: shape d
// CHECK-NOT: bd_any_md
// CHECK-NOT: bd_select_
// CHECK: _Bool [[C:__bd_t[0-9]+]] = 0;
// CHECK: do {
// CHECK: [[C]] = {{__bd_t[0-9]+}} < {{__bd_t[0-9]+}};
// CHECK: } while ([[C]]);
// CHECK-LABEL: void geom_batched(
// CHECK-LABEL: geom_grad: shape d
// CHECK-NOT: bd_any_md
// CHECK: } while ({{__bd_t[0-9]+}});
// CHECK-NOT: bd_any_md
// CHECK: for ({{__bd_k[0-9]+}} =
// CHECK-NOT: bd_any_md
// CHECK-LABEL: void geom_grad(
