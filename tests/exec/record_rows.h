/* Functions of another file (record_rows_other.c) marked batch, diff in
 * their header, taking rows of numbers as ERFA's do (no const), and the
 * record eraLdn walks (eraLDBODY: a mass, a distance, a pv-vector). */
#ifndef BATCHDIFF_TESTS_RECORD_ROWS_H
#define BATCHDIFF_TESTS_RECORD_ROWS_H

#include <batchdiff.h>

typedef struct {
  double bm, dl;
  double pv[2][3];
} rr_body;

/* amb = a - b (eraPmp). */
BATCHDIFF void rr_pmp(double a[3], double b[3], double amb[3]);
/* a = a * a / 2, in place. */
BATCHDIFF void rr_half(double a[3]);

/* The record eraApcs fills (eraASTROM's em and eh). */
typedef struct {
  double em;
  double eh[3];
} rr_astrom;

/* *r = |p|, u = p / *r (eraPn). */
BATCHDIFF void rr_pn(double p[3], double *r, double u[3]);

#endif
