/* In a diff function, a recursive call of a function the file marks diff
   that cannot go through its NAME_grad: 'late' is static and defined after
   'early', whose generated code comes first (late_grad is not declared
   there). 'late' itself compiles: its recursion goes through late_grad. */
// GENERATED: late's own functions are generated first (its recursion goes through late_grad)
static __attribute__((batch, diff)) double late(double x, int k);
__attribute__((batch, diff)) double early(double x, int k) {
  return late(x, k) * 2;
}
static __attribute__((batch, diff)) double late(double x, int k) {
  return k <= 0 ? x : x * late(x - 0.25, k - 1);
  // CHECK: diff-recursion-marked.c:[[@LINE-1]]:27: error: the recursive call of 'late' (recursion through 'late') is made once per example on the scalar function, so its derivative is unknown to batchdiff; a recursive call goes through the NAME_grad of a function marked diff only where its result and an argument are floating-point and, for a static function, where it is defined before the function being generated; define 'late' first, write the recursion as a loop, or use 'batch' without 'diff'
}
