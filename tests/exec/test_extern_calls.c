/* Calls of functions outside the batched code, made once per example
 * (docs/subset.md, "Calls of outside functions"): error reporters as cephes
 * (mtherr("name", DOMAIN)) and Numerical Recipes (nrerror("...")) write
 * them, a variadic logger, and functions declared in a header whose bodies
 * are elsewhere (extern_calls.h), returning int, _Bool, long or void.
 * Every callee records its calls in a multiset hash (order-independent) and
 * a count. For every n of test_ns and 40000 (threads), NAME_batched and
 * NAME_grad must make exactly the calls the scalar loop makes, with the
 * same arguments: a lane that is off (a tail, a branch, a finished loop, a
 * ragged example past its end) must make none. Results bit for bit (log
 * within its bound); the gradients against their closed forms and central
 * differences; ragged arrays end at guard pages. */
#include "exec_util.h"

#include "../common/test_filter.h"
#include "extern_calls.h"

/* ---- the callees' record ------------------------------------------------ */

static uint64_t calls, hash;

static uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}
static void record(uint64_t tag, uint64_t v) {
  calls++;
  hash += mix(tag * 0x9e3779b97f4a7c15ULL ^ mix(v));
}
static uint64_t bits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}
static uint64_t text(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  while (*s)
    h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
  return h;
}

/* cephes' mtherr (mtherr.c prints the message and sets merror). */
#define DOMAIN 1
#define SING 2
#define MAXNUM 1.79769313486231570815E308
int merror = 0;
int mtherr(char *name, int code) {
  record(1, text(name) + (uint64_t)code);
  merror = code;
  return 0;
}

/* NR's nrerror (nrutil.c prints to stderr and exits). */
void nrerror(char error_text[]) { record(2, text(error_text)); }

/* A logger with a format, as debugging code calls one. */
static void note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = va_arg(ap, int);
  double x = va_arg(ap, double);
  va_end(ap);
  record(3, text(fmt) ^ mix((uint64_t)k) ^ bits(x));
}

/* ---- annotated functions ------------------------------------------------ */

/* cephes style: report the domain error, return the limit (NAME_jvp and
 * NAME_hvp too). */
BATCHDIFF BD_JVP BD_HVP double clamp_log(double x) {
  if (x < 0.0) {
    mtherr("clamp_log", DOMAIN);
    return -MAXNUM;
  }
  if (x == 0.0) {
    mtherr("clamp_log", SING);
    return -MAXNUM;
  }
  return log(x);
}

/* Newton for sqrt(a): each example calls once per iteration, and stops
 * when the callee's answer says so (its result is used). */
BATCHDIFF double newton(double a, int n, int limit) {
  double x = 1.0;
  int k;
  for (k = 0; k < n; k++) {
    x = 0.5 * (x + a / x);
    if (ext_tally(k, x) >= limit)
      break;
  }
  if (k == n)
    note("newton: %d steps, x = %g\n", k, x);
  return x;
}

/* NR style, ragged: a message for each negative element. */
BATCHDIFF double sumsq(int n, const double x[n], double w) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    if (x[i] < 0.0)
      nrerror("negative element in sumsq");
    s += w * x[i] * x[i];
  }
  return s;
}

/* 32-bit lanes: _Bool and void results, a float argument. */
__attribute__((batch)) int flags(float x, int k) {
  int r = k;
  if (x > 0.5f && ext_flag(x))
    r += 10;
  if (k == 3)
    ext_void();
  return r;
}

/* A long result (64-bit lanes), a uniform argument. */
__attribute__((batch)) long widen(long k, BD_UNIFORM long u) {
  return k > 0 ? ext_wide(k + u) : -1;
}

/* ---- the header's functions, defined here after their callers ----------- */

int ext_tally(int code, double x) {
  record(4, (uint64_t)code ^ bits(x));
  return code + 1;
}
_Bool ext_flag(float x) {
  record(5, (uint64_t)(int64_t)(x * 1000.0f));
  return x < 0.75f;
}
long ext_wide(long k) {
  record(6, (uint64_t)k);
  return 3 * k;
}
void ext_void(void) { record(7, 0); }

/* ---- tests -------------------------------------------------------------- */

static const size_t ns[] = {0,  1,      WF - 1,     WF,         WF + 1, WD - 1,
                            WD, WD + 1, 2 * WF + 3, 2 * WD + 3, 1000,   40000};
#define NNS (sizeof ns / sizeof ns[0])

typedef struct {
  uint64_t calls, hash;
} tally;
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

static int close_to(double got, double want, double tol) {
  return fabs(got - want) <= tol * (1.0 + fabs(want));
}

static void t_clamp_log(void **state) {
  (void)state;
  rng_t rng = {name_seed("clamp_log")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *d = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      unsigned c = rng_below(&rng, 4);
      x[e] = c == 0   ? -rng_range(&rng, 0.1, 2.0)
             : c == 1 ? 0.0
                      : rng_range(&rng, 0.01, 10.0);
      d[e] = 0.0;
    }
    gp_seal(x);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = clamp_log(x[e]);
    tally want = take();
    clamp_log_batched(n, x, r);
    tally got = take();
    SAME_CALLS("clamp_log_batched", n, want, got);
    for (size_t e = 0; e < n; e++)
      assert_true(close_to(r[e], r2[e], 1e-15)); /* log: 1 ULP */
    clamp_log_grad(n, x, r, NULL, d);
    got = take();
    SAME_CALLS("clamp_log_grad", n, want, got);
    double *t = gp_alloc(n * 8), *dt = gp_alloc(n * 8), *h = gp_alloc(n * 8);
    double *d2 = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      t[e] = 0.5 + (double)(e % 3), h[e] = d2[e] = 0.0;
    clamp_log_jvp(n, x, t, r, dt);
    got = take();
    SAME_CALLS("clamp_log_jvp", n, want, got);
    clamp_log_hvp(n, x, t, r, NULL, d2, h);
    got = take();
    SAME_CALLS("clamp_log_hvp", n, want, got);
    for (size_t e = 0; e < n; e++) {
      assert_true(close_to(r[e], r2[e], 1e-15)); /* log: 1 ULP */
      double g = x[e] > 0.0 ? 1.0 / x[e] : 0.0;
      double hv = x[e] > 0.0 ? -t[e] / (x[e] * x[e]) : 0.0;
      if (!close_to(d[e], g, 1e-15) || !close_to(d2[e], g, 1e-15) ||
          !close_to(dt[e], t[e] * g, 1e-15) || !close_to(h[e], hv, 1e-14)) {
        print_error("clamp_log e=%zu x=%g: grad %g/%g jvp %g hvp %g want %g "
                    "%g %g\n",
                    e, x[e], d[e], d2[e], dt[e], h[e], g, t[e] * g, hv);
        fail();
      }
    }
    gp_reset();
  }
}

static void t_newton(void **state) {
  (void)state;
  rng_t rng = {name_seed("newton")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *a = gp_alloc(n * 8), *r = gp_alloc(n * 8), *d = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8), *dr = gp_alloc(n * 8);
    int *k = gp_alloc(n * 4), *lim = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++) {
      a[e] = rng_range(&rng, 0.5, 50.0);
      k[e] = (int)rng_below(&rng, 9);
      lim[e] = 1 + (int)rng_below(&rng, 12);
      d[e] = 0.0;
      dr[e] = rng_range(&rng, -2.0, 2.0);
    }
    gp_seal(a), gp_seal(k), gp_seal(lim);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = newton(a[e], k[e], lim[e]);
    tally want = take();
    newton_batched(n, a, k, lim, r);
    tally got = take();
    SAME_CALLS("newton_batched", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    newton_grad(n, a, k, lim, r, dr, d);
    got = take();
    SAME_CALLS("newton_grad", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    for (size_t e = 0; e < n && e < 1000; e++) {
      double h = 1e-6 * a[e];
      double fd =
          (newton(a[e] + h, k[e], lim[e]) - newton(a[e] - h, k[e], lim[e])) /
          (2 * h);
      if (!close_to(d[e], dr[e] * fd, 1e-6)) {
        print_error("newton_grad e=%zu a=%g k=%d: %.17g want %.17g\n", e, a[e],
                    k[e], d[e], dr[e] * fd);
        fail();
      }
    }
    take();
    gp_reset();
  }
}

/* Ragged rows of up to 7 elements; the batch's last row ends at a guard
 * page, and a row's elements past its own n are NaN (read, they would
 * show in the sum or in the calls). */
static void t_sumsq(void **state) {
  (void)state;
  rng_t rng = {name_seed("sumsq")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni], S = 7;
    int *len = gp_alloc(n * 4);
    double *x = gp_alloc(n * S * 8), *w = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8), *dx = gp_alloc(n * S * 8);
    double *dw = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      len[e] = e + 1 == n ? (int)S : (int)rng_below(&rng, S + 1);
      for (size_t i = 0; i < S; i++) {
        x[e * S + i] = (int)i < len[e] ? rng_range(&rng, -1.0, 2.0) : NAN;
        dx[e * S + i] = 0.0;
      }
      w[e] = rng_range(&rng, 0.5, 2.0);
      dw[e] = 0.0;
    }
    gp_seal(len), gp_seal(x), gp_seal(w);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = sumsq(len[e], x + e * S, w[e]);
    tally want = take();
    sumsq_batched(n, len, x, (ptrdiff_t)S, w, r);
    tally got = take();
    SAME_CALLS("sumsq_batched", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    sumsq_grad(n, len, x, (ptrdiff_t)S, w, r, NULL, dx, (ptrdiff_t)S, dw);
    got = take();
    SAME_CALLS("sumsq_grad", n, want, got);
    for (size_t e = 0; e < n; e++) {
      double s = 0.0;
      for (int i = 0; i < len[e]; i++) {
        s += x[e * S + i] * x[e * S + i];
        assert_true(close_to(dx[e * S + i], 2.0 * w[e] * x[e * S + i], 1e-15));
      }
      for (size_t i = (size_t)len[e]; i < S; i++)
        assert_true(dx[e * S + i] == 0.0);
      assert_true(close_to(dw[e], s, 1e-14));
    }
    gp_reset();
  }
}

static void t_narrow_wide(void **state) {
  (void)state;
  rng_t rng = {name_seed("flags")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    float *x = gp_alloc(n * 4);
    int *k = gp_alloc(n * 4), *r = gp_alloc(n * 4), *r2 = gp_alloc(n * 4);
    long *kl = gp_alloc(n * 8), *rl = gp_alloc(n * 8), *rl2 = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      x[e] = (float)rng_range(&rng, 0.0, 1.0);
      k[e] = (int)rng_below(&rng, 5);
      kl[e] = (long)rng_below(&rng, 7) - 2;
    }
    gp_seal(x), gp_seal(k), gp_seal(kl);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = flags(x[e], k[e]);
    tally want = take();
    flags_batched(n, x, k, r);
    tally got = take();
    SAME_CALLS("flags_batched", n, want, got);
    assert_memory_equal(r, r2, n * 4);
    for (size_t e = 0; e < n; e++)
      rl2[e] = widen(kl[e], 1000);
    want = take();
    widen_batched(n, kl, 1000, rl);
    got = take();
    SAME_CALLS("widen_batched", n, want, got);
    assert_memory_equal(rl, rl2, n * 8);
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_clamp_log),
      cmocka_unit_test(t_newton),
      cmocka_unit_test(t_sumsq),
      cmocka_unit_test(t_narrow_wide),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_extern_calls", tests, NULL, NULL);
}
