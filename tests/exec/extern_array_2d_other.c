/* The callees of test_extern_array_2d.c, compiled without annotations
 * (extern_array_2d.h), written as ERFA writes its vector and matrix
 * functions. */
#include "extern_array_2d.h"

#include <math.h>

static long rz_calls;

void a2_ir(double r[3][3]) {
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      r[i][j] = i == j ? 1.0 : 0.0;
}

void a2_rz(double psi, double r[3][3]) {
  double s = sin(psi), c = cos(psi);
  rz_calls++;
  for (int j = 0; j < 3; j++) {
    double a0 = c * r[0][j] + s * r[1][j];
    double a1 = -s * r[0][j] + c * r[1][j];
    r[0][j] = a0;
    r[1][j] = a1;
  }
}

void a2_rxp(double r[3][3], double p[3], double rp[3]) {
  double wrp[3];
  for (int j = 0; j < 3; j++) {
    double w = 0.0;
    for (int i = 0; i < 3; i++)
      w += r[j][i] * p[i];
    wrp[j] = w;
  }
  a2_cp(wrp, rp);
}

void a2_cp(double p[3], double c[3]) {
  c[0] = p[0];
  c[1] = p[1];
  c[2] = p[2];
}

void a2_pvu(double dt, double pv[2][3], double upv[2][3]) {
  for (int i = 0; i < 3; i++)
    upv[0][i] = pv[0][i] + dt * pv[1][i];
  a2_cp(pv[1], upv[1]);
}

double a2_trace(const double r[3][3]) {
  return r[0][0] + r[1][1] + r[2][2] + r[0][2];
}

void a2_mid(float x, float *v) {
  v[-1] += x * v[0];
  v[0] *= x;
  v[1] -= x;
}

int a2_icount(int c[2][2]) {
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      c[i][j] += i - j;
  return c[0][0] + c[1][1];
}

long a2_rz_calls(void) { return rz_calls; }

void a2_fill(double x, a2_st *s) {
  s->pmt = x;
  s->em = 0.5 * x - 1.0;
  for (int i = 0; i < 3; i++) {
    s->eb[i] += x * (i + 1);
    for (int j = 0; j < 3; j++)
      s->bpn[i][j] = i == j ? cos(x) : 0.25 * (i - j) * x;
  }
  s->n = (int)(x * 4.0) % 5;
}

double a2_sget(const a2_st *s) {
  double t = s->pmt + 3.0 * s->em + s->n;
  for (int i = 0; i < 3; i++)
    t += (i + 2) * s->eb[i] + s->bpn[i][0] - s->bpn[0][i] * s->bpn[i][2];
  return t;
}

void a2_twice(double *v) { *v = 2.0 * *v + 1.0; }
