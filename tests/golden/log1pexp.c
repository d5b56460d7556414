/* log1pf(expf(a)) is one call of the runtime's log1pexp
 * (transforms/simplify/FuseMath.h) in every flavour's value: NAME_batched,
 * and NAME_grad's forward sweep, whose rule recomputes expf(a) once for the
 * pair's product (g / (e + 1)) * e. Where it stays the pair: golden
 * log1pexp_pair. */
#include <batchdiff.h>
// DEFINES: logistic logistic_batched logistic_grad
#include <math.h>

BATCHDIFF float logistic(float z, float y) {
  float m = z > 0.0f ? z : 0.0f;
  return m + log1pf(expf(-fabsf(z))) - y * z;
}

// CHECK-LABEL: void __bd_logistic_bk(
// CHECK-NOT: bd_log1p_f32n(
// CHECK: bd_log1pexp_f32n(
// CHECK-LABEL: void __bd_logistic_gk(
// CHECK: bd_log1pexp_f32n(
// CHECK: bd_exp_f32n(
