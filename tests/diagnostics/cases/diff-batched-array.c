/* In a diff function, an array with a derivative passed to a function of
   another file marked batch, diff: its NAME_grad would get no shadow for
   it, so the derivative through the array would be lost. */
// GENERATED: f waits for bn_poly's body until the file ends; the declarations of f_batched/f_grad are injected right after f
#include "diff-batched-array.h"
__attribute__((batch, diff)) double f(double x, BD_UNIFORM const double c[4]) {
  return bn_poly(x, c, 3);
  // CHECK: diff-batched-array.c:[[@LINE-1]]:21: error: passing the array parameter 'c', which has a derivative, to 'bn_poly', a batch function of another file, is not supported in a batch/diff function; batchdiff passes arrays to its NAME_grad without their shadows, so the derivative through the array would be lost; annotate 'c' BD_NODIFF, use 'batch' without 'diff', or define 'bn_poly' in this file (static inline in the header that declares it) so that it is inlined and differentiated
}
/* One array per example, of an extent known only at run time (one of a
   static extent goes to a call per example, through bn_poly_grad with a
   copy of its elements: docs/calls.md). */
__attribute__((batch, diff)) double g(double x, int n, const double v[n]) {
  return bn_poly(x, v, n);
  // CHECK: diff-batched-array.c:[[@LINE-1]]:21: error: passing the array parameter 'v', which has a derivative, to 'bn_poly', a batch function of another file, is not supported in a batch/diff function; batchdiff passes arrays to its NAME_grad without their shadows, so the derivative through the array would be lost; annotate 'v' BD_NODIFF, use 'batch' without 'diff', or define 'bn_poly' in this file (static inline in the header that declares it) so that it is inlined and differentiated
}
/* At an offset: the same error (not the one of a function whose body may
   come later, which the call of bn_poly's was before). */
__attribute__((batch, diff)) double h(double x, int n, const double v[n]) {
  return bn_poly(x, v + 1, n - 1);
  // CHECK: diff-batched-array.c:[[@LINE-1]]:21: error: passing the array parameter 'v', which has a derivative, to 'bn_poly', a batch function of another file, is not supported in a batch/diff function; batchdiff passes arrays to its NAME_grad without their shadows, so the derivative through the array would be lost; annotate 'v' BD_NODIFF, use 'batch' without 'diff', or define 'bn_poly' in this file (static inline in the header that declares it) so that it is inlined and differentiated
}
