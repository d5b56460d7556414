/* Globals written on some paths only, as old numeric C leaves a status flag
 * or the last pivot in one (`if (x < 0) { domain_err = 1; return NAN; }`):
 * after NAME_batched, NAME_grad, NAME_jvp and NAME_hvp the global holds what
 * the scalar loop leaves in it, the value of the last example that wrote it
 * (the highest index among the writers), or its old value when no example
 * wrote it. Writers placed at n - 1, in the middle only, in the first chunk
 * only, at random, everywhere and nowhere; n = 0, 1, W - 1, W, W + 1, a few
 * chunks (BD_CHUNK) and a batch large enough for threads, on 1 and 2 threads
 * (identical results); written directly, in a helper, in a loop, read back
 * after the write on the same path; double, float, int and _Bool globals;
 * lanes in sorted order (BD_PACKED). Return values bit for bit against the
 * scalar function; gradients against Richardson-extrapolated central
 * differences (exec_fd.h), the tangents against the gradient. */
#include "exec_fd.h"

#include "../common/test_filter.h"

int DOMAIN_ERR; /* a status flag: 1 where an example was out of domain */
double ERR_ARG; /* and its argument */
double PIVOT;   /* written in a helper, where x > c */
double SCALE;   /* written, then read back, on the same path */
float LASTF;    /* a float global, 32-bit lanes */
_Bool NEG_SEEN; /* a _Bool global */
int PK_LAST;    /* written in a loop, lanes in sorted order */
int LASTI;      /* written on every path, in a loop of varying length */
double LASTBIG; /* written on some paths, in that loop */

static void note_pivot(double v) { PIVOT = v; }

BATCHDIFF BD_JVP BD_HVP double gp_main(double x, BD_UNIFORM double c) {
  if (x < 0.0) {
    DOMAIN_ERR = 1;
    ERR_ARG = x;
    return NAN;
  }
  if (x > c)
    note_pivot(x * c);
  return sqrt(x) * c + x * x;
}

BATCHDIFF double gp_scale(double x, double c) {
  double r = c * x;
  if (x > 1.0) {
    SCALE = x * x;
    r = SCALE * c + r;
  }
  return r;
}

BATCHDIFF float gp_f(float x) {
  float y = x * 0.5f;
  if (x > 2.0f)
    LASTF = y;
  if (x < 0.0f)
    NEG_SEEN = 1;
  return y * x;
}

BD_BATCH double gp_pk(BD_PACKED const double *a, int len) {
  double s = 0.0;
  for (int i = 0; i < len; i++) {
    s += a[i];
    if (a[i] < -100.0)
      PK_LAST = i + 1000 * len;
  }
  return s;
}

/* The loop runs n times per example (at least once): LASTI is written on
 * every path, but a lane whose loop ended must keep its value while the
 * others go on. */
BD_BATCH double gp_loop(double x, int n) {
  double s = 0.0;
  int i = 0;
  do {
    LASTI = i;
    if (x * i > 10.0)
      LASTBIG = x * i;
    s += x;
    i++;
  } while (i < n);
  return s;
}

/* Slow enough per example that a batch of BD_PARALLEL_MIN_N examples
 * takes the pool's second thread. */
int SLOW_ERR;
BD_BATCH double gp_slow(double x, int k) {
  double s = x;
  for (int i = 0; i < k; i++)
    s = sin(s) + x;
  if (x < 0.0)
    SLOW_ERR = (int)(x * -1000.0);
  return s;
}

/* ---- where the writers are ------------------------------------------------
 */

enum { P_NONE, P_LAST, P_MIDDLE, P_FIRST_CHUNK, P_RANDOM, P_ALL, N_PATTERNS };

/* Whether example b of n writes, for pattern p. */
static int writes(int p, size_t b, size_t n, rng_t *rng) {
  switch (p) {
  case P_LAST:
    return b == n - 1 || rng_below(rng, 50) == 0;
  case P_MIDDLE:
    return b == n / 2;
  case P_FIRST_CHUNK:
    return b < BD_CHUNK && rng_below(rng, 3) == 0;
  case P_RANDOM:
    return rng_below(rng, 4) == 0;
  case P_ALL:
    return 1;
  default:
    return 0;
  }
}

static const size_t sizes[] = {0,
                               1,
                               WD - 1,
                               WD,
                               WD + 1,
                               WF - 1,
                               WF + 1,
                               2 * WF + 3,
                               1000,
                               BD_CHUNK,
                               BD_CHUNK + 1,
                               3 * BD_CHUNK + 5,
                               BD_PARALLEL_MIN_N + 1001};
#define N_SIZES (sizeof sizes / sizeof sizes[0])

static double *dbuf(size_t n) { return gp_alloc((n ? n : 1) * sizeof(double)); }

static void same_d(const char *what, size_t n, int p, int threads, double got,
                   double want) {
  if (!same_bits_or_nan(&got, &want, sizeof want, 1)) {
    print_error("%s: n=%zu pattern=%d threads=%d ", what, n, p, threads);
    PV("got", got);
    PV("want", want);
    fail();
  }
}
static void same_i(const char *what, size_t n, int p, int threads, long got,
                   long want) {
  if (got != want) {
    print_error("%s: n=%zu pattern=%d threads=%d: %ld, want %ld\n", what, n, p,
                threads, got, want);
    fail();
  }
}

/* ---- gp_main: a status flag and its argument, a pivot in a helper -------- */

static void reset_main(void) {
  DOMAIN_ERR = -7;
  ERR_ARG = -12345.0;
  PIVOT = 6789.0;
}

static void check_main_globals(const char *what, size_t n, int p, int threads,
                               int derr, double earg, double piv) {
  same_i(what, n, p, threads, DOMAIN_ERR, derr);
  same_d(what, n, p, threads, ERR_ARG, earg);
  same_d(what, n, p, threads, PIVOT, piv);
}

static double s_main(double x, const void *ctx) {
  return gp_main(x, *(const double *)ctx);
}

static void run_main(size_t n, int p, rng_t *rng, fd_count *fc) {
  const double c = 2.0;
  double *x = dbuf(n), *want = dbuf(n), *r = dbuf(n), *dx = dbuf(n);
  double *dx2 = dbuf(n), *t = dbuf(n), *tr = dbuf(n), *hx = dbuf(n);
  double *ones = dbuf(n);
  for (size_t b = 0; b < n; b++) {
    /* below c: no pivot; pivot writers above c; domain writers below 0 */
    x[b] = writes(p, b, n, rng) ? rng_range(rng, 2.5, 6.0)
                                : rng_range(rng, 0.1, 1.9);
    if (writes((p + 2) % N_PATTERNS, b, n, rng))
      x[b] = -rng_range(rng, 0.5, 3.0);
    ones[b] = 1.0;
  }
  reset_main();
  for (size_t b = 0; b < n; b++)
    want[b] = gp_main(x[b], c);
  int derr = DOMAIN_ERR;
  double earg = ERR_ARG, piv = PIVOT;
  for (int threads = 1; threads <= 2; threads++) {
    bd_set_num_threads(threads);
    reset_main();
    gp_main_batched(n, x, c, r);
    check_main_globals("gp_main_batched", n, p, threads, derr, earg, piv);
    for (size_t b = 0; b < n; b++)
      same_d("gp_main_batched value", n, p, threads, r[b], want[b]);
    reset_main();
    double dc = 0.0;
    gp_main_grad(n, x, c, r, NULL, threads == 1 ? dx : dx2, &dc);
    check_main_globals("gp_main_grad", n, p, threads, derr, earg, piv);
    for (size_t b = 0; b < n; b++)
      same_d("gp_main_grad value", n, p, threads, r[b], want[b]);
    reset_main();
    gp_main_jvp(n, x, c, ones, NULL, r, t);
    check_main_globals("gp_main_jvp", n, p, threads, derr, earg, piv);
    reset_main();
    gp_main_hvp(n, x, c, ones, NULL, tr, NULL, NULL, NULL, hx, NULL);
    check_main_globals("gp_main_hvp", n, p, threads, derr, earg, piv);
  }
  bd_set_num_threads(0);
  for (size_t b = 0; b < n; b++) {
    /* the thread count changes nothing; the tangent is the gradient */
    same_d("gp_main_grad d_x 1 vs 2 threads", n, p, 2, dx2[b], dx[b]);
    if (!(fabs(t[b] - dx[b]) <= 1e-13 * fabs(dx[b])) &&
        !(isnan(t[b]) && isnan(dx[b]))) {
      print_error("gp_main_jvp: x=%.17g t=%.17g d_x=%.17g\n", x[b], t[b],
                  dx[b]);
      fail();
    }
    if (b % 97 == 0 && x[b] >= 0.0)
      fd_check(fc, "gp_main", s_main, &c, x[b], dx[b]);
  }
}

static void diff_gp_main(void **state_) {
  (void)state_;
  rng_t rng = {name_seed("gp_main")};
  fd_count fc = {0, 16};
  for (size_t s = 0; s < N_SIZES; s++)
    for (int p = 0; p < N_PATTERNS; p++) {
      run_main(sizes[s], p, &rng, &fc);
      gp_reset();
    }
  fd_expect(&fc, "gp_main", 300);
}

/* ---- gp_scale: written, then read back on the same path -------------------
 */

static double s_scale(double x, const void *ctx) {
  return gp_scale(x, *(const double *)ctx);
}

static void diff_gp_scale(void **state_) {
  (void)state_;
  rng_t rng = {name_seed("gp_scale")};
  fd_count fc = {0, 16};
  for (size_t s = 0; s < N_SIZES; s++)
    for (int p = 0; p < N_PATTERNS; p++) {
      size_t n = sizes[s];
      double *x = dbuf(n), *c = dbuf(n), *r = dbuf(n), *dx = dbuf(n);
      double *dc = dbuf(n);
      for (size_t b = 0; b < n; b++) {
        x[b] = writes(p, b, n, &rng) ? rng_range(&rng, 1.1, 4.0)
                                     : rng_range(&rng, -3.0, 0.9);
        c[b] = rng_range(&rng, -2.0, 2.0);
      }
      SCALE = 42.0;
      for (size_t b = 0; b < n; b++)
        (void)gp_scale(x[b], c[b]);
      double want = SCALE;
      for (int threads = 1; threads <= 2; threads++) {
        bd_set_num_threads(threads);
        SCALE = 42.0;
        gp_scale_batched(n, x, c, r);
        same_d("gp_scale_batched SCALE", n, p, threads, SCALE, want);
        for (size_t b = 0; b < n; b++)
          same_d("gp_scale_batched value", n, p, threads, r[b],
                 gp_scale(x[b], c[b]));
        SCALE = 42.0;
        memset(dx, 0, n * sizeof *dx); /* the gradient is added to d_x */
        gp_scale_grad(n, x, c, r, NULL, dx, dc);
        same_d("gp_scale_grad SCALE", n, p, threads, SCALE, want);
      }
      bd_set_num_threads(0);
      for (size_t b = 0; b < n; b += 31)
        fd_check(&fc, "gp_scale", s_scale, &c[b], x[b], dx[b]);
      gp_reset();
    }
  fd_expect(&fc, "gp_scale", 300);
}

/* ---- gp_f: float and _Bool globals, 32-bit lanes --------------------------
 */

static void diff_gp_f(void **state_) {
  (void)state_;
  rng_t rng = {name_seed("gp_f")};
  for (size_t s = 0; s < N_SIZES; s++)
    for (int p = 0; p < N_PATTERNS; p++) {
      size_t n = sizes[s];
      float *x = gp_alloc((n ? n : 1) * sizeof(float));
      float *r = gp_alloc((n ? n : 1) * sizeof(float));
      float *dx = gp_alloc((n ? n : 1) * sizeof(float));
      for (size_t b = 0; b < n; b++) {
        x[b] = writes(p, b, n, &rng) ? (float)rng_range(&rng, 2.5, 9.0)
                                     : (float)rng_range(&rng, 0.0, 1.9);
        if (writes((p + 3) % N_PATTERNS, b, n, &rng))
          x[b] = -x[b] - 1.0f;
      }
      LASTF = -99.5f;
      NEG_SEEN = 0;
      for (size_t b = 0; b < n; b++)
        (void)gp_f(x[b]);
      float want = LASTF;
      _Bool want_neg = NEG_SEEN;
      for (int threads = 1; threads <= 2; threads++)
        for (int k = 0; k < 2; k++) {
          bd_set_num_threads(threads);
          LASTF = -99.5f;
          NEG_SEEN = 0;
          memset(dx, 0, n * sizeof *dx);
          if (k == 0)
            gp_f_batched(n, x, r);
          else
            gp_f_grad(n, x, r, NULL, dx);
          const char *w = k ? "gp_f_grad" : "gp_f_batched";
          same_d(w, n, p, threads, LASTF, want);
          same_i(w, n, p, threads, NEG_SEEN, want_neg);
          for (size_t b = 0; b < n; b++) {
            float v = gp_f(x[b]);
            if (!same_bits_or_nan(&r[b], &v, sizeof v, 1)) {
              print_error("%s value: x=%.9g\n", w, (double)x[b]);
              fail();
            }
            if (k == 1 && dx[b] != x[b]) { /* d(x * x / 2) = x */
              print_error("gp_f_grad: x=%.9g d_x=%.9g\n", (double)x[b],
                          (double)dx[b]);
              fail();
            }
          }
        }
      bd_set_num_threads(0);
      gp_reset();
    }
}

/* ---- gp_pk: a write in a loop, lanes sorted by length ---------------------
 */

static void diff_gp_pk(void **state_) {
  (void)state_;
  rng_t rng = {name_seed("gp_pk")};
  enum { MAXL = 6 };
  for (size_t s = 0; s < N_SIZES; s++)
    for (int p = 0; p < N_PATTERNS; p++) {
      size_t n = sizes[s];
      double *a = dbuf(n * MAXL), *r = dbuf(n);
      size_t *off = gp_alloc((n ? n : 1) * sizeof(size_t));
      int *len = gp_alloc((n ? n : 1) * sizeof(int));
      size_t at = 0;
      for (size_t b = 0; b < n; b++) {
        len[b] = 1 + rng_below(&rng, MAXL);
        off[b] = at;
        int w = writes(p, b, n, &rng);
        for (int i = 0; i < len[b]; i++)
          a[at + (size_t)i] = w && (i == len[b] - 1 || rng_below(&rng, 3) == 0)
                                  ? -rng_range(&rng, 101.0, 200.0)
                                  : rng_range(&rng, -5.0, 5.0);
        at += (size_t)len[b];
      }
      PK_LAST = -1;
      for (size_t b = 0; b < n; b++)
        (void)gp_pk(a + off[b], len[b]);
      int want = PK_LAST;
      for (int threads = 1; threads <= 2; threads++) {
        bd_set_num_threads(threads);
        PK_LAST = -1;
        gp_pk_batched(n, a, off, len, r);
        same_i("gp_pk_batched PK_LAST", n, p, threads, PK_LAST, want);
        for (size_t b = 0; b < n; b++)
          same_d("gp_pk_batched value", n, p, threads, r[b],
                 gp_pk(a + off[b], len[b]));
      }
      bd_set_num_threads(0);
      gp_reset();
    }
}

/* ---- gp_loop: writes in a loop whose trip count varies per example ------- */

static void diff_gp_loop(void **state_) {
  (void)state_;
  rng_t rng = {name_seed("gp_loop")};
  for (size_t s = 0; s < N_SIZES; s++)
    for (int p = 0; p < N_PATTERNS; p++) {
      size_t n = sizes[s];
      double *x = dbuf(n), *r = dbuf(n);
      int *cnt = gp_alloc((n ? n : 1) * sizeof(int));
      for (size_t b = 0; b < n; b++) {
        cnt[b] = 1 + rng_below(&rng, 9);
        /* x * i > 10 for some i < cnt only where the pattern writes */
        x[b] = writes(p, b, n, &rng) ? rng_range(&rng, 11.0, 20.0)
                                     : rng_range(&rng, -3.0, 1.2);
      }
      LASTI = -5;
      LASTBIG = -55.0;
      for (size_t b = 0; b < n; b++)
        (void)gp_loop(x[b], cnt[b]);
      int want_i = LASTI;
      double want_big = LASTBIG;
      for (int threads = 1; threads <= 2; threads++) {
        bd_set_num_threads(threads);
        LASTI = -5;
        LASTBIG = -55.0;
        gp_loop_batched(n, x, cnt, r);
        same_i("gp_loop_batched LASTI", n, p, threads, LASTI, want_i);
        same_d("gp_loop_batched LASTBIG", n, p, threads, LASTBIG, want_big);
        for (size_t b = 0; b < n; b++)
          same_d("gp_loop_batched value", n, p, threads, r[b],
                 gp_loop(x[b], cnt[b]));
      }
      bd_set_num_threads(0);
      gp_reset();
    }
}

/* ---- gp_slow: the chunks run on two threads --------------------------------
 */

static void diff_gp_slow(void **state_) {
  (void)state_;
  rng_t rng = {name_seed("gp_slow")};
  size_t n = BD_PARALLEL_MIN_N + 1001;
  int most = 0;
  for (int p = 0; p < N_PATTERNS; p++)
    for (int rep = 0; rep < 2; rep++) {
      double *x = dbuf(n), *r = dbuf(n);
      int *k = gp_alloc(n * sizeof(int));
      for (size_t b = 0; b < n; b++) {
        k[b] = 150;
        x[b] = writes(p, b, n, &rng) ? -(double)b / 1000.0 - 1.0 : 1.0;
      }
      SLOW_ERR = -1;
      for (size_t b = 0; b < n; b++)
        (void)gp_slow(x[b], k[b]);
      int want = SLOW_ERR;
      bd_set_num_threads(2);
      SLOW_ERR = -1;
      gp_slow_batched(n, x, k, r);
      if (bd_parallel_last_threads() > most)
        most = bd_parallel_last_threads();
      bd_set_num_threads(0);
      same_i("gp_slow_batched SLOW_ERR", n, p, 2, SLOW_ERR, want);
      gp_reset();
    }
  /* Whether the pool took chunks depends on the load (runtime.md, "Pool
   * or not"): said, not asserted. */
  print_message("gp_slow: at most %d thread(s) ran one call's chunks\n", most);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T_(gp_main), T_(gp_scale), T_(gp_f), T_(gp_pk), T_(gp_loop), T_(gp_slow),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_global_paths", tests, NULL, NULL);
}
