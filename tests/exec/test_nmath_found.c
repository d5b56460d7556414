/* Shapes of R's nmath (standalone) that were refused as found, written with
 * arithmetic only so that NAME_batched must equal the scalar function bit
 * for bit (docs/subset.md, "R's nmath as found"):
 *   - nf_betaln: toms708.c's betaln, `goto L40;` into the block of `if (b
 *     <= 1e3) { int n = ...; ... L40: n = (int)(b - 1.); ... return ...; }`,
 *     whose `n` the goto does not see and the statements from the label
 *     assign before using (lowered as a copy with its own n);
 *   - nf_lgam / nf_lgam_signed / nf_lgam_flag: lgamma.c's
 *     `lgammafn_sign(x, NULL)` and `lgammafn_sign(x, &sgn)`, a helper that
 *     tests its out-pointer (`if (sgn != NULL) *sgn = 1;`, `sgn != NULL &&
 *     x < 0 && ...`, `if (!sgn)`, `sgn ? ... : ...` through `if (sgn)`):
 *     the tests fold at each call;
 *   - nf_qnewton: qbeta.c's `volatile double u, xinbta;` (locals whose
 *     address is never taken: ordinary locals);
 *   - nf_cheb / nf_cheb1 / nf_cheb0: chebyshev.c's chebyshev_eval, `a[n -
 *     i]` for i = 1 .. n (extent n), `a[n - i + 1]` (n + 1), `a[n - 1 -
 *     i]` for i = 0 .. n - 1 (n), with a per-example (ragged) n: each
 *     example alone with its array ending at a PROT_NONE page, and in one
 *     strided batch.
 * Gradients: Richardson-extrapolated central differences (a minimum of
 * points resolved is asserted) and NAME_jvp against NAME_grad. */
#include "exec_util.h"

#include "../common/test_filter.h"

/* ---- toms708's betaln -------------------------------------------------- */

#define nf_min(a, b) ((a) < (b) ? (a) : (b))
#define nf_max(a, b) ((a) > (b) ? (a) : (b))

/* Stand-ins for gamln, gsumln and algdiv: arithmetic, smooth for x > 0. */
static double g1(double x) { return x * x / (1.0 + x) - 0.25 * x; }
static double gsum(double a, double b) { return g1(a + b) + 0.125 * a * b; }
static double adiv(double a, double b) { return (b - a) / (a + b + 1.0); }

BATCHDIFF BD_JVP double nf_betaln(double a0, double b0) {
  double a = nf_min(a0, b0), b = nf_max(a0, b0);

  if (a < 8.) {
    if (a < 1.) {
      if (b < 8.)
        return g1(a) + (g1(b) - g1(a + b));
      else
        return g1(a) + adiv(a, b);
    }
    double w;
    if (a < 2.) {
      if (b <= 2.) {
        return g1(a) + g1(b) - gsum(a, b);
      }
      if (b < 8.) {
        w = 0.;
        goto L40;
      }
      return g1(a) + adiv(a, b);
    }
    if (b <= 1e3) {
      int n = (int)(a - 1.);
      w = 1.;
      for (int i = 1; i <= n; ++i) {
        a += -1.;
        double h = a / b;
        w *= h / (h + 1.);
      }
      w = w - 1.0;

      if (b >= 8.)
        return w + g1(a) + adiv(a, b);

    L40:
      n = (int)(b - 1.);
      double z = 1.;
      for (int i = 1; i <= n; ++i) {
        b += -1.;
        z *= b / (a + b);
      }
      return w + z + (g1(a) + (g1(b) - gsum(a, b)));
    } else {
      int n = (int)(a - 1.);
      w = 1.;
      for (int i = 1; i <= n; ++i) {
        a += -1.;
        w *= a / (a / b + 1.);
      }
      return w - n * b + (g1(a) + adiv(a, b));
    }
  }
  return g1(a) + g1(b) - gsum(a, b);
}

/* ---- lgammafn_sign(x, NULL) -------------------------------------------- */

static double nf_lgam_sign(double x, int *sgn) {
  if (sgn != NULL)
    *sgn = 1;
  if (isnan(x))
    return x;
  if (sgn != NULL && x < 0 && fmod(floor(-x), 2.) == 0)
    *sgn = -1;
  if (x <= 0 && x == trunc(x))
    return INFINITY;
  double y = fabs(x);
  if (y <= 10)
    return y * (y - 1.0) / (1.0 + y);
  return (y - 0.5) * y - y;
}

BATCHDIFF BD_JVP double nf_lgam(double x) { return nf_lgam_sign(x, NULL); }

BATCHDIFF BD_JVP double nf_lgam_signed(double x) {
  int s;
  double v = nf_lgam_sign(x, &s);
  return s * v;
}

/* The other spellings of the test, and NULL passed on to another helper. */
static double nf_scale(double v, double *out) {
  if (!out)
    return v;
  *out = 2.0 * v;
  return v + *out;
}
static double nf_flag_sign(double x, int *sgn, double *out) {
  if (sgn)
    *sgn = x < 0 ? -1 : 1;
  double v = nf_scale(x * x, out);
  if (0 == sgn || x > 1.0)
    return v;
  return v * *sgn;
}

BATCHDIFF BD_JVP double nf_lgam_flag(double x) {
  int s = 0;
  double o = 0.5;
  return nf_flag_sign(x, NULL, NULL) + nf_flag_sign(x, &s, NULL) +
         nf_flag_sign(x, NULL, &o) + o + s;
}

/* ---- qbeta's volatile locals ------------------------------------------- */

BATCHDIFF BD_JVP double nf_qnewton(double p) {
  volatile double u, xinbta;
  int i;
  if (!(p > 0))
    return 0.0;
  xinbta = p > 1.0 ? p : 1.0;
  for (i = 0; i < 60; i++) {
    u = xinbta * xinbta - p;
    xinbta -= u / (2.0 * xinbta);
    if (fabs(u) < 1e-14 * p)
      break;
  }
  return xinbta + 0.0 * u;
}

/* ---- chebyshev_eval ---------------------------------------------------- */

BATCHDIFF BD_JVP double nf_cheb(double x, const double *a, const int n) {
  double b0, b1, b2, twox;
  int i;

  if (n < 1 || n > 1000)
    return NAN;
  if (x < -1.1 || x > 1.1)
    return NAN;

  twox = x * 2;
  b2 = b1 = 0;
  b0 = 0;
  for (i = 1; i <= n; i++) {
    b2 = b1;
    b1 = b0;
    b0 = twox * b1 - b2 + a[n - i];
  }
  return (b0 - b2) * 0.5;
}

/* a[1] .. a[n]: n + 1 elements. */
BATCHDIFF BD_JVP double nf_cheb1(double x, const double *a, int n) {
  double b0 = 0, b1 = 0, b2 = 0;
  for (int i = 1; i <= n; i++) {
    b2 = b1;
    b1 = b0;
    b0 = 2 * x * b1 - b2 + a[n - i + 1];
  }
  return (b0 - b2) * 0.5 + a[0] * 0.0;
}

/* a[n - 1] down to a[0] from i = 0 below n: n elements. */
BATCHDIFF BD_JVP double nf_cheb0(double x, const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s = s * x + a[n - 1 - i];
  return s;
}

/* ---- harness ----------------------------------------------------------- */

static const size_t ns[] = {0,  1,      WF - 1,     WF,         WF + 1, WD - 1,
                            WD, WD + 1, 2 * WF + 3, 2 * WD + 3, 1000};
#define NNS (sizeof ns / sizeof ns[0])

static size_t fd_checked;
static int fd_dims = 1; /* coordinates of the point check_fd gets */

/* Richardson-extrapolated central differences of f along one coordinate
 * where f is smooth there (steps h and 2h agree), against g. */
static void check_fd(const char *what, double (*f)(const double *), double *x,
                     int k, double g) {
  double x0 = x[k], h = 1e-5 * (1.0 + fabs(x0)), v[4];
  const double st[4] = {h, -h, 2 * h, -2 * h};
  for (int j = 0; j < 4; j++) {
    x[k] = x0 + st[j];
    v[j] = f(x);
  }
  x[k] = x0;
  double v0 = f(x);
  double d1 = (v[0] - v[1]) / (2 * h), d2 = (v[2] - v[3]) / (4 * h);
  double big = fmax(fmax(fabs(v[0]), fabs(v[1])), fmax(fabs(v[2]), fabs(v[3])));
  /* The values' rounding, over the step; the terms inside the functions
   * are up to about the arguments' size (1 + |x|), so are their errors. */
  double scale = big;
  for (int j = 0; j < fd_dims; j++)
    scale = fmax(scale, 1.0 + fabs(x[j]));
  double noise = 8 * DBL_EPSILON * scale / h;
  double fw = (v[0] - v0) / h, bw = (v0 - v[1]) / h; /* one-sided */
  if (!isfinite(d1) || !isfinite(d2) || !isfinite(v0) ||
      fabs(d1 - d2) > 1e-4 * fabs(d1) + noise ||
      fabs(fw - bw) > 1e-2 * fabs(d1) + 4 * noise)
    return; /* a kink (|x| at 0: the central quotients agree), a pole */
  double dr = (4 * d1 - d2) / 3;
  /* (and a bound for the extrapolation's own error where the derivative
   * is tiny next to the values: 1e-10 of them) */
  if (!(fabs(g - dr) <= 1e-6 * fabs(dr) + noise + 1e-10 * big)) {
    print_error("%s d/dx%d at x%d = %.17g (x0 = %.17g): %.17g, central "
                "differences %.17g\n",
                what, k, k, x0, x[0], g, dr);
    fail();
  }
  fd_checked += noise <= 1e-6 * fabs(dr) + 1e-12;
}

static int near_rel(double a, double b, double tol) {
  if (isnan(a) || isnan(b))
    return isnan(a) && isnan(b);
  /* (subnormal products round to their quantum) */
  return a == b || fabs(a - b) <= tol * (fabs(a) + fabs(b)) ||
         fabs(a - b) < 0x1p-1000;
}

/* One-argument functions: bits, gradients, jvp vs grad. */
typedef double (*f1)(double);
typedef void (*b1)(size_t, const double *, double *);
typedef void (*g1f)(size_t, const double *, double *, const double *, double *);
typedef void (*j1f_t)(size_t, const double *, const double *, double *,
                      double *);

static f1 cur1;
static double call1(const double *x) { return cur1(x[0]); }

static void run1(const char *what, f1 f, b1 fb, g1f fg, j1f_t fj,
                 double (*gen)(rng_t *), size_t min_fd) {
  rng_t rng = {name_seed(what)};
  fd_checked = 0;
  cur1 = f;
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *rg = gp_alloc(n * 8);
    double *rj = gp_alloc(n * 8), *d = gp_alloc(n * 8), *t = gp_alloc(n * 8);
    double *jv = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      x[e] = gen(&rng), d[e] = 0.0, t[e] = rng_range(&rng, -2, 2);
    gp_seal(x);
    gp_seal(t);
    fb(n, x, r);
    fg(n, x, rg, NULL, d);
    fj(n, x, t, rj, jv);
    for (size_t e = 0; e < n; e++) {
      double want = f(x[e]);
      if (!same_bits_or_nan(&r[e], &want, 8, 1) ||
          !same_bits_or_nan(&rg[e], &want, 8, 1) ||
          !same_bits_or_nan(&rj[e], &want, 8, 1)) {
        print_error("%s(%a) n=%zu: %a %a %a, want %a\n", what, x[e], n, r[e],
                    rg[e], rj[e], want);
        fail();
      }
      /* (at infinities forward and reverse mode may meet inf * 0 in
       * different places) */
      if (isfinite(x[e]) && isfinite(want) &&
          !near_rel(jv[e], d[e] * t[e], 1e-13)) {
        print_error("%s(%a): jvp %.17g, grad x t %.17g\n", what, x[e], jv[e],
                    d[e] * t[e]);
        fail();
      }
      double xx = x[e]; /* (x is sealed) */
      /* (0 is a kink of |x| in these, up to the second derivative) */
      if (e < 2000 && isfinite(want) && fabs(xx) > 1e-3)
        check_fd(what, call1, &xx, 0, d[e]);
    }
    gp_reset();
  }
  print_message("%s: %zu gradients resolved by central differences\n", what,
                fd_checked);
  if (fd_checked < min_fd) {
    print_error("%s: too few gradients checked (%zu < %zu)\n", what, fd_checked,
                min_fd);
    fail();
  }
}

/* Around the poles and integers, both signs, beyond 10, NaN and infinities. */
static double gen_lgam(rng_t *r) {
  switch (rng_below(r, 6)) {
  case 0:
    return -(double)rng_below(r, 30);
  case 1:
    return rng_range(r, -30.0, 0.0);
  case 2:
    return rng_range(r, 10.0, 200.0);
  case 3:
    return gen_d(r);
  default:
    return rng_range(r, -12.0, 12.0);
  }
}

static double gen_q(rng_t *r) {
  switch (rng_below(r, 4)) {
  case 0:
    return gen_d(r);
  case 1:
    return rng_range(r, 0.0, 1e-3);
  default:
    return rng_range(r, -1.0, 1e4);
  }
}

static void t_lgam(void **state) {
  (void)state;
  run1("nf_lgam", nf_lgam, nf_lgam_batched, nf_lgam_grad, nf_lgam_jvp, gen_lgam,
       500);
  run1("nf_lgam_signed", nf_lgam_signed, nf_lgam_signed_batched,
       nf_lgam_signed_grad, nf_lgam_signed_jvp, gen_lgam, 500);
  run1("nf_lgam_flag", nf_lgam_flag, nf_lgam_flag_batched, nf_lgam_flag_grad,
       nf_lgam_flag_jvp, gen_lgam, 500);
}

static void t_qnewton(void **state) {
  (void)state;
  run1("nf_qnewton", nf_qnewton, nf_qnewton_batched, nf_qnewton_grad,
       nf_qnewton_jvp, gen_q, 500);
}

/* betaln: both arguments. */
static double call2(const double *x) { return nf_betaln(x[0], x[1]); }

static double gen_ab(rng_t *r) {
  switch (rng_below(r, 6)) {
  case 0:
    return rng_range(r, 0.0, 1.0);
  case 1:
    return rng_range(r, 1.0, 2.0);
  case 2:
    return rng_range(r, 2.0, 8.0);
  case 3:
    return rng_range(r, 8.0, 1500.0);
  case 4:
    return rng_below(r, 10) + (rng_below(r, 2) ? 0.0 : 1e-9);
  default:
    return gen_d(r);
  }
}

static void t_betaln(void **state) {
  (void)state;
  rng_t rng = {name_seed("nf_betaln")};
  fd_checked = 0;
  size_t l40 = 0;
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *a = gp_alloc(n * 8), *b = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *rg = gp_alloc(n * 8), *da = gp_alloc(n * 8), *db = gp_alloc(n * 8);
    double *ta = gp_alloc(n * 8), *tb = gp_alloc(n * 8), *jv = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      a[e] = gen_ab(&rng), b[e] = gen_ab(&rng);
      da[e] = db[e] = 0.0;
      ta[e] = rng_range(&rng, -1, 1), tb[e] = rng_range(&rng, -1, 1);
    }
    gp_seal(a);
    gp_seal(b);
    nf_betaln_batched(n, a, b, r);
    nf_betaln_grad(n, a, b, rg, NULL, da, db);
    nf_betaln_jvp(n, a, b, ta, tb, NULL, jv);
    for (size_t e = 0; e < n; e++) {
      double want = nf_betaln(a[e], b[e]);
      double lo = nf_min(a[e], b[e]), hi = nf_max(a[e], b[e]);
      l40 += lo >= 1. && lo < 2. && hi > 2. && hi < 8.;
      if (!same_bits_or_nan(&r[e], &want, 8, 1) ||
          !same_bits_or_nan(&rg[e], &want, 8, 1)) {
        print_error("nf_betaln(%a, %a): %a %a, want %a\n", a[e], b[e], r[e],
                    rg[e], want);
        fail();
      }
      double g = da[e] * ta[e] + db[e] * tb[e];
      if (!near_rel(jv[e], g, 1e-12) && fabs(jv[e] - g) > 1e-12) {
        print_error("nf_betaln(%a, %a): jvp %.17g, grad %.17g\n", a[e], b[e],
                    jv[e], g);
        fail();
      }
      double x[2] = {a[e], b[e]};
      if (e < 2000 && isfinite(want) && a[e] != b[e]) {
        fd_dims = 2;
        check_fd("nf_betaln", call2, x, 0, da[e]);
        check_fd("nf_betaln", call2, x, 1, db[e]);
        fd_dims = 1;
      }
    }
    gp_reset();
  }
  print_message("nf_betaln: %zu gradients resolved, %zu examples through "
                "goto L40\n",
                fd_checked, l40);
  if (fd_checked < 1000 || l40 < 50) {
    print_error("nf_betaln: too few points checked\n");
    fail();
  }
}

/* ---- chebyshev: ragged n, guard pages ---------------------------------- */

typedef double (*fc)(double, const double *, int);
typedef void (*bc)(size_t, const double *, const double *, ptrdiff_t,
                   const int *, double *);
typedef void (*gc)(size_t, const double *, const double *, ptrdiff_t,
                   const int *, double *, const double *, double *, double *,
                   ptrdiff_t);
typedef void (*jc)(size_t, const double *, const double *, ptrdiff_t,
                   const int *, const double *, const double *, ptrdiff_t,
                   double *, double *);

#define CMAX 24
static fc curc;
static const double *cura;
static int curn;
static double callc(const double *x) { return curc(x[0], cura, curn); }

/* Extent \p plus beyond n: 0 (nf_cheb, nf_cheb0) or 1 (nf_cheb1). */
static void runc(const char *what, fc f, bc fb, gc fg, jc fj, int plus) {
  rng_t rng = {name_seed(what)};
  fd_checked = 0;
  curc = f;
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    const ptrdiff_t st = CMAX + 1;
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *dx = gp_alloc(n * 8);
    double *tx = gp_alloc(n * 8), *jv = gp_alloc(n * 8);
    int *len = gp_alloc(n * sizeof(int));
    /* One strided batch: the last example's array ends at the guard. */
    double *a = gp_alloc(n * st * 8), *da = gp_alloc(n * st * 8);
    double *ta = gp_alloc(n * st * 8);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_below(&rng, 8) ? rng_range(&rng, -1.1, 1.1) : gen_d(&rng);
      len[e] = rng_below(&rng, 12) ? 1 + rng_below(&rng, CMAX) : 0;
      dx[e] = 0.0, tx[e] = rng_range(&rng, -1, 1);
      for (ptrdiff_t j = 0; j < st; j++) {
        a[e * st + j] = rng_range(&rng, -1, 1);
        da[e * st + j] = 0.0;
        ta[e * st + j] = rng_range(&rng, -1, 1);
      }
    }
    if (n > 0) /* the last example's array ends at the guard page */
      len[n - 1] = CMAX + 1 - plus;
    gp_seal(x);
    gp_seal(a);
    gp_seal(len);
    fb(n, x, a, st, len, r);
    fg(n, x, a, st, len, NULL, NULL, dx, da, st);
    fj(n, x, a, st, len, tx, ta, st, NULL, jv);
    for (size_t e = 0; e < n; e++) {
      double want = f(x[e], a + e * st, len[e]);
      if (!same_bits_or_nan(&r[e], &want, 8, 1)) {
        print_error("%s(%a, n=%d): %a, want %a\n", what, x[e], len[e], r[e],
                    want);
        fail();
      }
      double g = dx[e] * tx[e];
      for (int j = 0; j < len[e] + plus; j++)
        g += da[e * st + j] * ta[e * st + j];
      for (int j = len[e] + plus; j < st; j++)
        if (da[e * st + j] != 0.0) {
          print_error("%s: d_a[%d] of an example of n=%d written\n", what, j,
                      len[e]);
          fail();
        }
      if (!near_rel(jv[e], g, 1e-12) && fabs(jv[e] - g) > 1e-13) {
        print_error("%s(%a, n=%d): jvp %.17g, grad %.17g\n", what, x[e], len[e],
                    jv[e], g);
        fail();
      }
      cura = a + e * st, curn = len[e];
      double xx = x[e];
      if (e < 2000 && isfinite(want))
        check_fd(what, callc, &xx, 0, dx[e]);
    }
    gp_reset();
  }
  /* Each example alone, its array of exactly n + plus elements ending at
   * a PROT_NONE page. */
  for (int k = 0; k <= CMAX; k++) {
    int len = k;
    double *a = gp_alloc((size_t)(len + plus) * 8);
    double *da = gp_alloc((size_t)(len + plus) * 8);
    for (int j = 0; j < len + plus; j++)
      a[j] = rng_range(&rng, -1, 1), da[j] = 0.0;
    gp_seal(a);
    double x = rng_range(&rng, -1, 1), r, dx = 0.0;
    fb(1, &x, a, 0, &len, &r);
    fg(1, &x, a, 0, &len, &r, NULL, &dx, da, 0);
    double want = f(x, a, len);
    if (!same_bits_or_nan(&r, &want, 8, 1)) {
      print_error("%s alone (n=%d): %a, want %a\n", what, len, r, want);
      fail();
    }
    gp_reset();
  }
  print_message("%s: %zu gradients resolved by central differences\n", what,
                fd_checked);
  if (fd_checked < 500) {
    print_error("%s: too few gradients checked\n", what);
    fail();
  }
}

static void t_cheb(void **state) {
  (void)state;
  runc("nf_cheb", nf_cheb, nf_cheb_batched, nf_cheb_grad, nf_cheb_jvp, 0);
  runc("nf_cheb1", nf_cheb1, nf_cheb1_batched, nf_cheb1_grad, nf_cheb1_jvp, 1);
  runc("nf_cheb0", nf_cheb0, nf_cheb0_batched, nf_cheb0_grad, nf_cheb0_jvp, 0);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_betaln),
      cmocka_unit_test(t_lgam),
      cmocka_unit_test(t_qnewton),
      cmocka_unit_test(t_cheb),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_nmath_found", tests, NULL, NULL);
}
