/* -fplugin-arg-batchdiff-remarks: how each global is batched. */
// FLAGS: -fplugin-arg-batchdiff-remarks
// EXIT: 0
// DEFINES: f_batched
static const double P[3] = {1.0, 2.0, 3.0};
// CHECK: remarks-globals.c:[[@LINE-1]]:21: remark: batchdiff: f: global 'P' is a table read in place (uniform, not differentiated)
double eps = 1e-9;
// CHECK: remarks-globals.c:[[@LINE-1]]:8: remark: batchdiff: f: global 'eps' is read once per call (uniform, not differentiated)
struct lim { double lo, hi; } LIM = {-1.0, 1.0};
// CHECK: remarks-globals.c:[[@LINE-1]]:31: remark: batchdiff: f: global 'LIM' is a struct read in place (uniform, not differentiated)
static const struct { double x, w; } GL[2] = {{0.5, 1.0}, {-0.5, 1.0}};
// CHECK: remarks-globals.c:[[@LINE-1]]:38: remark: batchdiff: f: global 'GL' is a table of structs read in place (uniform, not differentiated)
int sgn;
// CHECK: remarks-globals.c:[[@LINE-1]]:5: remark: batchdiff: f: global 'sgn' is written by every example before it reads it: one value per example, left after the call as example n - 1 leaves it
int derr;
// CHECK: remarks-globals.c:[[@LINE-1]]:5: remark: batchdiff: f: global 'derr' is written on some paths only: one value per example, left after the call as the last example that writes it leaves it (unchanged when none does)
__attribute__((batch))
double f(double x, int i) {
  // CHECK: remarks-globals.c:[[@LINE-1]]:17: remark: batchdiff: parameter 'x' is varying (one value per example); scalar, no dims
  // CHECK: remarks-globals.c:[[@LINE-2]]:24: remark: batchdiff: parameter 'i' is varying (one value per example); scalar, no dims
  // CHECK: remarks-globals.c:[[@LINE-3]]:8: remark: batchdiff: f_batched: BD_WD lanes of 64 bits; {{[0-9]+}} of {{[0-9]+}} branch(es) and 0 of 0 loop(s) differ per example and run under an execution mask; the rest are uniform
  // CHECK: remarks-globals.c:[[@LINE-4]]:8: remark: batchdiff: f_batched: {{.*}}
  // CHECK: remarks-globals.c:[[@LINE-5]]:8: remark: batchdiff: f_batched: {{.*}}
  sgn = x < 0.0 ? -1 : 1;
  if (x > 1e300)
    derr = 1;
  return x < eps ? x : P[i % 3] * x * sgn + LIM.hi * GL[i & 1].w;
}
