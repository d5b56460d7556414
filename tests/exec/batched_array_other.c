/* The callees of test_batched_array.c, compiled with the plugin as their
 * own file, written as Cephes writes polevl.c and chbevl.c. */
#include "batched_array.h"

BATCHDIFF double pv_polevl(double x, const double coef[], int N) {
  const double *p = coef;
  double ans = *p++;
  int i = N;
  do
    ans = ans * x + *p++;
  while (--i);
  return ans;
}

BATCHDIFF double pv_p1evl(double x, const double coef[], int N) {
  const double *p = coef;
  double ans = x + *p++;
  int i = N - 1;
  do
    ans = ans * x + *p++;
  while (--i);
  return ans;
}

BATCHDIFF double pv_chbevl(double x, const double array[], int n) {
  const double *p = array;
  double b0 = *p++, b1 = 0.0, b2;
  int i = n - 1;
  do {
    b2 = b1;
    b1 = b0;
    b0 = x * b1 - b2 + *p++;
  } while (--i);
  return 0.5 * (b0 - b2);
}

BATCHDIFF double pv_upoly(double x, BD_UNIFORM const double c[],
                          BD_UNIFORM int N) {
  double s = 0;
  for (int i = 0; i < N; i++)
    s = s * x + c[i];
  return s;
}

BATCHDIFF double pv_halfs(double x, const int k[], int m) {
  double s = 0;
  for (int i = 0; i < m; i++)
    s = s * x + k[i] * 0.5;
  return s;
}
