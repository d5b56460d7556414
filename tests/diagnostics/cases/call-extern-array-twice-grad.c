/* One local array passed twice to a function of another file marked
   batch, diff in its header, once where the callee may write it, in a diff
   function (ERFA's eraRxp(r, q, q)): the derivative comes from the
   callee's NAME_grad, whose outputs may not overlap its inputs (passed
   twice where both are read, it is taken). */
// GENERATED: f waits for rxp's body until the file ends; the declarations of f_batched/f_grad are injected right after f
__attribute__((batch, diff)) void rxp(const double r[3][3], const double p[3],
                                      double rp[3]);
__attribute__((batch, diff)) double f(double x) {
  double r[3][3], q[3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      r[i][j] = x * (i + 1) - j;
  q[0] = x;
  q[1] = 1.0;
  q[2] = -x;
  rxp(r, q, q);
  // CHECK: call-extern-array-twice-grad.c:[[@LINE-1]]:13: error: passing the array 'q' to 'rxp' twice, once as a pointer to non-const, where its derivative comes from 'rxp_grad', is not supported in a batch/diff function; the outputs of 'rxp_grad' may not overlap its inputs: copy the array into another local array for one of the arguments
  return q[0] + q[2];
}
