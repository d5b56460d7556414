/* What another file defines (test_extern_calls.c defines them after the
 * annotated functions, so their bodies are not there when the calls are
 * lowered): called from annotated code, once per example. */
#ifndef BATCHDIFF_TESTS_EXTERN_CALLS_H
#define BATCHDIFF_TESTS_EXTERN_CALLS_H

#include <stdint.h>

int ext_tally(int code, double x);
_Bool ext_flag(float x);
long ext_wide(long k);
void ext_void(void);

/* Floating results, defined in another translation unit
 * (extern_calls_other.c), which records each call through ext_record. */
double ext_shape(double t);
float ext_shapef(float t);
double ext_coef(int k, double c);
void ext_record(uint64_t tag, uint64_t v);

/* Declared here, defined in test_extern_calls.c after its caller: inlined
 * and differentiated there, not called per example. */
double ext_later(double x);

#endif
