/* In a diff function, the value of a recursive call of a function the file
   does not mark diff (made once per example on the scalar function)
   carries a derivative: erf and erfc calling each other as cephes writes
   them, plain helpers that other files may call too. (Static helpers like
   these are generated as if marked batch, diff, and a recursive call of a
   function marked diff goes through its NAME_grad:
   tests/exec/test_recursion_grad.c.) */
#include <math.h>
double erfc_(double a);
double erf_(double x) {
  if (fabs(x) > 1.0)
    return 1.0 - erfc_(x);
  return x * (1.1283791670955126 - 0.37612638903183754 * x * x);
}
double erfc_(double a) {
  double x = a < 0.0 ? -a : a;
  if (x < 1.0)
    return 1.0 - erf_(a);
  // CHECK: diff-recursion.c:[[@LINE-1]]:18: error: the recursive call of 'erf_' (recursion through 'erf_' and 'erfc_') is made once per example on the scalar function, so its derivative is unknown to batchdiff; mark 'erf_' batch, diff (a recursive call of a function the file marks diff goes through its NAME_grad), write the recursion as a loop, compute its arguments from BD_NODIFF inputs, or use 'batch' without 'diff'
  return exp(-a * a) / (x * 1.7724538509055159);
}
__attribute__((batch, diff)) double use_erf(double a) { return erf_(a) * a; }
