/* -fplugin-arg-batchdiff-remarks: loop-free kernels with 8 costly math
 * calls, or 2 in a row on one dependency path, get four independent chains
 * of lanes per step; 2 side by side get one. */
// FLAGS: -fplugin-arg-batchdiff-remarks
// EXIT: 0
// DEFINES: chain8_batched softplus_batched twologs_batched
#include <math.h>
__attribute__((batch))
double chain8(double x) {
  // CHECK: remarks-chains.c:[[@LINE-1]]:22: remark: batchdiff: parameter 'x' is varying (one value per example); scalar, no dims
  // CHECK: remarks-chains.c:[[@LINE-2]]:8: remark: batchdiff: chain8_batched: BD_WD lanes of 64 bits; 0 of 0 branch(es) and 0 of 0 loop(s) differ per example and run under an execution mask; the rest are uniform
  // CHECK: remarks-chains.c:[[@LINE-3]]:8: remark: batchdiff: chain8_batched: 4 independent chain(s) of lanes per step (no loop, but a dependency chain through 8 costly math calls ({{[0-9]+}} statements, {{[0-9]+}} varying variables))
  double a = exp(x), b = log(a + 2.0), c = exp(b * 0.5), d = log(c + x * x);
  double e = exp(-d), f = log1p(e), g = expm1(f * 0.25), h = log(g + 3.0);
  return h;
}

__attribute__((batch))
double softplus(double x) {
  // CHECK: remarks-chains.c:[[@LINE-1]]:24: remark: batchdiff: parameter 'x' is varying (one value per example); scalar, no dims
  // CHECK: remarks-chains.c:[[@LINE-2]]:8: remark: batchdiff: softplus_batched: BD_WD lanes of 64 bits; 0 of 0 branch(es) and 0 of 0 loop(s) differ per example and run under an execution mask; the rest are uniform
  // CHECK: remarks-chains.c:[[@LINE-3]]:8: remark: batchdiff: softplus_batched: 4 independent chain(s) of lanes per step (no loop, but 2 costly math calls in a row on one dependency path ({{[0-9]+}} statements, {{[0-9]+}} varying variables))
  double e = exp(x);
  return log1p(e);
}

__attribute__((batch))
double twologs(double x) {
  // CHECK: remarks-chains.c:[[@LINE-1]]:23: remark: batchdiff: parameter 'x' is varying (one value per example); scalar, no dims
  // CHECK: remarks-chains.c:[[@LINE-2]]:8: remark: batchdiff: twologs_batched: BD_WD lanes of 64 bits; 0 of 0 branch(es) and 0 of 0 loop(s) differ per example and run under an execution mask; the rest are uniform
  // CHECK: remarks-chains.c:[[@LINE-3]]:8: remark: batchdiff: twologs_batched: 1 independent chain(s) of lanes per step (no loop: consecutive vectors already overlap)
  return log(x) * log(x + 1.0);
}
