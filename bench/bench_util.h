/* Timing and reporting helpers shared by the bench programs (C and C++).
 *
 * Usage: double s = bd_bench_time(fn, ctx, reps);   median seconds of reps
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

/* Median wall time in seconds of `reps` calls of fn(ctx) (after one warm-up
 * call). */
static inline double bd_bench_time(void (*fn)(void *), void *ctx, int reps) {
  double t[64];
  if (reps > 64)
    reps = 64;
  if (reps < 1)
    reps = 1;
  fn(ctx);
  for (int k = 0; k < reps; k++) {
    double t0 = bd_bench_now();
    fn(ctx);
    t[k] = bd_bench_now() - t0;
  }
  qsort(t, (size_t)reps, sizeof t[0], bd_bench_cmp);
  return t[reps / 2];
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

/* Parses "[n] [reps]" from argv; exits with a usage line on bad input. */
static inline void bd_bench_args(int argc, char **argv, size_t *n, int *reps) {
  for (int i = 1; i < argc && i < 3; i++) {
    char *end;
    unsigned long long v = strtoull(argv[i], &end, 10);
    if (*end || v == 0) {
      fprintf(stderr, "usage: %s [n examples] [repetitions]\n", argv[0]);
      exit(2);
    }
    if (i == 1)
      *n = (size_t)v;
    else
      *reps = (int)(v > 64 ? 64 : v);
  }
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
