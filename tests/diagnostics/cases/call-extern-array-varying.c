/* An array parameter (one array per example) passed whole to a function
   called once per example (here strcmp, because of its string literal):
   a BD_UNIFORM one is passed as it is (ERFA's eraD2dtf: strcmp(scale,
   "UTC")); each example's own array is not. */
// GENERATED: the declarations of f_batched/f_grad are injected right after f
#include <string.h>
__attribute__((batch)) double f(const char *scale, double x) {
  if (!strcmp(scale, "UTC"))
  // CHECK: call-extern-array-varying.c:[[@LINE-1]]:15: error: passing 'scale', an array parameter with an array per example, to 'strcmp', which is called once per example, is not supported in a batch/diff function; annotate it BD_UNIFORM (one read-only array for the whole batch, which the call gets as it is), or pass the call numbers
    return x + 1.0;
  return x;
}
