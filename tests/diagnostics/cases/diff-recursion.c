/* In a diff function, the value of a recursive call (made once per example
   on the scalar function) carries a derivative: erf and erfc calling each
   other as cephes writes them. */
#include <math.h>
double erfc_(double a);
static double erf_(double x) {
  if (fabs(x) > 1.0)
    return 1.0 - erfc_(x);
  // CHECK: diff-recursion.c:[[@LINE-1]]:18: error: the recursive call of 'erfc_' (recursion through 'erfc_' and 'erf_') is made once per example on the scalar function, so its derivative is unknown to batchdiff; write the recursion as a loop, compute its arguments from BD_NODIFF inputs, or use 'batch' without 'diff'
  return x * (1.1283791670955126 - 0.37612638903183754 * x * x);
}
__attribute__((batch, diff)) double erfc_(double a) {
  double x = a < 0.0 ? -a : a;
  if (x < 1.0)
    return 1.0 - erf_(a);
  return exp(-a * a) / (x * 1.7724538509055159);
}
