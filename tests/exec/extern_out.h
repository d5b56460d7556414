/* Functions another file defines (extern_out_other.c), taking out-pointers
 * and tables, as R's nmath calls ebd0, bratio and chebyshev_eval: the
 * annotated functions of test_extern_out.c call them once per example. */
#ifndef BATCHDIFF_TESTS_EXTERN_OUT_H
#define BATCHDIFF_TESTS_EXTERN_OUT_H

#include <stdint.h>

/* R's ebd0: writes a head and a tail through two out-pointers. */
void xo_ebd0(double x, double M, double *yh, double *yl);
/* Reads and writes its pointees (an accumulator and a counter). */
int xo_accum(double *acc, double v, int *count);
/* R's bratio: two values and an error flag through out-pointers. */
void xo_bratio(double a, double b, double x, double y, double *w, double *wc,
               int *ierr, int log_p);
/* R's chebyshev_eval and cephes' polevl: a table passed whole. */
double xo_cheb(double x, const double *a, int n);
double xo_polevl(double x, const double coef[], int N);
float xo_chebf(float x, const float *a, int n);
/* 32-bit lanes: float, short and unsigned pointees. */
void xo_splitf(float x, float *hi, short *e, unsigned *u);
/* 64-bit lanes: long, unsigned long and float pointees. */
void xo_wide(double x, long *k, unsigned long *m, float *f);

/* A file-scope table of the test, passed as it is: xo_polevl records
 * whether it got this very address. */
extern const double xo_P[5];

/* Each call is recorded (test_extern_out.c). */
void xo_record(uint64_t tag, uint64_t v);

#endif
