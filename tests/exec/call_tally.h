/* The record of the calls a test's callees make once per example
 * (test_extern_calls.c, test_extern_out.c): every call adds one to a count
 * and its tag and arguments to a multiset hash (order-independent: the
 * batched code may make the calls in another order than the scalar loop).
 * A test takes the tally after the scalar loop and after each generated
 * function, and compares them (SAME_CALLS; SAME_CALLS_4 for all four
 * versions of a function, with the arrays of a `modes`). ns: every n the
 * contract singles out, and 40000 (the runtime's threads). */
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

/* The arrays of a function's four versions on n examples: r the results,
 * r2 the scalar loop's; NAME_grad seeded with dr into d; NAME_jvp with
 * tangents t into dt; NAME_hvp with t and seed 1 into d2 (gradient) and h
 * (Hessian-vector product). */
typedef struct {
  double *r, *r2, *dr, *d, *t, *dt, *d2, *h;
} modes;
static modes modes_alloc(size_t n) {
  modes m = {gp_alloc(n * 8), gp_alloc(n * 8), gp_alloc(n * 8),
             gp_alloc(n * 8), gp_alloc(n * 8), gp_alloc(n * 8),
             gp_alloc(n * 8), gp_alloc(n * 8)};
  return m;
}
/* Example e's seed and tangent, after the function's own inputs; its
 * gradients start at 0. */
static void modes_fill(modes *m, rng_t *rng, size_t e) {
  m->dr[e] = rng_range(rng, -2.0, 2.0);
  m->t[e] = rng_range(rng, -1.0, 1.0);
  m->d[e] = m->d2[e] = m->h[e] = 0.0;
}
static void modes_seal(modes *m) { gp_seal(m->dr), gp_seal(m->t); }
/* Example e's gradient g and Hessian-vector product hv in all three:
 * d = dr g, d2 = g, dt = t g, h = hv, each within tol (close_to). */
static int modes_close(const modes *m, size_t e, double g, double hv,
                       double tol) {
  return close_to(m->d[e], m->dr[e] * g, tol) && close_to(m->d2[e], g, tol) &&
         close_to(m->dt[e], m->t[e] * g, tol) && close_to(m->h[e], hv, tol);
}
/* NAME_batched, _grad, _jvp and _hvp of the arguments ... on n examples
 * (the arrays of modes m), each making the calls the scalar loop made
 * (want); the first three leave the scalar loop's results (m.r2) in m.r. */
#define SAME_CALLS_4(NAME, n, want, m, ...)                                    \
  do {                                                                         \
    NAME##_batched(n, __VA_ARGS__, (m).r);                                     \
    tally got_ = take();                                                       \
    SAME_CALLS(#NAME "_batched", n, want, got_);                               \
    assert_memory_equal((m).r, (m).r2, sizeof(double) * (n));                  \
    NAME##_grad(n, __VA_ARGS__, (m).r, (m).dr, (m).d);                         \
    got_ = take();                                                             \
    SAME_CALLS(#NAME "_grad", n, want, got_);                                  \
    assert_memory_equal((m).r, (m).r2, sizeof(double) * (n));                  \
    NAME##_jvp(n, __VA_ARGS__, (m).t, (m).r, (m).dt);                          \
    got_ = take();                                                             \
    SAME_CALLS(#NAME "_jvp", n, want, got_);                                   \
    assert_memory_equal((m).r, (m).r2, sizeof(double) * (n));                  \
    NAME##_hvp(n, __VA_ARGS__, (m).t, (m).r, NULL, (m).d2, (m).h);             \
    got_ = take();                                                             \
    SAME_CALLS(#NAME "_hvp", n, want, got_);                                   \
  } while (0)

#endif
