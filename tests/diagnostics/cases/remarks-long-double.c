/* -fplugin-arg-batchdiff-remarks: a function computing in long double runs
   per example as the scalar function: on the runtime's threads when that
   run has no effect beyond its result, else on the calling thread only
   (here it counts its calls in a global). */
// FLAGS: -fplugin-arg-batchdiff-remarks
// EXIT: 0
// DEFINES: pure_batched counted_batched
static int ncalls;
__attribute__((batch))
double pure(double x) {
  // CHECK: remarks-long-double.c:[[@LINE-1]]:8: remark: batchdiff: 'pure' declares a long double local, which has no vector form: its batched version calls 'pure' once per example, on the runtime's threads (its scalar run has no effect beyond its result)
  // CHECK: remarks-long-double.c:[[@LINE-2]]:20: remark: batchdiff: parameter 'x' is varying (one value per example); scalar, no dims
  // CHECK: remarks-long-double.c:[[@LINE-3]]:8: remark: batchdiff: pure_batched: {{.*}}
  // CHECK: remarks-long-double.c:[[@LINE-4]]:8: remark: batchdiff: pure_batched: {{.*}}
  long double s = x;
  return (double)(s * s);
}
__attribute__((batch))
double counted(double x) {
  // CHECK: remarks-long-double.c:[[@LINE-1]]:8: remark: batchdiff: 'counted' declares a long double local, which has no vector form: its batched version calls 'counted' once per example, on the calling thread only (its scalar run may write a global or static, or call a function of another file or one with effects)
  // CHECK: remarks-long-double.c:[[@LINE-2]]:23: remark: batchdiff: parameter 'x' is varying (one value per example); scalar, no dims
  // CHECK: remarks-long-double.c:[[@LINE-3]]:8: remark: batchdiff: counted_batched: {{.*}}
  // CHECK: remarks-long-double.c:[[@LINE-4]]:8: remark: batchdiff: counted_batched: {{.*}}
  long double s = x;
  ncalls++;
  return (double)(s / 3);
}
