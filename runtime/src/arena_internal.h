/* Runtime-internal arena calls for the thread pool (parallel.c). Not
 * exported (the library hides everything not marked BD_*_API).
 *
 * A thread's own arena (its "top") owns one child arena per pool worker
 * that may run chunks of that thread's parallel calls. Children allocate
 * through the top's hooks, one hook call at a time, and are freed with the
 * top when the thread exits, so a thread's hooks see all of its calls'
 * allocations, whichever thread ran them. */
#ifndef BATCHDIFF_ARENA_INTERNAL_H
#define BATCHDIFF_ARENA_INTERNAL_H

#include "batchdiff/parallel.h"
#include "batchdiff/tape.h"

#include <setjmp.h>

/* While chunks run, a failure to get tape memory longjmps here with the
 * message instead of calling the fail hook on a worker thread. */
typedef struct bd_fail_trap {
  jmp_buf jb;
  char msg[256];
} bd_fail_trap;

/* The calling thread's own arena (created on first use). */
bd_arena *bd__arena_own(void);
/* Makes sure top has `count` children; 0 if out of memory. */
int bd__arena_reserve_children(bd_arena *top, size_t count);
/* Arena of participant i of a call: 0 is the caller (top itself). */
bd_arena *bd__arena_child(bd_arena *top, size_t i);
/* Around the chunks one thread runs: bd_arena_get() returns a on this
 * thread, failures go to trap. */
void bd__arena_enter(bd_arena *a, bd_fail_trap *trap);
void bd__arena_leave(bd_arena *a);
/* The clock a thread's own arena gives the pool's tuner
 * (bd_set_tune_clock); now NULL: CLOCK_MONOTONIC. */
typedef struct bd_tune_clock {
  bd_clock_fn now;
  void *ctx;
} bd_tune_clock;
bd_tune_clock *bd__arena_clock(bd_arena *top);
/* Calls top's fail hook with msg; aborts if it returns. */
_Noreturn void bd__arena_fail(bd_arena *top, const char *msg);

#endif
