/* The thread pool (runtime/include/batchdiff/parallel.h), without the
 * plugin: a chunk callback that records what it was given.
 *
 * - every example is covered exactly once, by chunks [c*BD_CHUNK, ...) that
 *   do not depend on the thread count (1, 2, 3, 7), for n around the chunk
 *   size and the threshold; slots are zeroed, 64-byte aligned and reduced
 *   on the calling thread in chunk order;
 * - below BD_PARALLEL_MIN_N, with 1 thread, and with BD_PAR_SERIAL, the
 *   chunks run on the calling thread only;
 * - bd_set_num_threads / bd_get_num_threads, BATCHDIFF_NUM_THREADS (the
 *   ctest case rt_test_parallel_env runs with it set to 5);
 * - several user threads calling at once: all results right;
 * - many short calls in a row, the thread count changing between them,
 *   some after a pause long enough for the workers to stop polling and
 *   sleep: every call still covers each example once and reduces in chunk
 *   order (workers that are polling, asleep, or still leaving the last
 *   call join or stay out of the next one; no state carries over);
 * - tape memory in chunks comes from the calling thread's hooks, one hook
 *   call at a time, allocated once per participating thread (none in
 *   steady state), all freed at thread exit;
 * - a chunk that cannot get tape memory: the calling thread's fail hook runs
 *   on the calling thread, after every worker stopped; longjmp out of it
 *   works and later calls are fine;
 * - pool or not: timed with a clock of the test's own (bd_set_tune_clock),
 *   a call keeps off the pool when the pool measured slower and takes it
 *   when it measured faster, the other way every 8th call.
 * No timing assertions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <batchdiff/parallel.h>
#include <batchdiff/tape.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>

enum { SLOT = 24 };

typedef struct {
  size_t n;
  unsigned char *seen; /* per example: times covered */
  int bad;             /* chunk bounds, slot alignment or zeroing wrong */
  size_t *order;       /* reduce calls: the chunk each one saw */
  size_t nreduced;
  pthread_t caller;
  int reduce_off_thread;
  size_t tape_bytes; /* bytes of tape each chunk takes (0: none) */
} rec_t;

static void rec_chunk(void *ctx, size_t b, size_t e, void *slot) {
  rec_t *r = ctx;
  if (b % BD_CHUNK || e <= b || e > r->n || (e - b != BD_CHUNK && e != r->n))
    r->bad = 1;
  if (slot) {
    if ((uintptr_t)slot % 64)
      r->bad = 1;
    for (int i = 0; i < SLOT; i++)
      if (((unsigned char *)slot)[i])
        r->bad = 1;
    size_t c = b / BD_CHUNK;
    memcpy(slot, &c, sizeof c);
    memcpy((char *)slot + 8, &e, sizeof e);
  }
  if (r->tape_bytes) {
    bd_arena *a = bd_arena_get();
    bd_arena_pos p = bd_arena_save(a);
    char *t = bd_arena_alloc(a, r->tape_bytes);
    memset(t, 1, r->tape_bytes);
    bd_arena_restore(a, p);
  }
  for (size_t i = b; i < e; i++)
    r->seen[i]++;
}
static void rec_reduce(void *ctx, const void *slot) {
  rec_t *r = ctx;
  size_t c;
  memcpy(&c, slot, sizeof c);
  r->order[r->nreduced++] = c;
  if (!pthread_equal(pthread_self(), r->caller))
    r->reduce_off_thread = 1;
}

/* Runs one call; checks coverage and reduction order. Returns the threads
 * that ran chunks. */
static int run_rec(size_t n, size_t slot_bytes, int flags) {
  rec_t r = {.n = n, .caller = pthread_self()};
  r.seen = calloc(n + 1, 1);
  size_t nch = (n + BD_CHUNK - 1) / BD_CHUNK;
  r.order = calloc(nch + 1, sizeof(size_t));
  bd_parallel_for(n, rec_chunk, slot_bytes ? rec_reduce : NULL, slot_bytes, &r,
                  flags);
  assert_false(r.bad);
  for (size_t i = 0; i < n; i++)
    assert_int_equal(r.seen[i], 1);
  if (slot_bytes) {
    assert_int_equal(r.nreduced, nch);
    for (size_t c = 0; c < nch; c++)
      assert_int_equal(r.order[c], c);
    assert_false(r.reduce_off_thread);
  }
  free(r.seen);
  free(r.order);
  return bd_parallel_last_threads();
}

static const size_t sizes[] = {0,
                               1,
                               BD_CHUNK - 1,
                               BD_CHUNK,
                               BD_CHUNK + 1,
                               BD_PARALLEL_MIN_N - 1,
                               BD_PARALLEL_MIN_N,
                               BD_PARALLEL_MIN_N + 3,
                               7 * BD_PARALLEL_MIN_N + 1000};

static void coverage_and_order(void **st) {
  (void)st;
  static const int counts[] = {1, 2, 3, 7};
  for (size_t t = 0; t < 4; t++) {
    bd_set_num_threads(counts[t]);
    assert_int_equal(bd_get_num_threads(), counts[t]);
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
      for (int slot = 0; slot < 2; slot++) {
        int used = run_rec(sizes[s], slot ? SLOT : 0, 0);
        assert_true(used >= 1 || sizes[s] == 0);
        assert_true(used <= counts[t]);
        assert_int_equal(run_rec(sizes[s], slot ? SLOT : 0, BD_PAR_SERIAL),
                         1); /* serial flag: caller only */
        if (s + 1 == sizeof sizes / sizeof *sizes && slot)
          print_message("%d threads, n = %zu: %d ran chunks\n", counts[t],
                        sizes[s], used);
        if (sizes[s] < BD_PARALLEL_MIN_N || counts[t] == 1)
          assert_true(used <= 1); /* the threshold path: caller only */
      }
  }
  bd_set_num_threads(0);
}

static void thread_count_calls(void **st) {
  (void)st;
  bd_set_num_threads(0);
  int def = bd_get_num_threads();
  assert_true(def >= 1);
  bd_set_num_threads(4);
  assert_int_equal(bd_get_num_threads(), 4);
  bd_set_num_threads(1);
  assert_int_equal(bd_get_num_threads(), 1);
  bd_set_num_threads(-3);
  assert_int_equal(bd_get_num_threads(), def);
  bd_set_num_threads(100000);
  assert_int_equal(bd_get_num_threads(), 256);
  bd_set_num_threads(0);
}

/* ---- concurrent callers ------------------------------------------------- */

typedef struct {
  int reps;
  int failures;
} conc_t;

static void *conc_fn(void *arg) {
  conc_t *c = arg;
  for (int i = 0; i < c->reps; i++) {
    size_t n = (size_t)(i % 3 + 1) * BD_PARALLEL_MIN_N + (size_t)i * 17;
    rec_t r = {.n = n, .caller = pthread_self()};
    r.seen = calloc(n, 1);
    r.order = calloc(n / BD_CHUNK + 2, sizeof(size_t));
    bd_parallel_for(n, rec_chunk, rec_reduce, SLOT, &r, 0);
    int ok = !r.bad && !r.reduce_off_thread &&
             r.nreduced == (n + BD_CHUNK - 1) / BD_CHUNK;
    for (size_t k = 0; k < n && ok; k++)
      ok = r.seen[k] == 1;
    for (size_t k = 0; k < r.nreduced && ok; k++)
      ok = r.order[k] == k;
    c->failures += !ok;
    free(r.seen);
    free(r.order);
  }
  return NULL;
}

static void concurrent_callers(void **st) {
  (void)st;
  bd_set_num_threads(3);
  enum { NT = 5 };
  pthread_t th[NT];
  conc_t c[NT];
  for (int i = 0; i < NT; i++) {
    c[i] = (conc_t){20, 0};
    assert_int_equal(pthread_create(&th[i], NULL, conc_fn, &c[i]), 0);
  }
  for (int i = 0; i < NT; i++) {
    assert_int_equal(pthread_join(th[i], NULL), 0);
    assert_int_equal(c[i].failures, 0);
  }
  bd_set_num_threads(0);
}

/* ---- calls in quick succession ------------------------------------------ */

/* Short calls one after another: workers join while polling after the last
 * call, join late (after the caller ran out of chunks), or are woken from
 * sleep after a pause; none of it may change what a call computes. */
static void quick_calls(void **st) {
  (void)st;
  static const int counts[] = {2, 3, 1, 7, 2};
  int used_max = 0;
  for (int i = 0; i < 400; i++) {
    int t = counts[i % 5];
    bd_set_num_threads(t);
    if (i % 50 == 49) { /* long enough for workers to go to sleep */
      struct timespec ts = {0, 20 * 1000 * 1000};
      nanosleep(&ts, NULL);
    }
    size_t n = BD_PARALLEL_MIN_N + (size_t)(i % 7) * (BD_CHUNK + 5);
    int used = run_rec(n, i % 2 ? SLOT : 0, 0);
    assert_true(used >= 1 && used <= t);
    used_max = used > used_max ? used : used_max;
  }
  print_message("400 short calls: up to %d threads ran chunks of one call\n",
                used_max);
  bd_set_num_threads(0);
}

/* ---- hooks -------------------------------------------------------------- */

typedef struct {
  atomic_int inside; /* hook calls running now */
  int overlap;       /* two hook calls ran at once */
  size_t allocs, frees, fails;
  size_t fail_bytes; /* refuse blocks this large (0: never) */
  pthread_t caller;
  int fail_off_thread;
  char msg[256];
  jmp_buf *jb;
} hk_t;

static void *hk_alloc(size_t bytes, void *ctx) {
  hk_t *h = ctx;
  if (atomic_fetch_add(&h->inside, 1))
    h->overlap = 1;
  void *p = h->fail_bytes && bytes >= h->fail_bytes ? NULL : malloc(bytes);
  if (p)
    h->allocs++;
  atomic_fetch_sub(&h->inside, 1);
  return p;
}
static void hk_free(void *p, void *ctx) {
  hk_t *h = ctx;
  if (atomic_fetch_add(&h->inside, 1))
    h->overlap = 1;
  h->frees++;
  free(p);
  atomic_fetch_sub(&h->inside, 1);
}
static void hk_fail(const char *msg, void *ctx) {
  hk_t *h = ctx;
  h->fails++;
  snprintf(h->msg, sizeof h->msg, "%s", msg);
  if (!pthread_equal(pthread_self(), h->caller))
    h->fail_off_thread = 1;
  longjmp(*h->jb, 1);
}

typedef struct {
  hk_t h;
  size_t after_first, after_more;
  int jumped, ok_after;
} hooks_run_t;

static void *hooks_thread(void *arg) {
  hooks_run_t *s = arg;
  jmp_buf jb;
  s->h.caller = pthread_self();
  s->h.jb = &jb;
  bd_alloc_hooks hooks = {hk_alloc, hk_free, hk_fail, &s->h};
  bd_set_alloc_hooks(&hooks);
  size_t n = 4 * BD_PARALLEL_MIN_N;
  rec_t r = {.n = n, .caller = pthread_self(), .tape_bytes = 200000};
  r.seen = calloc(n, 1);
  r.order = calloc(n / BD_CHUNK + 1, sizeof(size_t));
  bd_parallel_for(n, rec_chunk, rec_reduce, SLOT, &r, 0);
  s->after_first = s->h.allocs;
  for (int i = 0; i < 10; i++) {
    r.nreduced = 0;
    bd_parallel_for(n, rec_chunk, rec_reduce, SLOT, &r, 0);
  }
  s->after_more = s->h.allocs;
  /* Failure: chunks want more tape than the hooks give. */
  s->h.fail_bytes = 1u << 20;
  r.tape_bytes = 4u << 20;
  if (setjmp(jb) == 0)
    bd_parallel_for(n, rec_chunk, rec_reduce, SLOT, &r, 0);
  else
    s->jumped = 1;
  /* Afterwards calls work again. */
  s->h.fail_bytes = 0;
  r.tape_bytes = 1000;
  memset(r.seen, 0, n);
  r.nreduced = 0;
  bd_parallel_for(n, rec_chunk, rec_reduce, SLOT, &r, 0);
  s->ok_after = !r.bad;
  for (size_t i = 0; i < n; i++)
    s->ok_after &= r.seen[i] == 1;
  free(r.seen);
  free(r.order);
  return NULL; /* thread exit frees the arena and its workers' arenas */
}

static void hooks_under_threads(void **st) {
  (void)st;
  static const int counts[] = {1, 2, 3, 7};
  size_t per_arena = 0; /* allocations of one arena's warm-up */
  for (int t = 0; t < 4; t++) {
    bd_set_num_threads(counts[t]);
    hooks_run_t *s = calloc(1, sizeof *s);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, hooks_thread, s), 0);
    assert_int_equal(pthread_join(th, NULL), 0);
    print_message("%d threads: %zu allocs, %zu frees, fail: %s\n", counts[t],
                  s->h.allocs, s->h.frees, s->h.msg);
    assert_true(s->after_first > 0);
    if (t == 0) {
      per_arena = s->after_first;
      assert_int_equal(s->after_more, s->after_first); /* steady state */
    }
    /* Steady state per worker: each participant's arena allocates only the
     * first time it runs a chunk (which calls a worker joins varies), so
     * 11 calls allocate no more than one warm-up per participant, plus one
     * block for the per-chunk slots in the caller's arena. */
    assert_true(s->after_more <= (size_t)counts[t] * per_arena + 1);
    assert_false(s->h.overlap);
    assert_int_equal(s->jumped, 1);
    assert_int_equal(s->h.fails, 1);
    assert_false(s->h.fail_off_thread);
    assert_non_null(strstr(s->h.msg, "tape arena: out of memory"));
    assert_true(s->ok_after);
    assert_int_equal(s->h.allocs, s->h.frees);
    free(s);
  }
  bd_set_num_threads(0);
}

/* ---- pool or not, by measurement --------------------------------------- */

/* The tuner times these calls with a clock of the test's own
 * (bd_set_tune_clock) that only the chunk functions advance, by 20 ms for
 * a call the slow way: which way is faster is exact, whatever the load. A
 * call on the pool passes chunks of BD_CHUNK examples; one alone and
 * without slots passes the whole batch in one fn call. */
enum { CALLS = 40, NAP_NS = 20 * 1000 * 1000 };
typedef struct {
  size_t n;
  int call;                        /* the call running */
  int cold;                        /* cold_then_slow_alone: its cold call */
  char pooled[CALLS];              /* per call: it ran chunk by chunk */
  _Atomic unsigned long long *now; /* the clock */
} tune_t;
static unsigned long long tune_clock(void *ctx) {
  return atomic_load((_Atomic unsigned long long *)ctx);
}
static void slow_on_pool(void *ctx, size_t b, size_t e, void *slot) {
  tune_t *t = ctx;
  (void)slot;
  if (b == 0 && e < t->n) {
    t->pooled[t->call] = 1;
    atomic_fetch_add(t->now, NAP_NS);
  }
}
static void slow_alone(void *ctx, size_t b, size_t e, void *slot) {
  tune_t *t = ctx;
  (void)slot;
  if (b == 0 && e == t->n)
    atomic_fetch_add(t->now, NAP_NS);
  else if (b == 0)
    t->pooled[t->call] = 1;
}
/* As slow_alone, but the first call on the pool takes 100 ms (the cold
 * first call of a program: fresh pages, code not yet in cache). */
static void cold_then_slow_alone(void *ctx, size_t b, size_t e, void *slot) {
  tune_t *t = ctx;
  slow_alone(ctx, b, e, slot);
  if (b == 0 && e < t->n && !t->cold++)
    atomic_fetch_add(t->now, 5 * NAP_NS);
}

/* The rule of runtime/src/parallel.c, timed by the test's clock: a call
 * takes the pool while the pool is unmeasured in the workers' present
 * state (polling or asleep: the test cannot choose it, so one first
 * measurement in each), then the thread alone once, then the way that
 * measured faster, but every 8th call (call % 8 == 7) the other. Not
 * counted: a call that starts the workers and the first counted call of a
 * function and size (a cold one). So, call 0 (the pool) and the probes
 * aside, at most 3 calls go to the pool when it is the slower way (the
 * cold one and one per state), at most 1 alone when the pool is faster;
 * every probe goes to the pool when it is slower, and at most 2 (a state's
 * first measurement) when it is faster. */
static void expect_tuned(const tune_t *t, int pool_slower, const char *what) {
  int wrong = 0, probes = 0;
  for (int i = 1; i < CALLS; i++) {
    int slower = t->pooled[i] == pool_slower;
    if (i % 8 == 7)
      probes += slower;
    else
      wrong += slower;
  }
  print_message("%s: %d of %d calls the slower way besides call 0 and the "
                "probes, %d of %d probes\n",
                what, wrong, CALLS - 1 - CALLS / 8, probes, CALLS / 8);
  if (pool_slower) {
    assert_true(t->pooled[0]);
    assert_true(wrong <= 3);
    assert_int_equal(probes, CALLS / 8);
  } else {
    assert_true(wrong <= 1);
    assert_true(probes >= CALLS / 8 - 2);
  }
}

static void tuner_picks_faster(void **st) {
  (void)st;
  _Atomic unsigned long long now = 0;
  bd_set_num_threads(2);
  bd_set_tune_clock(tune_clock, &now);
  tune_t a = {.n = BD_PARALLEL_MIN_N, .now = &now};
  tune_t b = {.n = BD_PARALLEL_MIN_N, .now = &now};
  for (int i = 0; i < CALLS; i++) {
    a.call = b.call = i;
    bd_parallel_for(a.n, slow_on_pool, NULL, 0, &a, 0);
    bd_parallel_for(b.n, slow_alone, NULL, 0, &b, 0);
  }
  bd_set_tune_clock(NULL, NULL);
  expect_tuned(&a, 1, "slow on the pool");
  expect_tuned(&b, 0, "slow alone");
  bd_set_num_threads(0);
}

/* A slow first call on the pool must not keep later calls off it: the
 * first call of each function and size is not counted (before, its 100 ms
 * kept this function alone until three probes had halved it away: about
 * 20 of 40 calls pooled). */
static void tuner_forgets_cold_start(void **st) {
  (void)st;
  _Atomic unsigned long long now = 0;
  bd_set_num_threads(2);
  bd_set_tune_clock(tune_clock, &now);
  tune_t c = {.n = 2 * BD_PARALLEL_MIN_N, .now = &now};
  for (c.call = 0; c.call < CALLS; c.call++)
    bd_parallel_for(c.n, cold_then_slow_alone, NULL, 0, &c, 0);
  bd_set_tune_clock(NULL, NULL);
  expect_tuned(&c, 0, "cold first call on the pool");
  bd_set_num_threads(0);
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--expect-threads")) {
    /* BATCHDIFF_NUM_THREADS is set by ctest; no set call made. */
    int want = atoi(argv[2]), got = bd_get_num_threads();
    printf("bd_get_num_threads() = %d, expected %d\n", got, want);
    return got == want ? 0 : 1;
  }
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(thread_count_calls),
      cmocka_unit_test(coverage_and_order),
      cmocka_unit_test(concurrent_callers),
      cmocka_unit_test(quick_calls),
      cmocka_unit_test(hooks_under_threads),
      cmocka_unit_test(tuner_picks_faster),
      cmocka_unit_test(tuner_forgets_cold_start),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
