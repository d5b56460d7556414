/* In a diff function, a value with a derivative passed to a BD_NODIFF
   parameter of a function of another file marked batch, diff: its
   NAME_grad gives no partial in that parameter. */
// GENERATED: f waits for bn_mix's body until the file ends; the declarations of f_batched/f_grad are injected right after f
#include "diff-batched-nodiff.h"
__attribute__((batch, diff)) double f(double x, double w) {
  return bn_mix(x, w * 2);
  // CHECK: diff-batched-nodiff.c:[[@LINE-1]]:10: error: 'bn_mix' is defined in another file, and the argument of its BD_NODIFF parameter 'w' carries a derivative that 'bn_mix_grad' does not give; compute that argument from BD_NODIFF inputs, drop BD_NODIFF from that parameter where 'bn_mix' is declared and defined, or use 'batch' without 'diff'
}
