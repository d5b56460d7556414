/* The thread pool's fixed cost per call (issue 7), without the plugin:
 * bd_parallel_for over a chunk function that busy-waits a set time per
 * chunk of BD_CHUNK examples, so nothing but the pool differs between 1 and
 * k threads. For each n and each calling pattern, 1 thread against k
 * threads, timed alternately (median), and a timeline of the k-thread
 * calls: the median time from the call's start to the first chunk a worker
 * started (its wake-up), the workers' share of the chunks, the calls in
 * which no worker ran a chunk, and the median time from the last chunk's
 * end to the call's return (waiting for the workers to leave).
 * Patterns: "alt" (a 1-thread call between k-thread calls, as bench_threads
 * times them), "b2b" (k-thread calls back to back, against 1-thread calls
 * back to back), "idle" (1 ms asleep before each call).
 * Usage: bench_pool [us per chunk] [reps] [k]     defaults: 2 101 2
 * Rows: ROW|pool k|<pattern> n=<n>|<1-thread ns/ex>|<k-thread ns/ex>|<x>|
 *       and a "timeline" line after each. */
#include "bench_util.h"

#include <batchdiff/parallel.h>
#include <pthread.h>
#include <string.h>

enum { MAXCH = 512, MAXREPS = 256 };

typedef struct {
  double us; /* busy time per full chunk */
  pthread_t caller;
  double start[MAXCH], end[MAXCH];
  int worker[MAXCH];
} rec_t;

static void busy_chunk(void *v, size_t b, size_t e, void *slot) {
  rec_t *r = v;
  (void)slot;
  double t0 = bd_bench_now();
  double until = t0 + r->us * 1e-6 * (double)(e - b) / BD_CHUNK;
  while (bd_bench_now() < until)
    ;
  /* fn may get several chunks in one call on one thread (no slots). */
  for (size_t c = b / BD_CHUNK; c * BD_CHUNK < e && c < MAXCH; c++) {
    r->start[c] = t0;
    r->end[c] = bd_bench_now();
    r->worker[c] = !pthread_equal(pthread_self(), r->caller);
  }
}

typedef struct {
  rec_t *r;
  size_t n;
  int threads;
  double wake, share, tail; /* of the last call; wake < 0: no worker */
} call_t;

static void run(void *v) {
  call_t *c = v;
  bd_set_num_threads(c->threads);
  size_t nch = (c->n + BD_CHUNK - 1) / BD_CHUNK;
  double t0 = bd_bench_now();
  bd_parallel_for(c->n, busy_chunk, NULL, 0, c->r, 0);
  double t1 = bd_bench_now();
  double first = -1, last = 0;
  int w = 0;
  for (size_t i = 0; i < nch && i < MAXCH; i++) {
    if (c->r->worker[i]) {
      w++;
      if (first < 0 || c->r->start[i] < first)
        first = c->r->start[i];
    }
    if (c->r->end[i] > last)
      last = c->r->end[i];
  }
  c->wake = first < 0 ? -1 : first - t0;
  c->share = (double)w / (double)nch;
  c->tail = t1 - last;
}

static void nap(void *v) {
  (void)v;
  struct timespec ts = {0, 1000000};
  nanosleep(&ts, NULL);
}

static double median(double *x, int m) {
  if (m == 0)
    return -1;
  qsort(x, (size_t)m, sizeof *x, bd_bench_cmp);
  return x[m / 2];
}

/* pattern 0 alt, 1 b2b, 2 idle */
static void measure(rec_t *r, size_t n, int k, int reps, int pattern) {
  call_t c1 = {r, n, 1, 0, 0, 0}, ck = {r, n, k, 0, 0, 0};
  double t1[MAXREPS], tk[MAXREPS], wake[MAXREPS], tail[MAXREPS], share = 0;
  int woke = 0;
  run(&c1);
  run(&ck);
  for (int i = 0; i < reps; i++) {
    double a, b, e;
    if (pattern == 1) { /* b2b: a pair of calls, the second timed */
      run(&c1);
      a = bd_bench_now();
      run(&c1);
      b = bd_bench_now();
      run(&ck);
      double b2 = bd_bench_now();
      run(&ck);
      e = bd_bench_now();
      b = b - a, a = 0, e = e - b2;
    } else {
      if (pattern == 2)
        nap(NULL);
      a = bd_bench_now();
      run(&c1);
      b = bd_bench_now();
      if (pattern == 2)
        nap(NULL);
      double b2 = bd_bench_now();
      run(&ck);
      e = bd_bench_now() - b2;
      b = b - a, a = 0;
    }
    t1[i] = b;
    tk[i] = e;
    tail[i] = ck.tail;
    share += ck.share;
    if (ck.wake >= 0)
      wake[woke++] = ck.wake;
  }
  static const char *names[] = {"alt", "b2b", "idle"};
  char group[32], name[64];
  snprintf(group, sizeof group, "pool %d", k);
  snprintf(name, sizeof name, "%s n=%zu", names[pattern], n);
  bd_bench_row(group, name, median(t1, reps), median(tk, reps), n, "");
  char w[32] = "-";
  if (woke)
    snprintf(w, sizeof w, "%.1f us", median(wake, woke) * 1e6);
  printf("timeline %-14s wake %s (%d of %d calls), worker chunks %.0f%%, "
         "tail %.1f us\n",
         name, w, woke, reps, 100.0 * share / reps, median(tail, reps) * 1e6);
}

int main(int argc, char **argv) {
  double us = argc > 1 ? atof(argv[1]) : 2.0;
  int reps = argc > 2 ? atoi(argv[2]) : 101;
  int k = argc > 3 ? atoi(argv[3]) : 2;
  if (!(us > 0) || reps < 1 || k < 2) {
    fprintf(stderr, "usage: %s [us per chunk] [reps] [threads >= 2]\n",
            argv[0]);
    return 2;
  }
  if (reps > MAXREPS)
    reps = MAXREPS;
  static rec_t r;
  r.us = us;
  r.caller = pthread_self();
  printf("bench_pool: %.2f us per chunk of %d, median of %d calls, 1 vs %d "
         "threads (threshold %d)\n",
         us, BD_CHUNK, reps, k, BD_PARALLEL_MIN_N);
  for (int p = 0; p < 3; p++)
    for (size_t n = BD_PARALLEL_MIN_N; n <= 8 * BD_PARALLEL_MIN_N; n *= 2)
      measure(&r, n, k, reps, p);
  bd_set_num_threads(0);
  return 0;
}
