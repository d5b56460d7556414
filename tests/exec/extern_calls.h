/* What another file defines (test_extern_calls.c defines them after the
 * annotated functions, so their bodies are not there when the calls are
 * lowered): called from annotated code, once per example. */
#ifndef BATCHDIFF_TESTS_EXTERN_CALLS_H
#define BATCHDIFF_TESTS_EXTERN_CALLS_H

int ext_tally(int code, double x);
_Bool ext_flag(float x);
long ext_wide(long k);
void ext_void(void);

#endif
