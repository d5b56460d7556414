/* The callees of test_lane_grad_array.c, compiled with their generated
 * functions (lane_grad_array.h). */
#include "lane_grad_array.h"

#include <math.h>

BATCHDIFF void lga_rxp(const double r[3][3], const double p[3], double rp[3]) {
  double w[3];
  for (int i = 0; i < 3; i++)
    w[i] = r[i][0] * p[0] + r[i][1] * p[1] + r[i][2] * p[2];
  for (int i = 0; i < 3; i++)
    rp[i] = w[i];
}

BATCHDIFF void lga_s2c(double theta, double phi, double c[3]) {
  double cp = cos(phi);
  c[0] = cos(theta) * cp;
  c[1] = sin(theta) * cp;
  c[2] = sin(phi);
}

BATCHDIFF void lga_rz(double psi, double r[3][3]) {
  double s = sin(psi), c = cos(psi);
  for (int j = 0; j < 3; j++) {
    double a = c * r[0][j] + s * r[1][j];
    double b = -s * r[0][j] + c * r[1][j];
    r[0][j] = a;
    r[1][j] = b;
  }
}

BATCHDIFF double lga_dot2(const double a[2], const double b[2]) {
  return a[0] * b[0] + a[1] * b[1];
}

BATCHDIFF int lga_scale(double s, double v[3]) {
  if (s < -2.0)
    return 1;
  for (int i = 0; i < 3; i++)
    v[i] = s * v[i] + sin(v[i]);
  return 0;
}

BATCHDIFF void lga_rxp_nc(double r[3][3], double p[3], double rp[3]) {
  lga_rxp(r, p, rp);
}

BATCHDIFF void lga_c2s(const double p[3], double *theta, double *phi) {
  *theta = p[0] * p[1];
  *phi = p[2] / (1.0 + p[0] * p[0]);
}

BATCHDIFF void lga_ppsp(double a[3], double s, double b[3], double apsb[3]) {
  for (int i = 0; i < 3; i++)
    apsb[i] = a[i] + s * b[i];
}
