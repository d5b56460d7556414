/* The thread pool behind bd_parallel_for (parallel.h, docs/runtime.md).
 *
 * One pool per process: up to BD_MAX_THREADS - 1 detached worker threads,
 * started on demand and kept, sleeping on a condition variable between
 * calls. One call at a time owns the pool; a call that finds it owned runs
 * on its own thread. Chunks are claimed with an atomic counter, so which
 * thread runs a chunk varies, but a chunk's results never depend on it:
 * outputs are per example and partial sums stay per chunk until the caller
 * reduces them in chunk order.
 *
 * Waiting is a bounded spin, then sleep: a worker that finished a job
 * polls the generation counter for up to BD_SPIN_NS before it sleeps on
 * the condition variable, and the caller polls for its workers to leave
 * the job as long before it sleeps. A sleeping thread's CPU may go idle,
 * and in a VM an idle vCPU takes tens of microseconds to run again
 * (docs/performance.md, "Threads"); calls closer together than the spin
 * find the workers awake.
 *
 * Global mutable state (all of it in this file): the pool (lock, condition
 * variables, current job, generation, worker count), the thread count set
 * by bd_set_num_threads and its default, the number of large calls
 * running (for backing off when user threads call concurrently), the
 * number of workers polling, and the timings that decide whether a call
 * uses the pool (bd_tunes). */
#define _GNU_SOURCE /* sched_getaffinity */
#include "batchdiff/parallel.h"
#include "arena_internal.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { BD_MAX_THREADS = 256, BD_STACK_SLOTS = 512 };

/* How long a waiting thread polls before it sleeps (ns). A compile-time
 * setting, for measuring; docs/performance.md gives the measurements. */
#ifndef BD_SPIN_NS
#define BD_SPIN_NS 100000
#endif

typedef struct bd_job {
  size_t n, nchunks, slot_bytes;
  char *slots;
  bd_chunk_fn fn;
  void *ctx;
  bd_arena *top; /* the caller's arena: children[i - 1] for worker i */
  atomic_size_t next;
  atomic_int stop;     /* a participant failed: abandon the other chunks */
  atomic_int ran;      /* participants that ran at least one chunk */
  atomic_int finished; /* workers that left (their last access to the job) */
  /* Under the pool lock: */
  int want, joined, failed;
  char msg[256];
} bd_job;

static struct {
  pthread_mutex_t lock;
  pthread_cond_t wake; /* workers: a new job */
  pthread_cond_t done; /* owner: a worker left the job */
  bd_job *job;         /* the job workers may join, or NULL */
  atomic_ulong gen;    /* bumped (under the lock) for every job */
  int nworkers;
  int owned; /* a call owns the pool */
} bd_pool = {PTHREAD_MUTEX_INITIALIZER,
             PTHREAD_COND_INITIALIZER,
             PTHREAD_COND_INITIALIZER,
             NULL,
             0,
             0,
             0};

static atomic_int bd_threads_set;     /* bd_set_num_threads; 0: default */
static atomic_int bd_threads_default; /* 0: not read yet */
static atomic_int bd_large_calls;     /* calls that could use the pool */
static atomic_int bd_polling;         /* workers polling for the next job */
static _Thread_local int bd_last_threads = 1;
static pthread_once_t bd_fork_once = PTHREAD_ONCE_INIT;

/* A forked child has none of the workers, and the lock may have been held
 * by a thread that does not exist there: start over with an empty pool. */
static void bd_pool_after_fork(void) {
  pthread_mutex_init(&bd_pool.lock, NULL);
  pthread_cond_init(&bd_pool.wake, NULL);
  pthread_cond_init(&bd_pool.done, NULL);
  bd_pool.job = NULL;
  bd_pool.nworkers = 0;
  bd_pool.owned = 0;
  atomic_store(&bd_large_calls, 0);
  atomic_store(&bd_polling, 0);
}
static void bd_register_fork(void) {
  pthread_atfork(NULL, NULL, bd_pool_after_fork);
}

/* The CPUs this process may run on. */
static int bd_cpu_count(void) {
  int cpus = 0;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0)
    cpus = CPU_COUNT(&set);
  if (cpus < 1) {
    long s = sysconf(_SC_NPROCESSORS_ONLN);
    cpus = s > 0 ? (int)s : 1;
  }
  return cpus;
}

static int bd_default_threads(void) {
  const char *e = getenv("BATCHDIFF_NUM_THREADS");
  if (e && *e) {
    char *end;
    long v = strtol(e, &end, 10);
    if (*end == 0 && v >= 1)
      return v > BD_MAX_THREADS ? BD_MAX_THREADS : (int)v;
  }
  int cpus = bd_cpu_count();
  return cpus > BD_MAX_THREADS ? BD_MAX_THREADS : cpus;
}

void bd_set_num_threads(int k) {
  atomic_store(&bd_threads_set, k < 1                ? 0
                                : k > BD_MAX_THREADS ? BD_MAX_THREADS
                                                     : k);
}

int bd_get_num_threads(void) {
  int k = atomic_load(&bd_threads_set);
  if (k)
    return k;
  k = atomic_load(&bd_threads_default);
  if (!k) { /* racing readers compute the same value */
    k = bd_default_threads();
    atomic_store(&bd_threads_default, k);
  }
  return k;
}

int bd_parallel_last_threads(void) { return bd_last_threads; }

void bd_set_tune_clock(bd_clock_fn now, void *ctx) {
  bd_tune_clock *c = bd__arena_clock(bd__arena_own());
  c->now = now;
  c->ctx = ctx;
}

/* Bounded polling: bd_spin_more pauses the CPU briefly and returns 0 once
 * BD_SPIN_NS have passed since bd_spin_start. Every 16th round it also
 * yields: on a loaded machine the thread waited for may be queued on this
 * very CPU (measured: without the yield, callers on 2 busy vCPUs lost the
 * whole spin time per call). With nothing else to run, sched_yield
 * returns at once. */
static uint64_t bd_now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}
/* What the tuner measures a call with: the calling thread's clock
 * (bd_set_tune_clock), else CLOCK_MONOTONIC. */
static uint64_t bd_tune_now(const bd_tune_clock *c) {
  return c->now ? (uint64_t)c->now(c->ctx) : bd_now_ns();
}
static uint64_t bd_spin_start(void) { return bd_now_ns() + BD_SPIN_NS; }
static int bd_spin_more(uint64_t until, unsigned *i) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  __asm__ volatile("yield");
#endif
  if (++*i % 16)
    return 1;
  sched_yield();
  return bd_now_ns() < until;
}

/* Claims and runs chunks until none is left. Workers (idx > 0) stop early
 * when another large call is running on some other thread, so concurrent
 * user threads do not oversubscribe the CPUs; the owner finishes the rest. */
static void bd_chunks(bd_job *j, size_t idx) {
  int any = 0;
  for (;;) {
    if (atomic_load_explicit(&j->stop, memory_order_relaxed))
      break;
    if (idx > 0 &&
        atomic_load_explicit(&bd_large_calls, memory_order_relaxed) > 1)
      break;
    size_t c = atomic_fetch_add_explicit(&j->next, 1, memory_order_relaxed);
    if (c >= j->nchunks)
      break;
    size_t b = c * (size_t)BD_CHUNK;
    size_t e = j->n - b < BD_CHUNK ? j->n : b + BD_CHUNK;
    void *slot = NULL;
    if (j->slot_bytes) {
      slot = j->slots + c * j->slot_bytes;
      memset(slot, 0, j->slot_bytes);
    }
    j->fn(j->ctx, b, e, slot);
    any = 1;
  }
  if (any)
    atomic_fetch_add(&j->ran, 1);
}

/* One participant's share, with its own arena; a failure to get tape
 * memory lands in the trap and stops the job. */
static void bd_participate(bd_job *j, size_t idx) {
  bd_arena *a = bd__arena_child(j->top, idx);
  bd_fail_trap trap;
  bd_arena_pos pos = bd_arena_save(a);
  bd__arena_enter(a, &trap);
  if (setjmp(trap.jb) == 0) {
    bd_chunks(j, idx);
  } else {
    atomic_store(&j->stop, 1);
    pthread_mutex_lock(&bd_pool.lock);
    if (!j->failed) {
      j->failed = 1;
      memcpy(j->msg, trap.msg, sizeof j->msg);
    }
    pthread_mutex_unlock(&bd_pool.lock);
  }
  bd__arena_leave(a);
  bd_arena_restore(a, pos);
}

/* What a worker starts with: the generation it has seen, and whether it
 * polls before sleeping (only workers that have a CPU of their own: with
 * more threads than CPUs, polling would take time from the others). */
typedef struct {
  unsigned long seen;
  int spin;
} bd_worker_arg;

static void *bd_worker(void *arg) {
  bd_worker_arg a = *(bd_worker_arg *)arg;
  free(arg);
  unsigned long seen = a.seen;
  for (;;) {
    uint64_t until = a.spin ? bd_spin_start() : 0;
    unsigned i = 0;
    if (a.spin)
      atomic_fetch_add_explicit(&bd_polling, 1, memory_order_relaxed);
    while (a.spin &&
           atomic_load_explicit(&bd_pool.gen, memory_order_relaxed) == seen &&
           bd_spin_more(until, &i))
      ;
    if (a.spin)
      atomic_fetch_sub_explicit(&bd_polling, 1, memory_order_relaxed);
    pthread_mutex_lock(&bd_pool.lock);
    while (atomic_load_explicit(&bd_pool.gen, memory_order_relaxed) == seen)
      pthread_cond_wait(&bd_pool.wake, &bd_pool.lock);
    seen = atomic_load_explicit(&bd_pool.gen, memory_order_relaxed);
    bd_job *j = bd_pool.job;
    if (!j || j->joined >= j->want) {
      pthread_mutex_unlock(&bd_pool.lock);
      continue;
    }
    size_t idx = (size_t)++j->joined;
    pthread_mutex_unlock(&bd_pool.lock);
    bd_participate(j, idx);
    /* The job lives on the caller's stack: nothing touches it after this. */
    atomic_fetch_add(&j->finished, 1);
    pthread_mutex_lock(&bd_pool.lock);
    pthread_cond_signal(&bd_pool.done);
    pthread_mutex_unlock(&bd_pool.lock);
  }
  return NULL;
}

/* Under the pool lock: makes sure `count` workers exist (fewer if threads
 * cannot be created). Workers block all signals: handlers run on user
 * threads. */
static int bd_start_workers(int count) {
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  pthread_attr_t at;
  pthread_attr_init(&at);
  pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
  int cpus = bd_pool.nworkers < count ? bd_cpu_count() : 0;
  int had = bd_pool.nworkers;
  while (bd_pool.nworkers < count) {
    pthread_t t;
    bd_worker_arg *a = malloc(sizeof *a);
    if (!a)
      break;
    a->seen = atomic_load(&bd_pool.gen);
    a->spin = bd_pool.nworkers + 1 < cpus; /* the caller has a CPU too */
    if (pthread_create(&t, &at, bd_worker, a)) {
      free(a);
      break;
    }
    bd_pool.nworkers++;
  }
  pthread_attr_destroy(&at);
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return bd_pool.nworkers > had;
}

/* Pool or not, by measurement. On a machine whose CPUs are shared, a
 * call on the pool can take longer than on the calling thread alone: a
 * worker woken from sleep may start milliseconds late, and the caller
 * waits at the end for the chunk of a worker that was preempted in it
 * (docs/performance.md, "Threads"). So each chunk function and size class
 * (log2 n) keeps the time per example of its calls alone, on the pool
 * while a worker was polling, and on the pool with every worker asleep
 * (what the pool costs depends on it, and calls kept off the pool let the
 * workers fall asleep), as running means of the last few; a call takes the
 * way that measured faster in the workers' present state, and every
 * BD_TUNE_PROBE-th call the other, so both stay current. Calls that stay
 * on one thread (k = 1) count as well. The first call of an entry is not
 * counted: it pays for the first touch of fresh memory and of the code
 * (3.7x a warm call for logistic_loss_batched in the demo), and a pool
 * judged by it was not tried again for 8 calls. A call more than twice
 * as fast as its way's mean replaces the mean (the mean was raised by a
 * preempted worker or a cold start, not by the load). Which way a call
 * goes never changes its results. */
enum { BD_TUNE_SLOTS = 64, BD_TUNE_PROBE = 8 };
typedef struct {
  _Atomic(uintptr_t) key; /* fn and size class; 0: free */
  /* Picoseconds per example: [0] alone, [1] on the pool with a worker
   * polling, [2] with the workers asleep; 0: not measured yet. */
  atomic_uint_least64_t ps[3];
  atomic_uint calls;
  atomic_uint warm; /* 0 until the entry's first call has ended */
} bd_tune;
static bd_tune bd_tunes[BD_TUNE_SLOTS];

/* The entry of fn at size n (NULL when the table is full: always pool). */
static bd_tune *bd_tune_of(bd_chunk_fn fn, size_t n) {
  unsigned lg = 0;
  while (lg < 63 && (n >> (lg + 1)))
    lg++;
  uintptr_t key = (uintptr_t)fn * 128u + lg * 2u + 1u; /* never 0 */
  size_t h = (size_t)((key >> 4) * 0x9E3779B97F4A7C15ull);
  for (size_t i = 0; i < BD_TUNE_SLOTS; i++) {
    bd_tune *e = &bd_tunes[(h + i) % BD_TUNE_SLOTS];
    uintptr_t k = atomic_load_explicit(&e->key, memory_order_relaxed);
    if (k == key)
      return e;
    if (!k) {
      uintptr_t z = 0;
      if (atomic_compare_exchange_strong(&e->key, &z, key) || z == key)
        return e;
    }
  }
  return NULL;
}

/* Whether a call of entry e uses the pool (way: 1 with a worker polling,
 * 2 with all asleep): first the pool, then once alone, then the faster,
 * the other every BD_TUNE_PROBE-th call. */
static int bd_tune_pool(bd_tune *e, int way) {
  if (!e)
    return 1;
  unsigned c = atomic_fetch_add_explicit(&e->calls, 1, memory_order_relaxed);
  uint64_t alone = atomic_load_explicit(&e->ps[0], memory_order_relaxed);
  uint64_t pool = atomic_load_explicit(&e->ps[way], memory_order_relaxed);
  if (!pool || !alone)
    return !pool;
  int faster = pool < alone;
  return c % BD_TUNE_PROBE == BD_TUNE_PROBE - 1 ? !faster : faster;
}

/* Adds a call of ns nanoseconds over n examples to e's mean for that way
 * (the new call weighs half: a changed load shows within a few calls). */
static void bd_tune_note(bd_tune *e, int way, uint64_t ns, size_t n) {
  if (!atomic_exchange_explicit(&e->warm, 1, memory_order_relaxed))
    return;
  uint64_t ps = ns * 1000u / n + 1;
  uint64_t old = atomic_load_explicit(&e->ps[way], memory_order_relaxed);
  atomic_store_explicit(&e->ps[way], old && 2 * ps >= old ? (old + ps) / 2 : ps,
                        memory_order_relaxed);
}

static void bd_serial(size_t n, bd_chunk_fn fn, bd_reduce_fn reduce,
                      size_t slot_bytes, void *ctx) {
  bd_last_threads = 1;
  if (!slot_bytes) { /* nothing to reduce: chunk boundaries do not matter */
    if (n)
      fn(ctx, 0, n, NULL);
    return;
  }
  _Alignas(64) char buf[BD_STACK_SLOTS];
  bd_arena *top = NULL;
  bd_arena_pos pos = {0, 0};
  char *slot = buf;
  if (slot_bytes > sizeof buf) {
    top = bd__arena_own();
    pos = bd_arena_save(top);
    slot = bd_arena_alloc(top, slot_bytes);
  }
  for (size_t b = 0; b < n; b += BD_CHUNK) {
    memset(slot, 0, slot_bytes);
    fn(ctx, b, n - b < BD_CHUNK ? n : b + BD_CHUNK, slot);
    if (reduce)
      reduce(ctx, slot);
  }
  if (top)
    bd_arena_restore(top, pos);
}

/* Takes the pool for job j with up to t - 1 workers; 0 if it is owned.
 * *started: whether workers had to be created for it. */
static int bd_take_pool(bd_job *j, int t, int *started) {
  pthread_mutex_lock(&bd_pool.lock);
  if (bd_pool.owned) {
    pthread_mutex_unlock(&bd_pool.lock);
    return 0;
  }
  bd_pool.owned = 1;
  *started = bd_start_workers(t - 1);
  j->want = bd_pool.nworkers < t - 1 ? bd_pool.nworkers : t - 1;
  bd_pool.job = j;
  atomic_fetch_add(&bd_pool.gen, 1);
  pthread_cond_broadcast(&bd_pool.wake); /* no system call if none sleeps */
  pthread_mutex_unlock(&bd_pool.lock);
  return 1;
}

/* Closes j to new workers, waits for those that joined, frees the pool. */
static void bd_release_pool(bd_job *j) {
  pthread_mutex_lock(&bd_pool.lock);
  bd_pool.job = NULL;
  int joined = j->joined;
  pthread_mutex_unlock(&bd_pool.lock);
  uint64_t until = bd_spin_start();
  unsigned i = 0;
  while (atomic_load(&j->finished) < joined && bd_spin_more(until, &i))
    ;
  pthread_mutex_lock(&bd_pool.lock);
  while (atomic_load(&j->finished) < joined)
    pthread_cond_wait(&bd_pool.done, &bd_pool.lock);
  bd_pool.owned = 0;
  pthread_mutex_unlock(&bd_pool.lock);
}

/* Runs the job on the pool with up to t threads: 1 if it did, 0 if the
 * caller must run it alone (no arena for the workers, or the pool busy).
 * *started: workers were created for this call. */
static int bd_pool_for(size_t n, size_t nchunks, int t, bd_chunk_fn fn,
                       bd_reduce_fn reduce, size_t slot_bytes, void *ctx,
                       int *started) {
  pthread_once(&bd_fork_once, bd_register_fork);
  bd_arena *top = bd__arena_own();
  if (!bd__arena_reserve_children(top, (size_t)t - 1))
    return 0;
  /* Before taking the pool: a failure here calls the fail hook directly,
   * and a hook that longjmps leaves nothing held. */
  bd_arena_pos pos = bd_arena_save(top);
  slot_bytes = (slot_bytes + 63) & ~(size_t)63; /* each slot 64-aligned */
  bd_job j = {.n = n,
              .nchunks = nchunks,
              .slot_bytes = slot_bytes,
              .fn = fn,
              .ctx = ctx,
              .top = top};
  if (slot_bytes)
    j.slots = bd_arena_alloc(top, nchunks * slot_bytes);
  atomic_init(&j.next, 0);
  atomic_init(&j.stop, 0);
  atomic_init(&j.ran, 0);
  atomic_init(&j.finished, 0);
  int others = atomic_fetch_add(&bd_large_calls, 1);
  if (others > 0 || !bd_take_pool(&j, t, started)) {
    atomic_fetch_sub(&bd_large_calls, 1);
    bd_arena_restore(top, pos);
    return 0;
  }
  bd_participate(&j, 0);
  bd_release_pool(&j);
  atomic_fetch_sub(&bd_large_calls, 1);
  bd_last_threads = atomic_load(&j.ran);
  if (j.failed) {
    bd_arena_restore(top, pos);
    bd__arena_fail(top, j.msg);
  }
  if (reduce)
    for (size_t c = 0; c < nchunks; c++)
      reduce(ctx, j.slots + c * slot_bytes);
  bd_arena_restore(top, pos);
  return 1;
}

void bd_parallel_for(size_t n, bd_chunk_fn fn, bd_reduce_fn reduce,
                     size_t slot_bytes, void *ctx, int flags) {
  size_t nchunks = n / BD_CHUNK + (n % BD_CHUNK != 0);
  int large = n >= BD_PARALLEL_MIN_N && !(flags & BD_PAR_SERIAL);
  int t = large ? bd_get_num_threads() : 1;
  if ((size_t)t > nchunks)
    t = (int)nchunks;
  bd_tune *e = large ? bd_tune_of(fn, n) : NULL;
  const bd_tune_clock *clk = e ? bd__arena_clock(bd__arena_own()) : NULL;
  int way = atomic_load_explicit(&bd_polling, memory_order_relaxed) ? 1 : 2;
  int started = 0, pool = t > 1 && bd_tune_pool(e, way);
  uint64_t t0 = e ? bd_tune_now(clk) : 0;
  if (!pool ||
      !bd_pool_for(n, nchunks, t, fn, reduce, slot_bytes, ctx, &started)) {
    pool = 0;
    bd_serial(n, fn, reduce, slot_bytes, ctx);
  }
  if (e && !started)
    bd_tune_note(e, pool ? way : 0, bd_tune_now(clk) - t0, n);
}
