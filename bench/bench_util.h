/* Timing and reporting helpers shared by the bench programs (C and C++).
 *
 * Usage: bd_bench_pair(base, ctx, ours, ctx, reps, bd_bench_next_slice, &sl,
 *                      &base_s, &ours_s);      medians, timed alternately
 *        bd_bench_row("float", "logistic_loss", base_s, ours_s, n, ">= 12x");
 * Every program prints its ratios as lines
 *   ROW|<group>|<case>|<baseline ns/ex>|<batchdiff ns/ex>|<ratio>|<target>
 * which bench/run.sh collects into one table; the ratio is baseline time over
 * batchdiff time (higher is better), except for cost rows
 * (bd_bench_cost_row), whose ratio is batchdiff time over the reference. */
#ifndef BD_BENCH_UTIL_H
#define BD_BENCH_UTIL_H

/* clock_gettime: include this header before any system header. */
#if !defined(_POSIX_C_SOURCE) && !defined(__cplusplus)
#define _POSIX_C_SOURCE 200112L
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifdef __cplusplus
extern "C" {
#endif

static inline double bd_bench_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static inline int bd_bench_cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Times a and b in alternation (a, b, a, b, ...; one warm-up call each) and
 * stores the median seconds of each: load from other processes then affects
 * both sides alike. next(nctx), if not NULL, runs before each pair (outside
 * the clock), e.g. to move on to the next slice of the inputs. */
static inline void bd_bench_pair(void (*fa)(void *), void *ca,
                                 void (*fb)(void *), void *cb, int reps,
                                 void (*next)(void *), void *nctx, double *ta,
                                 double *tb) {
  double t[2][256];
  if (reps > 256)
    reps = 256;
  if (reps < 1)
    reps = 1;
  fa(ca);
  fb(cb);
  for (int k = 0; k < reps; k++) {
    if (next)
      next(nctx);
    double t0 = bd_bench_now();
    fa(ca);
    double t1 = bd_bench_now();
    fb(cb);
    double t2 = bd_bench_now();
    t[0][k] = t1 - t0;
    t[1][k] = t2 - t1;
  }
  qsort(t[0], (size_t)reps, sizeof t[0][0], bd_bench_cmp);
  qsort(t[1], (size_t)reps, sizeof t[1][0], bd_bench_cmp);
  *ta = t[0][reps / 2];
  *tb = t[1][reps / 2];
}

/* Slices of an input pool: each timed run reads the next n examples of a
 * pool of pool examples (pool a multiple of n), so no run sees the inputs
 * of the run before. That keeps libm's data-dependent branches in the scalar
 * baseline as unpredictable as with fresh data (rerunning one set of 4096
 * inputs made the scalar logistic_loss loop 13% faster: the branch predictor
 * learns it), while each run stays short enough (< 1 ms for most cases) to
 * dodge preemption on a busy machine (runs over 1M examples were preempted
 * and gave ratios off by up to 3x under load). */
typedef struct {
  size_t *off, n, pool;
} bd_bench_slices;

static inline void bd_bench_next_slice(void *v) {
  bd_bench_slices *s = (bd_bench_slices *)v;
  *s->off += s->n;
  if (*s->off + s->n > s->pool)
    *s->off = 0;
}

/* One result line: baseline and batchdiff seconds for n examples. */
static inline void bd_bench_row(const char *group, const char *name,
                                double base_s, double ours_s, size_t n,
                                const char *target) {
  double k = 1e9 / (double)n;
  printf("ROW|%s|%s|%.3f|%.3f|%.2f|%s\n", group, name, base_s * k, ours_s * k,
         base_s / ours_s, target);
}

/* A cost line: ratio is batchdiff time over the reference time (lower is
 * better), e.g. gradient cost relative to the batched primal. */
static inline void bd_bench_cost_row(const char *group, const char *name,
                                     double ref_s, double ours_s, size_t n,
                                     const char *target) {
  double k = 1e9 / (double)n;
  printf("ROW|%s|%s|%.3f|%.3f|%.2f|%s\n", group, name, ref_s * k, ours_s * k,
         ours_s / ref_s, target);
}

/* splitmix64: a deterministic generator with its state in the caller. */
typedef struct {
  uint64_t s;
} bd_bench_rng;

static inline double bd_bench_uniform(bd_bench_rng *g, double lo, double hi) {
  uint64_t z = (g->s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return lo + (hi - lo) * (double)(z >> 11) * 0x1p-53;
}

/* Parses "[n] [reps] [pool]" from argv (pool is rounded up to a multiple
 * of n); exits with a usage line on bad input. */
static inline void bd_bench_args(int argc, char **argv, size_t *n, int *reps,
                                 size_t *pool) {
  for (int i = 1; i < argc && i < 4; i++) {
    char *end;
    unsigned long long v = strtoull(argv[i], &end, 10);
    if (*end || v == 0) {
      fprintf(stderr,
              "usage: %s [n examples per run] [repetitions] [pool size]\n",
              argv[0]);
      exit(2);
    }
    if (i == 1)
      *n = (size_t)v;
    else if (i == 2)
      *reps = (int)(v > 256 ? 256 : v);
    else
      *pool = (size_t)v;
  }
  if (*pool < *n)
    *pool = *n;
  *pool = (*pool + *n - 1) / *n * *n;
}

static inline void *bd_bench_alloc(size_t n, size_t size) {
  /* 64-byte aligned, zeroed; (n * size rounded up to the alignment) */
  size_t bytes = (n * size + 63) / 64 * 64;
  void *p = aligned_alloc(64, bytes ? bytes : 64);
  if (!p) {
    fprintf(stderr, "bench: out of memory\n");
    exit(2);
  }
  for (size_t i = 0; i < bytes; i++)
    ((unsigned char *)p)[i] = 0;
  return p;
}

/* Largest |a - b| / (|b| + scale) over n pairs (NaN if any pair is NaN
 * where the other is not). */
static inline double bd_bench_maxrel_d(const double *a, const double *b,
                                       size_t n, double scale) {
  double m = 0.0;
  for (size_t i = 0; i < n; i++) {
    double d = a[i] - b[i], r;
    if (a[i] != a[i] && b[i] != b[i])
      continue;
    r = (d < 0 ? -d : d) / ((b[i] < 0 ? -b[i] : b[i]) + scale);
    if (!(r <= m))
      m = r;
  }
  return m;
}
static inline double bd_bench_maxrel_f(const float *a, const float *b,
                                       size_t n, double scale) {
  double m = 0.0;
  for (size_t i = 0; i < n; i++) {
    double x = a[i], y = b[i], d = x - y, r;
    if (x != x && y != y)
      continue;
    r = (d < 0 ? -d : d) / ((y < 0 ? -y : y) + scale);
    if (!(r <= m))
      m = r;
  }
  return m;
}

/* Prints a check line and returns 1 if err exceeds tol (or is NaN). */
static inline int bd_bench_check(const char *what, double err, double tol) {
  int bad = !(err <= tol);
  printf("check  %-44s max err %.2e (tol %.0e) %s\n", what, err, tol,
         bad ? "FAIL" : "ok");
  return bad;
}

#ifdef __cplusplus
}
#endif

#endif /* BD_BENCH_UTIL_H */
