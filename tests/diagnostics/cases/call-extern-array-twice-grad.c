/* One local array passed twice to a function of another file marked
   batch, diff in its header, once where the callee may write it, in a diff
   function, through parameters of different types: the derivative comes
   from the callee's NAME_grad, whose outputs may not overlap its inputs
   except in place, the same expression to parameters of one type, which
   the callee's file promises (ERFA's eraRxpv(rm, pv, pv); twice where both
   are read, it is taken). */
// GENERATED: f waits for mix's body until the file ends; the declarations of f_batched/f_grad are injected right after f
__attribute__((batch, diff)) void mix(const double a[3], double b[2]);
__attribute__((batch, diff)) double f(double x) {
  double q[3];
  q[0] = x;
  q[1] = 1.0;
  q[2] = -x;
  mix(q, q);
  // CHECK: call-extern-array-twice-grad.c:[[@LINE-1]]:10: error: passing the array 'q' to 'mix' twice, once as a pointer to non-const, where its derivative comes from 'mix_grad', is not supported in a batch/diff function; the outputs of 'mix_grad' may not overlap its inputs but where the same expression goes to parameters of one type (in place, docs/calls-in-place.md): copy the array into another local array for one of the arguments
  return q[0] + q[1];
}
