/* -fplugin-arg-batchdiff-remarks: loop-free kernels with 8 costly math
 * calls, or 2 in a row on one dependency path, get four independent chains
 * of lanes per step; 2 side by side get one. Loop kernels: four when the
 * loop divides or calls costly math (a Newton iteration), without array
 * parameters; two with an array parameter, or with more costly math outside
 * the loop than in it (remarks.c: a loop without either, two). */
// FLAGS: -fplugin-arg-batchdiff-remarks
// EXIT: 0
// DEFINES: chain8_batched softplus_batched twologs_batched newton_batched sumto_batched mathout_batched
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

__attribute__((batch))
double newton(double a) {
  // CHECK: remarks-chains.c:[[@LINE-1]]:22: remark: batchdiff: parameter 'a' is varying (one value per example); scalar, no dims
  // CHECK: remarks-chains.c:[[@LINE-2]]:8: remark: batchdiff: newton_batched: BD_WD lanes of 64 bits; 1 of 3 branch(es) and 1 of 1 loop(s) differ per example and run under an execution mask; the rest are uniform
  // CHECK: remarks-chains.c:[[@LINE-3]]:8: remark: batchdiff: newton_batched: 0 of 1 per-lane branch(es) branch-free {{.*}}
  // CHECK: remarks-chains.c:[[@LINE-4]]:8: remark: batchdiff: newton_batched: 4 independent chain(s) of lanes per step (loop kernel of {{[0-9]+}} statements, {{[0-9]+}} varying variables, no array parameter, its loops divide or call costly math)
  double x = a;
  for (int i = 0; i < 50 && fabs(x * x - a) > 1e-12 * a; i++)
    x = 0.5 * (x + a / x);
  return x;
}

/* Loop kernels that keep 2 chains. */
__attribute__((batch))
double sumto(const double *v, int n) {
  // CHECK: remarks-chains.c:[[@LINE-1]]:28: remark: batchdiff: parameter 'v' is varying (one value per example); input array, dims dynamic, from parameter 'n' (loop bound); ragged: each example's extent differs, accesses are masked per lane
  // CHECK: remarks-chains.c:[[@LINE-2]]:35: remark: batchdiff: parameter 'n' is varying (one value per example); scalar, no dims
  // CHECK: remarks-chains.c:[[@LINE-3]]:8: remark: batchdiff: sumto_batched: BD_WD lanes of 64 bits; 1 of 1 branch(es) and 1 of 1 loop(s) differ per example and run under an execution mask; the rest are uniform
  // CHECK: remarks-chains.c:[[@LINE-4]]:8: remark: batchdiff: sumto_batched: 0 of 1 per-lane branch(es) branch-free {{.*}}
  // CHECK: remarks-chains.c:[[@LINE-5]]:8: remark: batchdiff: sumto_batched: 2 independent chain(s) of lanes per step (loop kernel of {{[0-9]+}} statements, {{[0-9]+}} varying variables)
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s = s * 0.5 + v[i];
  return s;
}

__attribute__((batch))
double mathout(double x, int k) {
  // CHECK: remarks-chains.c:[[@LINE-1]]:23: remark: batchdiff: parameter 'x' is varying (one value per example); scalar, no dims
  // CHECK: remarks-chains.c:[[@LINE-2]]:30: remark: batchdiff: parameter 'k' is varying (one value per example); scalar, no dims
  // CHECK: remarks-chains.c:[[@LINE-3]]:8: remark: batchdiff: mathout_batched: BD_WD lanes of 64 bits; 1 of 1 branch(es) and 1 of 1 loop(s) differ per example and run under an execution mask; the rest are uniform
  // CHECK: remarks-chains.c:[[@LINE-4]]:8: remark: batchdiff: mathout_batched: 0 of 1 per-lane branch(es) branch-free {{.*}}
  // CHECK: remarks-chains.c:[[@LINE-5]]:8: remark: batchdiff: mathout_batched: 2 independent chain(s) of lanes per step (loop kernel of {{[0-9]+}} statements, {{[0-9]+}} varying variables)
  double t = exp(x);
  for (int j = 0; j < k; j++)
    t = t * 0.5 + 1.0;
  return log(t);
}
