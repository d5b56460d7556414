/* -fplugin-arg-batchdiff-remarks on struct parameters: one record per
   example (varying) or per batch (BD_UNIFORM), and their scalar members. */
// FLAGS: -fplugin-arg-batchdiff-remarks
// EXIT: 0
// DEFINES: f_batched f_grad
typedef struct { double x, y; int k; } rec;
__attribute__((batch, diff))
double f(rec a, __attribute__((uniform)) rec c) {
  // CHECK: struct-remarks.c:[[@LINE-1]]:14: remark: batchdiff: parameter 'a' is varying (one value per example), differentiated; struct, one record per example, 3 scalar member(s)
  // CHECK: struct-remarks.c:[[@LINE-2]]:46: remark: batchdiff: parameter 'c' is uniform (one value for the whole batch), differentiated; struct, one record per batch, 3 scalar member(s)
  // CHECK: struct-remarks.c:[[@LINE-3]]:8: remark: batchdiff: f_batched: BD_WD lanes of 64 bits; {{.*}}
  // CHECK: struct-remarks.c:[[@LINE-4]]:8: remark: batchdiff: f_batched: 1 independent chain(s) {{.*}}
  // CHECK: struct-remarks.c:[[@LINE-5]]:8: remark: batchdiff: f_grad: BD_WD lanes of 64 bits; {{.*}}
  // CHECK: struct-remarks.c:[[@LINE-6]]:8: remark: batchdiff: f_grad: 2 independent chain(s) {{.*}}
  return a.x * c.y + (double)(a.k + c.k) * a.y;
}
