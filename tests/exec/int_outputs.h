/* A function of another file (int_outputs_other.c) marked batch, diff in
 * its header whose outputs are all integers, as ERFA's eraD2tf: days to
 * a sign and hours, minutes, seconds and a fraction. */
#ifndef BATCHDIFF_TESTS_INT_OUTPUTS_H
#define BATCHDIFF_TESTS_INT_OUTPUTS_H

#include <batchdiff.h>

BATCHDIFF void io_d2tf(int ndp, double days, char *sign, int ihmsf[4]);

#endif
