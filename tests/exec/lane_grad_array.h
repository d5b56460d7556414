/* Functions of another file (lane_grad_array_other.c) marked batch, diff
 * in their header that read and write arrays, as ERFA's do: `void
 * eraRxp(double r[3][3], double p[3], double rp[3])`, `void eraS2c(double
 * theta, double phi, double c[3])`, `void eraRz(double psi, double
 * r[3][3])`. Callers pass local arrays (1-D, 2-D, rows, offsets) and get
 * the derivatives from their NAME_grad (docs/calls.md). */
#ifndef BATCHDIFF_TESTS_LANE_GRAD_ARRAY_H
#define BATCHDIFF_TESTS_LANE_GRAD_ARRAY_H

#include <batchdiff.h>

/* rp = r p (through a copy: rp may be p, as in ERFA). */
BATCHDIFF void lga_rxp(const double r[3][3], const double p[3], double rp[3]);
/* c = (cos phi cos theta, cos phi sin theta, sin phi): only written. */
BATCHDIFF void lga_s2c(double theta, double phi, double c[3]);
/* r rotated about z by psi, in place: read and written. */
BATCHDIFF void lga_rz(double psi, double r[3][3]);
/* a . b (of two elements), a number returned. */
BATCHDIFF double lga_dot2(const double a[2], const double b[2]);
/* v = s v + sin(v) elementwise, in place; returns status 1 (v untouched)
 * where s < -2. */
BATCHDIFF int lga_scale(double s, double v[3]);
/* *theta = p[0] p[1], *phi = p[2] / (1 + p[0]^2): pointers to one
 * scalar (eraC2s). */
BATCHDIFF void lga_c2s(const double p[3], double *theta, double *phi);
/* apsb = a + s b (eraPpsp as ERFA declares it: no const). */
BATCHDIFF void lga_ppsp(double a[3], double s, double b[3], double apsb[3]);
/* eraRxp as ERFA declares it: no const, r and p only read. */
BATCHDIFF void lga_rxp_nc(double r[3][3], double p[3], double rp[3]);

#endif
