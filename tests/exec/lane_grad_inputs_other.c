/* The callees of test_lane_grad_inputs.c, compiled with their generated
 * functions (lane_grad_inputs.h). */
#include "lane_grad_inputs.h"

BATCHDIFF void lgi_cp(double p[3], double c[3]) {
  for (int i = 0; i < 3; i++)
    c[i] = p[i];
}

BATCHDIFF double lgi_nrm(double p[3]) {
  return p[0] * p[0] + p[1] * p[1] + p[2] * p[2];
}

BATCHDIFF void lgi_rxp(double r[3][3], double p[3], double rp[3]) {
  double w[3];
  for (int i = 0; i < 3; i++)
    w[i] = r[i][0] * p[0] + r[i][1] * p[1] + r[i][2] * p[2];
  lgi_cp(w, rp);
}

BATCHDIFF void lgi_sq(double v[2]) {
  v[0] = v[0] * v[0];
  v[1] = v[1] * v[1];
}

BATCHDIFF int lgi_clip(double v[3]) {
  int k = 0;
  for (int i = 0; i < 3; i++)
    if (v[i] > 1.0) {
      v[i] = 1.0 + (v[i] - 1.0) * 0.25;
      k++;
    }
  return k;
}
