/* Functions this header declares and test_later_out.c defines after the
 * annotated functions that call them with out-pointers, as ERFA's erfa.h
 * declares eraPr00 and eraEe00a calls eraPr00(date1, date2, &dpsipr,
 * &depspr) before pr00.c defines it (all ERFA's sources in one translation
 * unit). */
#ifndef BATCHDIFF_TESTS_LATER_OUT_H
#define BATCHDIFF_TESTS_LATER_OUT_H

/* eraPr00's shape: two corrections through out-pointers. */
void lo_pr(double t, double *dpsi, double *deps);
/* A status, a value through an out-pointer, a table passed whole. */
int lo_poly(const double *w, double x, double *y);

#endif
