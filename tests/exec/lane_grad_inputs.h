/* Functions of another file (lane_grad_inputs_other.c) marked batch, diff
 * in their header, declared as ERFA declares its functions: no parameter
 * const, whether the function writes it or only reads it. Callers pass
 * them their own array parameters (docs/calls.md). */
#ifndef BATCHDIFF_TESTS_LANE_GRAD_INPUTS_H
#define BATCHDIFF_TESTS_LANE_GRAD_INPUTS_H

#include <batchdiff.h>

/* c = p (eraCp): p only read. */
BATCHDIFF void lgi_cp(double p[3], double c[3]);
/* p . p, a number returned: p only read. */
BATCHDIFF double lgi_nrm(double p[3]);
/* rp = r p (eraRxp): r and p only read. */
BATCHDIFF void lgi_rxp(double r[3][3], double p[3], double rp[3]);
/* v = v * v in place: an element 0 or 1 keeps its bits, not its
 * derivative. */
BATCHDIFF void lgi_sq(double v[2]);
/* The elements of v above 1 set to 1 + (v - 1) / 4; returns how many. */
BATCHDIFF int lgi_clip(double v[3]);

/* Called in place, one array for two parameters (ERFA's eraRxpv(rm, pv,
 * pv), eraLd(1.0, p, p, ...)): each reads an element only before writing
 * it, so its file promises it (docs/calls-in-place.md). */
/* a . b (eraPdp). */
BATCHDIFF double lgi_dot(double a[3], double b[3]);
/* axb = a x b (eraPxp). */
BATCHDIFF void lgi_pxp(double a[3], double b[3], double axb[3]);
/* rpv = r pv, row by row through lgi_rxp (eraRxpv). */
BATCHDIFF void lgi_rxpv(double r[3][3], double pv[2][3], double rpv[2][3]);
/* Light deflection (eraLd): p1 = p + w (p x (e x q)). */
BATCHDIFF void lgi_ld(double bm, double p[3], double q[3], double e[3],
                      double p1[3]);
/* rp[0] = 2 p[0]; rp[1] = p[0]: reads p[0] after writing rp[0], so in place
 * another function (its file promises nothing for p, rp). */
BATCHDIFF void lgi_bad(double p[2], double rp[2]);
/* lgi_bad(p, rp): its promise rests on lgi_bad's, which no file makes. */
BATCHDIFF void lgi_viabad(double p[2], double rp[2]);

#endif
