/* Functions computing in long double run per example as the scalar
 * function (docs/calls.md, "Long double locals"), and on the runtime's
 * threads like other batched functions when that scalar run has no effect
 * beyond its result (writes no global or static, calls only the file's
 * functions and the C library's math); else on the calling thread, in the
 * scalar loop's order (docs/abi.md, "Threads").
 *   - th_series: pnt's series shape annotated itself (NAME_batched is one
 *     call of it per example), <math.h> calls and a static const table;
 *   - th_user: a batched function calling such a helper under a
 *     per-example branch, with a per-example trip count;
 *   - th_last: one writing globals (a count, the last example's value): on
 *     the calling thread, the globals as the scalar loop leaves them;
 *   - th_stat, th_fmt: batched functions calling long double helpers that
 *     count their calls in a static local, or call snprintf (a C library
 *     function with effects): on the calling thread, the count as the
 *     scalar loop leaves it.
 * Batches past BD_PARALLEL_MIN_N: bits vs the scalar function for 1, 2 and
 * 3 threads, and until a call ran chunks on 2 threads (the runtime takes
 * the pool or not by measurement, at least every 8th call). */
#include "exec_util.h"

#include "../common/test_filter.h"

#include <batchdiff/batchdiff_rt.h>

#include <time.h>

static const double th_w[4] = {0.5, 0.25, 0.125, 0.0625};

BD_BATCH double th_series(double t, double del, int itrmax) {
  long double p, q, s, xeven, xodd, godd, geven;
  double tnc = 0;
  if (!(t > 0) || !(del > 0) || itrmax < 1)
    return th_w[itrmax & 3];
  double x = t * t / (t * t + 10.0);
  double lambda = del * del;
  p = .5 * exp(-.5 * lambda);
  q = 0.797884560802865355879892119869 * p * del;
  s = .5 - p;
  double a = .5, b = 5.0;
  xodd = x * 0.75;
  godd = 2. * sqrt(x) * (1 - x);
  xeven = 1. - x;
  geven = b * x * xeven;
  tnc = (double)(p * xodd + q * xeven);
  for (int it = 1; it <= itrmax; it++) {
    a += 1.;
    xodd -= godd;
    xeven -= geven;
    godd *= x * (a + b - 1.) / a;
    geven *= x * (a + b - .5) / (a + .5);
    p *= lambda / (2 * it);
    q *= lambda / (2 * it + 1);
    tnc += (double)(p * xodd + q * xeven) * th_w[it & 3];
    s -= p;
    if (s < -1.e-10 || fabs((double)(2 * s * (xodd - godd))) < 1e-12)
      break;
  }
  return tnc + (double)s;
}

static double lsum(double x, int n) {
  long double s = 0, t = 1;
  for (int i = 1; i <= n; i++) {
    t *= (long double)x / (i + 0.5L);
    s += t / i;
  }
  return (double)s;
}

BD_BATCH double th_user(double x, int k) {
  double r = x * x;
  if (x > 0.5)
    r = lsum(x, k) - r;
  return r;
}

static int th_count;
static double th_last_x;

BD_BATCH double th_last(double x) {
  long double s = x;
  th_count++;
  th_last_x = x;
  return (double)(s * s / 3);
}

static int st_calls(int add) {
  static int calls;
  calls += add;
  return calls;
}

static double ld_count(double x) {
  long double s = x;
  st_calls(1);
  return (double)(s / 7 + s * s);
}

BD_BATCH double th_stat(double x) { return x > 0 ? ld_count(x) : -x; }

static double ld_fmt(double x) {
  char buf[32];
  long double s = x;
  int k = snprintf(buf, sizeof buf, "%.3f", x);
  return (double)(s * k) + (buf[0] == '-');
}

BD_BATCH double th_fmt(double x) { return x < 1 ? ld_fmt(x) : x; }

/* ---- checks ------------------------------------------------------------- */

enum { N = 3 * BD_PARALLEL_MIN_N / 2 + 5 };

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void same_all(const char *what, int th, const double *got,
                     const double *want) {
  for (size_t e = 0; e < N; e++)
    if (!same_bits_or_nan(&got[e], &want[e], 8, 1)) {
      print_error("%s threads=%d example %zu: %a, want %a\n", what, th, e,
                  got[e], want[e]);
      fail();
    }
}

static void t_pool(void **state) {
  (void)state;
  rng_t rng = {name_seed("th_series")};
  double *t = malloc(N * 8), *d = malloc(N * 8), *x = malloc(N * 8);
  double *w = malloc(N * 8), *w2 = malloc(N * 8), *r = malloc(N * 8);
  int *it = malloc(N * sizeof(int)), *k = malloc(N * sizeof(int));
  for (size_t e = 0; e < N; e++) {
    t[e] = rng_below(&rng, 8) ? rng_range(&rng, 0.0, 20.0) : gen_d(&rng);
    d[e] = rng_below(&rng, 8) ? rng_range(&rng, 0.0, 30.0) : gen_d(&rng);
    it[e] = rng_below(&rng, 300);
    x[e] = rng_below(&rng, 16) ? rng_range(&rng, -1.0, 3.0) : gen_d(&rng);
    k[e] = rng_below(&rng, 60);
  }
  for (size_t e = 0; e < N; e++) {
    w[e] = th_series(t[e], d[e], it[e]);
    w2[e] = th_user(x[e], k[e]);
  }
  for (int th = 1; th <= 3; th++) {
    bd_set_num_threads(th);
    th_series_batched(N, t, d, it, r);
    same_all("th_series", th, r, w);
    th_user_batched(N, x, k, r);
    same_all("th_user", th, r, w2);
  }
  bd_set_num_threads(2);
  /* A worker may not wake within a call on a loaded machine: keep calling
     (at least 32 calls, then up to 60 s) until one took chunks. */
  int used = 1, used2 = 1;
  double t0 = now_s();
  for (int calls = 0;
       (used < 2 || used2 < 2) && (calls < 32 || now_s() - t0 < 60.0);
       calls++) {
    th_series_batched(N, t, d, it, r);
    if (bd_parallel_last_threads() > used)
      used = bd_parallel_last_threads();
    same_all("th_series", 2, r, w);
    th_user_batched(N, x, k, r);
    if (bd_parallel_last_threads() > used2)
      used2 = bd_parallel_last_threads();
    same_all("th_user", 2, r, w2);
  }
  bd_set_num_threads(0);
  if (used < 2 || used2 < 2) {
    print_error("no call on 2 threads ran chunks on another thread "
                "(th_series %d, th_user %d)\n",
                used, used2);
    fail();
  }
  free(t), free(d), free(x), free(w), free(w2), free(r), free(it), free(k);
}

static void t_serial(void **state) {
  (void)state;
  rng_t rng = {name_seed("th_last")};
  double *x = malloc(N * 8), *w = malloc(N * 8), *r = malloc(N * 8);
  double *w2 = malloc(N * 8);
  for (size_t e = 0; e < N; e++)
    x[e] = rng_range(&rng, -5.0, 5.0);
  th_count = 0;
  for (size_t e = 0; e < N; e++)
    w[e] = th_last(x[e]);
  for (int th = 1; th <= 3; th++) {
    bd_set_num_threads(th);
    for (int calls = 0; calls < 8; calls++) {
      th_count = 0;
      th_last_x = 0;
      th_last_batched(N, x, r);
      same_all("th_last", th, r, w);
      if (bd_parallel_last_threads() != 1 || th_count != N ||
          memcmp(&th_last_x, &x[N - 1], 8) != 0) {
        print_error("th_last threads=%d: %d thread(s), count %d (want %d), "
                    "last %a (want %a)\n",
                    th, bd_parallel_last_threads(), th_count, (int)N, th_last_x,
                    x[N - 1]);
        fail();
      }
    }
  }
  for (size_t e = 0; e < N; e++)
    w[e] = th_fmt(x[e]);
  int want = st_calls(0);
  for (size_t e = 0; e < N; e++)
    w2[e] = th_stat(x[e]);
  want = st_calls(0) - want;
  for (int th = 1; th <= 3; th++) {
    bd_set_num_threads(th);
    for (int calls = 0; calls < 8; calls++) {
      th_fmt_batched(N, x, r);
      same_all("th_fmt", th, r, w);
      int most = bd_parallel_last_threads();
      int before = st_calls(0);
      th_stat_batched(N, x, r);
      same_all("th_stat", th, r, w2);
      if (bd_parallel_last_threads() > most)
        most = bd_parallel_last_threads();
      if (most != 1 || st_calls(0) - before != want) {
        print_error("th_fmt, th_stat threads=%d: %d thread(s), %d calls "
                    "(want %d)\n",
                    th, most, st_calls(0) - before, want);
        fail();
      }
    }
  }
  bd_set_num_threads(0);
  free(x), free(w), free(w2), free(r);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_pool),
      cmocka_unit_test(t_serial),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_long_double_threads", tests, NULL,
                                     NULL);
}
