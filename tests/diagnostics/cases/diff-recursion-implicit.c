/* A static recursive helper of a diff function is generated as if marked
   batch, diff (its recursive call goes through its NAME_grad): where that
   generation fails, a note at the recursive call says why the helper,
   which carries no mark, was generated. Here its bit cast through a union
   has no derivative. */
static double scaled(double x, int k) {
  union {
    double d;
    unsigned long long u;
  } b;
  b.d = x;
  b.u += 1;
  return k <= 0 ? b.d : x * scaled(x * 0.5, k - 1);
  // CHECK: diff-recursion-implicit.c:[[@LINE-1]]:19: error: a float made from the bits of a value that carries a derivative (a bit cast back from integers) is not supported in a diff function; its derivative cannot be followed through integer bits: compute it from BD_NODIFF inputs, use the <math.h> function (frexp, ldexp, copysign, fabs, ...), or use 'batch' without 'diff'
  // CHECK: diff-recursion-implicit.c:[[@LINE-2]]:29: note: batchdiff generates 'scaled' as if marked batch, diff because 'use', marked diff, calls it recursively here
}
__attribute__((batch, diff)) double use(double x, int k) {
  return scaled(x, k) + x;
}
