/* Functions another file defines (extern_array_2d_other.c) that take
 * 2-D arrays and rows of them, as ERFA's eraIr(double r[3][3]),
 * eraRz(double psi, double r[3][3]), eraRxp(double r[3][3], double p[3],
 * double rp[3]), eraCp(double p[3], double c[3]) and
 * eraPvu(double dt, double pv[2][3], double upv[2][3]) do. */
#ifndef BATCHDIFF_TESTS_EXTERN_ARRAY_2D_H
#define BATCHDIFF_TESTS_EXTERN_ARRAY_2D_H

/* r = the identity matrix (writes only). */
void a2_ir(double r[3][3]);
/* Rotates r about the z axis by psi (reads and writes r). */
void a2_rz(double psi, double r[3][3]);
/* rp = r * p, through a copy: rp may be p (ERFA's eraRxp). */
void a2_rxp(double r[3][3], double p[3], double rp[3]);
/* c = p. */
void a2_cp(double p[3], double c[3]);
/* upv[0] = pv[0] + dt * pv[1], upv[1] = pv[1] (upv may be pv). */
void a2_pvu(double dt, double pv[2][3], double upv[2][3]);
/* The trace of r plus r[0][2] (a pointer to const: reads only). */
double a2_trace(const double r[3][3]);
/* v[-1] += x * v[0]; v[0] *= x; v[1] -= x (a pointer into an array: it
 * reads and writes before and after it). */
void a2_mid(float x, float *v);
/* c[i][j] += i - j for i, j < 2; returns c[0][0] + c[1][1]. */
int a2_icount(int c[2][2]);
/* A struct with array members, as ERFA's eraASTROM. */
typedef struct {
  double pmt;
  double eb[3];
  double em;
  double bpn[3][3];
  int n;
} a2_st;
/* Writes every member of *s from x (ERFA's eraApcs filling astrom). */
void a2_fill(double x, a2_st *s);
/* Reads every member of *s. */
double a2_sget(const a2_st *s);
/* *v = 2 * *v + 1. */
void a2_twice(double *v);
/* The number of calls of a2_rz so far. */
long a2_rz_calls(void);

#endif
