/* The record of the calls a test's callees make once per example
 * (test_extern_calls.c, test_extern_out.c): every call adds one to a count
 * and its tag and arguments to a multiset hash (order-independent: the
 * batched code may make the calls in another order than the scalar loop).
 * A test takes the tally after the scalar loop and after each generated
 * function, and compares them (SAME_CALLS). ns: every n the contract
 * singles out, and 40000 (the runtime's threads). */
#ifndef BATCHDIFF_EXEC_CALL_TALLY_H
#define BATCHDIFF_EXEC_CALL_TALLY_H

#include "exec_util.h" /* cmocka: print_error, fail; WF, WD */

#include <inttypes.h>
#include <stdint.h>

static uint64_t calls, hash;

static uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}
/* One call: `tag` names the callee, `v` folds its arguments. */
static void record(uint64_t tag, uint64_t v) {
  calls++;
  hash += mix(tag * 0x9e3779b97f4a7c15ULL ^ mix(v));
}

static const size_t ns[] = {0,  1,      WF - 1,     WF,         WF + 1, WD - 1,
                            WD, WD + 1, 2 * WF + 3, 2 * WD + 3, 1000,   40000};
#define NNS (sizeof ns / sizeof ns[0])

typedef struct {
  uint64_t calls, hash;
} tally;
/* The calls recorded since the last take(). */
static tally take(void) {
  tally t = {calls, hash};
  calls = hash = 0;
  return t;
}
#define SAME_CALLS(what, n, want, got)                                         \
  do {                                                                         \
    if ((want).calls != (got).calls || (want).hash != (got).hash) {            \
      print_error("%s n=%zu: %" PRIu64 " calls, want %" PRIu64 " (hash %s)\n", \
                  what, n, (got).calls, (want).calls,                          \
                  (want).hash == (got).hash ? "same" : "differs");             \
      fail();                                                                  \
    }                                                                          \
  } while (0)

#endif
