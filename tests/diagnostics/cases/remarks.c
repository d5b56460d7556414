/* -fplugin-arg-batchdiff-remarks: what inference decided, per parameter. */
// FLAGS: -fplugin-arg-batchdiff-remarks
// EXIT: 0
// DEFINES: f_batched f_grad
__attribute__((batch, diff))
float f(float x, float w __attribute__((uniform)), float c __attribute__((nodiff)), int k) {
  // CHECK: remarks.c:[[@LINE-1]]:15: remark: batchdiff: parameter 'x' is varying (one value per example), differentiated; scalar, no dims
  // CHECK: remarks.c:[[@LINE-2]]:24: remark: batchdiff: parameter 'w' is uniform (one value for the whole batch), differentiated; scalar, no dims
  // CHECK: remarks.c:[[@LINE-3]]:58: remark: batchdiff: parameter 'c' is varying (one value per example), not differentiated; scalar, no dims
  // CHECK: remarks.c:[[@LINE-4]]:89: remark: batchdiff: parameter 'k' is varying (one value per example); scalar, no dims
  // CHECK: remarks.c:[[@LINE-5]]:7: remark: batchdiff: f_batched: BD_WN lanes of 32 bits; 1 of 1 branch(es) and 0 of 0 loop(s) differ per example and run under an execution mask; the rest are uniform
  // CHECK: remarks.c:[[@LINE-6]]:7: remark: batchdiff: f_grad: BD_WN lanes of 32 bits; {{[0-9]+}} of {{[0-9]+}} branch(es) and 0 of 0 loop(s) differ per example and run under an execution mask; the rest are uniform
  if (x > c)
    return x * w + (float)k;
  return c;
}
