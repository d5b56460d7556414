/* The other file of test_global_sync.c: functions that leave a second
 * result in a global, as cephes' lgam leaves the sign in sgngam. */
#ifndef BATCHDIFF_TESTS_GLOBAL_SYNC_H
#define BATCHDIFF_TESTS_GLOBAL_SYNC_H
#include <batchdiff.h>

extern int osign;
extern double ofactor;
/* Plain scalar: osign = the sign of x, 2x. */
double olg(double x);
/* Batch functions: bsq sets osign (x |x|), bpoly uses no global. */
BATCHDIFF double bsq(double x);
BATCHDIFF double bpoly(double x);
#endif
