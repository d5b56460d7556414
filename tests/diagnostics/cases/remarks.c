/* -fplugin-arg-batchdiff-remarks: what inference decided, per parameter. */
// FLAGS: -fplugin-arg-batchdiff-remarks
// EXIT: 0
// DEFINES: f_batched f_grad halve_batched
__attribute__((batch, diff))
float f(float x, float w __attribute__((uniform)), float c __attribute__((nodiff)), int k) {
  // CHECK: remarks.c:[[@LINE-1]]:15: remark: batchdiff: parameter 'x' is varying (one value per example), differentiated; scalar, no dims
  // CHECK: remarks.c:[[@LINE-2]]:24: remark: batchdiff: parameter 'w' is uniform (one value for the whole batch), differentiated; scalar, no dims
  // CHECK: remarks.c:[[@LINE-3]]:58: remark: batchdiff: parameter 'c' is varying (one value per example), not differentiated; scalar, no dims
  // CHECK: remarks.c:[[@LINE-4]]:89: remark: batchdiff: parameter 'k' is varying (one value per example); scalar, no dims
  // CHECK: remarks.c:[[@LINE-5]]:7: remark: batchdiff: f_batched: BD_WN lanes of 32 bits; 1 of 1 branch(es) and 0 of 0 loop(s) differ per example and run under an execution mask; the rest are uniform
  // CHECK: remarks.c:[[@LINE-6]]:7: remark: batchdiff: f_batched: 1 of 1 per-lane branch(es) branch-free (both sides computed for every lane and blended: no loop, array parameter access, integer division or tape operation, and at most 48 cost units); the others skip a side no lane takes
  // CHECK: remarks.c:[[@LINE-7]]:7: remark: batchdiff: f_batched: 1 independent chain(s) of lanes per step (no loop: consecutive vectors already overlap)
  // CHECK: remarks.c:[[@LINE-8]]:7: remark: batchdiff: f_grad: BD_WN lanes of 32 bits; {{[0-9]+}} of {{[0-9]+}} branch(es) and 0 of 0 loop(s) differ per example and run under an execution mask; the rest are uniform
  // CHECK: remarks.c:[[@LINE-9]]:7: remark: batchdiff: f_grad: {{[0-9]+}} of {{[0-9]+}} per-lane branch(es) branch-free {{.*}}
  // CHECK: remarks.c:[[@LINE-10]]:7: remark: batchdiff: f_grad: 2 independent chain(s) of lanes per step (no loop, a gradient: its reverse sweep waits ({{.*}}
  if (x > c)
    return x * w + (float)k;
  return c;
}

/* A loop kernel: two independent chains of lanes per step. */
__attribute__((batch))
double halve(double a) {
  // CHECK: remarks.c:[[@LINE-1]]:21: remark: batchdiff: parameter 'a' is varying (one value per example); scalar, no dims
  // CHECK: remarks.c:[[@LINE-2]]:8: remark: batchdiff: halve_batched: BD_WD lanes of 64 bits; 1 of 1 branch(es) and 1 of 1 loop(s) differ per example and run under an execution mask; the rest are uniform
  // CHECK: remarks.c:[[@LINE-3]]:8: remark: batchdiff: halve_batched: 0 of 1 per-lane branch(es) branch-free {{.*}}
  // CHECK: remarks.c:[[@LINE-4]]:8: remark: batchdiff: halve_batched: 2 independent chain(s) of lanes per step (loop kernel of {{[0-9]+}} statements, {{[0-9]+}} varying variables)
  double x = a;
  for (int i = 0; i < 10 && x > 1.0; i++)
    x = 0.5 * x;
  return x;
}
