/* A function asking for NAME_hvp calls a function of another file marked
   batch, diff with an argument that carries a derivative: its NAME_grad
   gives first derivatives only. */
// GENERATED: f waits for bn_kink's body until the file ends; the declarations of f_batched/f_grad/f_hvp are injected right after f
#include "diff-batched-hvp.h"
__attribute__((batch, diff, diff(hvp))) double f(double x) {
  return bn_kink(x, 1.0) * x;
  // CHECK: diff-batched-hvp.c:[[@LINE-1]]:10: error: NAME_hvp would need the second derivatives of 'bn_kink', which is defined in another file ('bn_kink_grad' gives first derivatives only); define 'bn_kink' in this file (static inline in the header that declares it) so that it is inlined and differentiated twice, or ask for diff or diff(forward) without diff(hvp)
}
