/* In a diff function, the value of a function of another file marked batch
   but not diff carries a derivative: there is no NAME_grad to give it. */
// GENERATED: f waits for bn_plain's body until the file ends; the declarations of f_batched/f_grad are injected right after f
#include "diff-batched-nograd.h"
__attribute__((batch, diff)) double f(double x) {
  return bn_plain(x) * x;
  // CHECK: diff-batched-nograd.c:[[@LINE-1]]:10: error: 'bn_plain' is marked batch but not diff where this file declares it, so batchdiff has no derivative for it; mark it batch, diff where it is declared and defined (its file then defines 'bn_plain_grad', which gives the derivative), compute its arguments from BD_NODIFF inputs, or use 'batch' without 'diff'
}
