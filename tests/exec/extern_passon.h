/* Functions another file defines (extern_passon_other.c), called once per
 * example by test_extern_passon.c's annotated functions with pointers they
 * pass on: a pointer parameter of the annotated function (R's choose.c,
 * `lgammafn_sign(x, s_choose)`), a helper's pointer to a scalar local, an
 * array per example read whole. */
#ifndef BATCHDIFF_TESTS_EXTERN_PASSON_H
#define BATCHDIFF_TESTS_EXTERN_PASSON_H

#include <stdint.h>

/* R's lgammafn_sign: a value and a sign through an out-pointer, or NULL
 * (this one records what the pointee held, and where it is: record_at). */
double xp_lgamma_sign(double x, int *sgn);
/* Reads and writes a short pointee (32-bit lanes). */
int xp_bump(float x, short *e);
/* Reads n elements of the array it gets (an example's own). */
double xp_sum(const double *x, int n);
/* Reads a string (an example's own). */
int xp_code(const char *s);

/* Each call is recorded (test_extern_passon.c); with record_at set, the
 * pointer's address too (the scalar loop's and the batch's must agree). */
void xp_record(uint64_t tag, uint64_t v, const void *at);

#endif
