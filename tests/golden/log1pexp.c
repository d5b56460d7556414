/* log1pf(expf(a)) is one call of the runtime's log1pexp
 * (transforms/simplify/FuseMath.h) in every flavour's value: NAME_batched,
 * and NAME_grad's forward sweep, whose rule recomputes expf(a) once for the
 * pair's product (g / (e + 1)) * e. An exp that something else reads, and
 * double, stay the pair; a uniform argument takes the scalar form, the
 * pair. */
#include <batchdiff.h>
// DEFINES: logistic logistic_batched logistic_grad shared shared_batched
// DEFINES: softplus_d softplus_d_batched scaled scaled_batched
#include <math.h>

BATCHDIFF float logistic(float z, float y) {
  float m = z > 0.0f ? z : 0.0f;
  return m + log1pf(expf(-fabsf(z))) - y * z;
}

BATCHDIFF float shared(float x) {
  float e = expf(x);
  return log1pf(e) + e;
}

BATCHDIFF double softplus_d(double x) { return log1p(exp(x)); }

BATCHDIFF float scaled(float x, BD_UNIFORM float w) {
  return x * log1pf(expf(w));
}

// CHECK-LABEL: void __bd_logistic_bk(
// CHECK-NOT: bd_log1p_f32n(
// CHECK: bd_log1pexp_f32n(
// CHECK-LABEL: void __bd_logistic_gk(
// CHECK: bd_log1pexp_f32n(
// CHECK: bd_exp_f32n(
// CHECK-LABEL: void __bd_shared_bk(
// CHECK-NOT: bd_log1pexp_f32n(
// CHECK: bd_exp_f32n(
// CHECK: bd_log1p_f32n(
// CHECK-LABEL: void __bd_softplus_d_bk(
// CHECK-NOT: log1pexp
// CHECK: bd_log1p_f64d(
// CHECK-LABEL: void __bd_scaled_bk(
// CHECK: __bd_log1pexpf(
