/* A recursive call whose value carries a derivative goes through the
   callee's NAME_grad only where the function being generated is marked
   diff: not in a function marked diff(forward) alone ('fwd', whose static
   helper 'p' is then not generated either), and NAME_hvp cannot
   differentiate it twice ('hv', marked diff and diff(hvp): its helper 'q'
   is generated as if marked batch, diff, for hv_batched and hv_grad). */
// GENERATED: q_batched and q_grad are generated before hv, whose NAME_hvp fails
static double p(double x, int n) { return n == 0 ? 1.0 : x * p(x, n - 1); }
// CHECK: diff-recursion-forward.c:[[@LINE-1]]:62: error: the recursive call of 'p' (recursion through 'p') is made once per example on the scalar function, so its derivative is unknown to batchdiff; a recursive call goes through the callee's NAME_grad in the NAME_batched, NAME_grad and NAME_jvp of a function marked diff, but NAME_hvp cannot differentiate it twice and a function marked diff(forward) alone does not call NAME_grad; mark a diff(forward) function diff too, write the recursion as a loop, compute its arguments from BD_NODIFF inputs, or use 'batch' without 'diff'
static double q(double x, int n) { return n == 0 ? x : q(x * x, n - 1); }
// CHECK: diff-recursion-forward.c:[[@LINE-1]]:56: error: the recursive call of 'q' (recursion through 'q') is made once per example on the scalar function, so its derivative is unknown to batchdiff; a recursive call goes through the callee's NAME_grad in the NAME_batched, NAME_grad and NAME_jvp of a function marked diff, but NAME_hvp cannot differentiate it twice and a function marked diff(forward) alone does not call NAME_grad; mark a diff(forward) function diff too, write the recursion as a loop, compute its arguments from BD_NODIFF inputs, or use 'batch' without 'diff'
__attribute__((batch, diff(forward))) double fwd(double x, int k) {
  return p(x, k) * x;
}
__attribute__((batch, diff, diff(hvp))) double hv(double x, int k) {
  return q(x, k) + x;
}
