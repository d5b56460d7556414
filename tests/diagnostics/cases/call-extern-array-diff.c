/* A BD_UNIFORM array of doubles with a derivative passed whole to a
   function called once per example (here because of its string literal):
   batchdiff cannot differentiate the call, so the derivative through it
   would be lost. */
// GENERATED: the declarations of f_batched/f_grad are injected right after f
#include <batchdiff.h>
double weigh(const char *what, const double *w, double x);
__attribute__((batch, diff)) double f(BD_UNIFORM const double w[4], double x) {
  return x * weigh("w", w, x) + w[0];
  // CHECK: call-extern-array-diff.c:[[@LINE-1]]:25: error: passing the BD_UNIFORM array 'w', which has a derivative, to 'weigh', which is called once per example, is not supported in a batch/diff function; its derivative through the call is unknown to batchdiff: annotate it BD_NODIFF, or use 'batch' without 'diff'
}
