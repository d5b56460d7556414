/* A function another file defines (extern_uniform_other.c), passed a
 * BD_UNIFORM array at an offset by test_extern_uniform.c. */
#ifndef BATCHDIFF_TESTS_EXTERN_UNIFORM_H
#define BATCHDIFF_TESTS_EXTERN_UNIFORM_H

#include <stdint.h>

/* Reads n elements (records them and where they are: xu_record). */
int xu_sum(const unsigned char *p, int n);
double xu_dot(const double *w, int n, double x);
void xu_record(uint64_t tag, uint64_t v, const void *at);

#endif
