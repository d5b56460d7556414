/* Functions of test_extern_retry.c: xr_scale and xr_sign are defined in
 * another file (extern_retry_other.c), xr_note after the annotated
 * functions in the same file. */
#ifndef BATCHDIFF_TESTS_EXTERN_RETRY_H
#define BATCHDIFF_TESTS_EXTERN_RETRY_H

/* x scaled; writes a flag through f unless it is NULL. */
double xr_scale(double x, int *f);
/* A sign through an out-pointer, and a code. */
int xr_sign(int k, int *s);
/* Records its call (a global tally): void, values only. */
void xr_note(int site, int k);

#endif
