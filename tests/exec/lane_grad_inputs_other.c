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

BATCHDIFF double lgi_dot(double a[3], double b[3]) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

BATCHDIFF void lgi_pxp(double a[3], double b[3], double axb[3]) {
  double xa = a[0], ya = a[1], za = a[2], xb = b[0], yb = b[1], zb = b[2];
  axb[0] = ya * zb - za * yb;
  axb[1] = za * xb - xa * zb;
  axb[2] = xa * yb - ya * xb;
}

BATCHDIFF void lgi_rxpv(double r[3][3], double pv[2][3], double rpv[2][3]) {
  lgi_rxp(r, pv[0], rpv[0]);
  lgi_rxp(r, pv[1], rpv[1]);
}

BATCHDIFF void lgi_ld(double bm, double p[3], double q[3], double e[3],
                      double p1[3]) {
  double qpe[3], w, eq[3], peq[3];
  for (int i = 0; i < 3; i++)
    qpe[i] = q[i] + e[i];
  w = bm / (1.0 + lgi_dot(q, qpe) * lgi_dot(q, qpe));
  lgi_pxp(e, q, eq);
  lgi_pxp(p, eq, peq);
  for (int i = 0; i < 3; i++)
    p1[i] = p[i] + w * peq[i];
}

BATCHDIFF void lgi_bad(double p[2], double rp[2]) {
  rp[0] = 2.0 * p[0];
  rp[1] = p[0];
}

BATCHDIFF void lgi_viabad(double p[2], double rp[2]) { lgi_bad(p, rp); }
