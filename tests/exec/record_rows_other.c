/* The callees of test_record_rows.c (record_rows.h). */
#include "record_rows.h"

#include <math.h>

BATCHDIFF void rr_pmp(double a[3], double b[3], double amb[3]) {
  for (int i = 0; i < 3; i++)
    amb[i] = a[i] - b[i];
}

BATCHDIFF void rr_half(double a[3]) {
  for (int i = 0; i < 3; i++)
    a[i] = a[i] * a[i] * 0.5;
}

BATCHDIFF void rr_pn(double p[3], double *r, double u[3]) {
  double w = sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
  *r = w;
  for (int i = 0; i < 3; i++)
    u[i] = p[i] / w;
}
