/* Where log1pf(expf(a)) stays the pair (transforms/simplify/FuseMath.h; the
 * fused form is golden log1pexp): an exp that something else reads, and
 * double; a uniform argument takes the scalar form. */
#include <batchdiff.h>
// DEFINES: shared shared_batched
// DEFINES: softplus_d softplus_d_batched scaled scaled_batched
#include <math.h>

BATCHDIFF float shared(float x) {
  float e = expf(x);
  return log1pf(e) + e;
}

BATCHDIFF double softplus_d(double x) { return log1p(exp(x)); }

BATCHDIFF float scaled(float x, BD_UNIFORM float w) {
  return x * log1pf(expf(w));
}

// CHECK-LABEL: void __bd_shared_bk(
// CHECK-NOT: bd_log1pexp_f32n(
// CHECK: bd_exp_f32n(
// CHECK: bd_log1p_f32n(
// CHECK-LABEL: void __bd_softplus_d_bk(
// CHECK-NOT: log1pexp
// CHECK: bd_log1p_f64d(
// CHECK-LABEL: void __bd_scaled_bk(
// CHECK: __bd_log1pexpf(
