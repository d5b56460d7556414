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

#endif
