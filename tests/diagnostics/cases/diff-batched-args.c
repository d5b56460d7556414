/* In a diff function, the value of a function of another file marked batch,
   diff whose call cannot go through its NAME_grad (an array the caller may
   write passed to a pointer to non-const; an argument that is neither a
   table nor an array parameter) carries a derivative: the error says why, not to mark it. */
// GENERATED: f waits for bn_coef's body until the file ends; the declarations of f_batched/f_grad are injected right after f
#include "diff-batched-args.h"
static const double P[3] = {1.0, 2.0, 3.0};
static double Q[3] = {1.0, 2.0, 3.0};
__attribute__((batch, diff)) double f(double x, BD_NODIFF double c[3]) {
  return bn_coef(x, c, 3) + bn_coef(x, Q, 3);
  // CHECK: diff-batched-args.c:[[@LINE-1]]:10: error: 'bn_coef' is marked batch, diff where this file declares it, but its parameter 'coef' is a pointer to non-const 'double' and the argument 'c' is an array this function may write (a batch function of another file is passed only arrays it cannot write), so this call is made once per example on the scalar function and its derivative is unknown to batchdiff; declare 'c' const in this function, or 'coef' 'const double *' where 'bn_coef' is declared and defined, if it does not write the array, define 'bn_coef' in this file (static inline in the header that declares it) so that it is inlined and differentiated, compute its arguments from BD_NODIFF inputs, or use 'batch' without 'diff'
}
/* Marked batch only: both to do. (A table, Q above, goes through
   NAME_grad: the callee's ABI symbol checks that it does not write it.) */
__attribute__((batch, diff)) double g(double x, BD_NODIFF double c[3]) {
  return bn_plaincoef(x, c, 3);
  // CHECK: diff-batched-args.c:[[@LINE-1]]:10: error: 'bn_plaincoef' is marked batch where this file declares it, but its parameter 'coef' is a pointer to non-const 'double' and the argument 'c' is an array this function may write (a batch function of another file is passed only arrays it cannot write), so this call is made once per example on the scalar function and its derivative is unknown to batchdiff; declare 'c' const in this function, or 'coef' 'const double *' and mark 'bn_plaincoef' batch, diff where 'bn_plaincoef' is declared and defined, if it does not write the array, define 'bn_plaincoef' in this file (static inline in the header that declares it) so that it is inlined and differentiated, compute its arguments from BD_NODIFF inputs, or use 'batch' without 'diff'
}
/* The address of a scalar local, to a pointer to const, of a callee with
   a BD_NODIFF parameter (not called through its NAME_grad). */
__attribute__((batch, diff)) double h(double x) {
  double y = x * P[1];
  return bn_read(1.0, &y);
  // CHECK: diff-batched-args.c:[[@LINE-1]]:10: error: 'bn_read' is marked batch, diff where this file declares it, but the argument '&y' of its parameter 'c' is neither a table nor an array parameter of this function, so this call is made once per example on the scalar function and its derivative is unknown to batchdiff; pass a table or an array parameter of this function there, define 'bn_read' in this file (static inline in the header that declares it) so that it is inlined and differentiated, compute its arguments from BD_NODIFF inputs, or use 'batch' without 'diff'
}
