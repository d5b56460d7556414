/* The callee of test_int_outputs.c (int_outputs.h), as ERFA's eraD2tf
 * (its ndp >= 0 branch). */
#include "int_outputs.h"

#include <math.h>

BATCHDIFF void io_d2tf(int ndp, double days, char *sign, int ihmsf[4]) {
  *sign = (char)(days >= 0.0 ? '+' : '-');
  double a = 86400.0 * fabs(days);
  int nrs = 1;
  for (int n = 1; n <= ndp; n++)
    nrs *= 10;
  double rs = (double)nrs, rm = rs * 60.0, rh = rm * 60.0;
  a = floor(rs * a + 0.5);
  double ah = floor(a / rh);
  a -= ah * rh;
  double am = floor(a / rm);
  a -= am * rm;
  double as = floor(a / rs);
  ihmsf[0] = (int)ah;
  ihmsf[1] = (int)am;
  ihmsf[2] = (int)as;
  ihmsf[3] = (int)(a - as * rs);
}
