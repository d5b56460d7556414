/* Calls of functions outside the batched code, made once per example
 * (docs/calls.md, "Calls of outside functions"): error reporters as cephes
 * (mtherr("name", DOMAIN)) and Numerical Recipes (nrerror("...")) write
 * them, a variadic logger, fprintf(stderr, ...), and functions declared in
 * a header whose bodies are elsewhere (extern_calls.h), returning int,
 * _Bool, long or void (defined at the end of this file) or double and float
 * (defined in another translation unit, extern_calls_other.c).
 * Every callee records its calls in a multiset hash (order-independent) and
 * a count. For every n of test_ns and 40000 (threads), NAME_batched and
 * NAME_grad must make exactly the calls the scalar loop makes, with the
 * same arguments: a lane that is off (a tail, a branch, a finished loop, a
 * ragged example past its end) must make none. Results bit for bit (log
 * within its bound); the gradients against their closed forms and central
 * differences; ragged arrays end at guard pages. */
#include "call_tally.h"
#include "exec_util.h"

#include "../common/test_filter.h"
#include "extern_calls.h"

/* ---- the callees' record ------------------------------------------------ */

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

/* Floating results from another file (extern_calls_other.c), per example:
 * in a branch, in a loop whose trip count varies, a float result among
 * 64-bit lanes, and with 32-bit lanes. */
__attribute__((batch)) double shaped(double x, int n) {
  double s = 0.0;
  if (x > 0.0)
    s = ext_shape(x);
  else if (x < -0.5)
    s = ext_shapef((float)x);
  for (int i = 0; i < n; i++)
    s += ext_shape(0.5 * s + i);
  return s;
}

__attribute__((batch)) float shapedf(float x) {
  return x < 2.0f ? ext_shapef(x) * x : x;
}

/* In a diff function the value is a constant where the arguments do not
 * depend on differentiated inputs (an integer, a BD_NODIFF parameter). */
BATCHDIFF BD_JVP BD_HVP double coefmix(double x, int k, BD_NODIFF double c) {
  double a = ext_coef(k, c);
  return a * x * x + ext_shape(c) * x;
}

/* Ragged rows, each element weighted by what another file computes from
 * its index and a uniform scale (uniform arguments are passed as they are). */
BATCHDIFF double wsum(int n, const double x[n], BD_UNIFORM BD_NODIFF double u) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += ext_coef(i, u) * x[i];
  return s;
}

/* Declared in this file only, defined in another one (as a prototype at the
 * top of model.c for a function of util.c): called once per example too. */
double ext_mainfile(double t, int k);
int ext_count(int k);
__attribute__((batch)) double mainfile(double x, int k) {
  return k > 2 ? ext_mainfile(x, ext_count(k)) : x;
}

/* Declared in the header and defined below, after this caller: inlined and
 * differentiated (a call per example would have no derivative, an error). */
BATCHDIFF double later(double x) { return 2.0 * ext_later(x); }

/* fprintf(stderr, ...) as debugging code writes it: stderr is the same for
 * every example. */
BATCHDIFF double warned(double x) {
  if (x < 0.0)
    fprintf(stderr, "warned: x = %.17g\n", x);
  return x * x;
}

/* ---- the header's functions, defined here after their callers ----------- */

double ext_later(double x) { return x * x + 1.0; }
void ext_record(uint64_t tag, uint64_t v) { record(tag, v); }

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

static void t_shaped(void **state) {
  (void)state;
  rng_t rng = {name_seed("shaped")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    int *k = gp_alloc(n * 4);
    float *xf = gp_alloc(n * 4), *rf = gp_alloc(n * 4), *rf2 = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -1.0, 1.0);
      k[e] = (int)rng_below(&rng, 5);
      xf[e] = (float)rng_range(&rng, 0.0, 3.0);
    }
    gp_seal(x), gp_seal(k), gp_seal(xf);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = shaped(x[e], k[e]);
    tally want = take();
    shaped_batched(n, x, k, r);
    tally got = take();
    SAME_CALLS("shaped_batched", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    for (size_t e = 0; e < n; e++)
      rf2[e] = shapedf(xf[e]);
    want = take();
    shapedf_batched(n, xf, rf);
    got = take();
    SAME_CALLS("shapedf_batched", n, want, got);
    assert_memory_equal(rf, rf2, n * 4);
    for (size_t e = 0; e < n; e++)
      r2[e] = mainfile(x[e], k[e]);
    want = take();
    mainfile_batched(n, x, k, r);
    got = take();
    SAME_CALLS("mainfile_batched", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    gp_reset();
  }
}

static void t_coefmix(void **state) {
  (void)state;
  rng_t rng = {name_seed("coefmix")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *c = gp_alloc(n * 8);
    int *k = gp_alloc(n * 4);
    modes m = modes_alloc(n);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -2.0, 2.0);
      c[e] = rng_range(&rng, -1.0, 1.0);
      k[e] = (int)rng_below(&rng, 8);
      modes_fill(&m, &rng, e);
    }
    gp_seal(x), gp_seal(c), gp_seal(k), modes_seal(&m);
    take();
    for (size_t e = 0; e < n; e++)
      m.r2[e] = coefmix(x[e], k[e], c[e]);
    tally want = take();
    SAME_CALLS_4(coefmix, n, want, m, x, k, c);
    for (size_t e = 0; e < n; e++) {
      double a = ext_coef(k[e], c[e]), s = ext_shape(c[e]);
      double g = 2.0 * a * x[e] + s, hv = 2.0 * a * m.t[e];
      double hh = 1e-6 * (1.0 + fabs(x[e]));
      double fd =
          (coefmix(x[e] + hh, k[e], c[e]) - coefmix(x[e] - hh, k[e], c[e])) /
          (2 * hh);
      if (!modes_close(&m, e, g, hv, 1e-14) || !close_to(g, fd, 1e-6)) {
        print_error("coefmix e=%zu x=%g: grad %g/%g jvp %g hvp %g want %g "
                    "(fd %g) %g %g\n",
                    e, x[e], m.d[e], m.d2[e], m.dt[e], m.h[e], g, fd,
                    m.t[e] * g, hv);
        fail();
      }
    }
    take();
    gp_reset();
  }
}

static void t_wsum(void **state) {
  (void)state;
  rng_t rng = {name_seed("wsum")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni], S = 7;
    int *len = gp_alloc(n * 4);
    double *x = gp_alloc(n * S * 8), *r = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8), *dx = gp_alloc(n * S * 8);
    for (size_t e = 0; e < n; e++) {
      len[e] = e + 1 == n ? (int)S : (int)rng_below(&rng, S + 1);
      for (size_t i = 0; i < S; i++) {
        x[e * S + i] = (int)i < len[e] ? rng_range(&rng, -1.0, 2.0) : NAN;
        dx[e * S + i] = 0.0;
      }
    }
    gp_seal(len), gp_seal(x);
    double u = 0.375;
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = wsum(len[e], x + e * S, u);
    tally want = take();
    wsum_batched(n, len, x, (ptrdiff_t)S, u, r);
    tally got = take();
    SAME_CALLS("wsum_batched", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    wsum_grad(n, len, x, (ptrdiff_t)S, u, r, NULL, dx, (ptrdiff_t)S);
    got = take();
    SAME_CALLS("wsum_grad", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    for (size_t e = 0; e < n; e++) {
      for (int i = 0; i < len[e]; i++)
        assert_true(dx[e * S + i] == ext_coef(i, u));
      for (size_t i = (size_t)len[e]; i < S; i++)
        assert_true(dx[e * S + i] == 0.0);
    }
    take();
    gp_reset();
  }
}

static void t_later(void **state) {
  (void)state;
  rng_t rng = {name_seed("later")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *d = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      x[e] = rng_range(&rng, -3.0, 3.0), d[e] = 0.0;
    gp_seal(x);
    for (size_t e = 0; e < n; e++)
      r2[e] = later(x[e]);
    later_batched(n, x, r);
    assert_memory_equal(r, r2, n * 8);
    later_grad(n, x, r, NULL, d);
    for (size_t e = 0; e < n; e++)
      assert_true(close_to(d[e], 4.0 * x[e], 1e-15));
    gp_reset();
  }
}

/* The lines written to \p f since it was opened, as a multiset (count and
 * order-independent hash); closes it. */
static tally lines_of(FILE *f) {
  tally t = {0, 0};
  char line[256];
  rewind(f);
  while (fgets(line, sizeof line, f)) {
    t.calls++;
    t.hash += mix(text(line));
  }
  fclose(f);
  return t;
}

/* stderr is pointed at a temporary file while the functions run. */
static void t_warned(void **state) {
  (void)state;
  rng_t rng = {name_seed("warned")};
  FILE *saved = stderr;
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *d = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      x[e] = rng_range(&rng, -1.0, 3.0), d[e] = 0.0;
    gp_seal(x);
    FILE *f = tmpfile();
    assert_non_null(f);
    stderr = f;
    for (size_t e = 0; e < n; e++)
      r2[e] = warned(x[e]);
    stderr = saved;
    tally want = lines_of(f);
    f = tmpfile();
    assert_non_null(f);
    stderr = f;
    warned_batched(n, x, r);
    stderr = saved;
    tally got = lines_of(f);
    SAME_CALLS("warned_batched", n, want, got);
    assert_memory_equal(r, r2, n * 8);
    f = tmpfile();
    assert_non_null(f);
    stderr = f;
    warned_grad(n, x, r, NULL, d);
    stderr = saved;
    got = lines_of(f);
    SAME_CALLS("warned_grad", n, want, got);
    for (size_t e = 0; e < n; e++)
      assert_true(d[e] == 2.0 * x[e]);
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_shaped),
      cmocka_unit_test(t_coefmix),
      cmocka_unit_test(t_wsum),
      cmocka_unit_test(t_later),
      cmocka_unit_test(t_warned),
      cmocka_unit_test(t_clamp_log),
      cmocka_unit_test(t_newton),
      cmocka_unit_test(t_sumsq),
      cmocka_unit_test(t_narrow_wide),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_extern_calls", tests, NULL, NULL);
}
