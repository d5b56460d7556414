/* Gradient tests of loops: NAME_grad against
 *   - a hand-written dual-number (forward mode) version of the same scalar
 *     code, which follows the same path per example (tight tolerance);
 *   - central finite differences where they are trustworthy (the two
 *     one-sided differences agree, i.e. no path change within +-h);
 *   - the analytic derivative for the Newton solvers (sqrt, cbrt).
 * Each check runs for n in loop_ns[] and the input patterns of loops_util.h
 * (staircase: every lane of a chunk a different trip count, including 0).
 * The primal `ret` of NAME_grad must equal the scalar function (bitwise for
 * pure arithmetic; within a few ULP-scaled tolerance where the loop calls
 * math functions whose vector versions may differ by an ULP). Shadows start
 * non-zero to check that gradients are added (+=). NULL d_ret, NULL ret and
 * NULL shadows are covered. */
#include "loops_grad.h"

#include "../common/test_filter.h"

/* ---- the functions under test, with their dual versions ------------------ */

/* Newton sqrt, stops when converged (trip count varies per lane). */
BATCHDIFF double nsqrt(double a) {
  if (!(a > 0.0))
    return 0.0;
  double x = a > 1.0 ? a : 1.0;
  for (int i = 0; i < 100; i++) {
    double nx = 0.5 * (x + a / x);
    if (fabs(nx - x) <= 1e-15 * nx) {
      x = nx;
      break;
    }
    x = nx;
  }
  return x;
}
static dual nsqrt_dual(dual a) {
  if (!(a.v > 0.0))
    return dc(0.0);
  dual x = a.v > 1.0 ? a : dc(1.0);
  for (int i = 0; i < 100; i++) {
    dual nx = dscale(dadd(x, ddiv(a, x)), 0.5);
    if (fabs(nx.v - x.v) <= 1e-15 * nx.v) {
      x = nx;
      break;
    }
    x = nx;
  }
  return x;
}

/* Newton cube root, while loop with the test after the update. */
BATCHDIFF double ncbrt(double a) {
  double x = fabs(a) > 1.0 ? a : (a < 0.0 ? -1.0 : 1.0);
  int it = 0;
  while (it < 200) {
    double d = (x * x * x - a) / (3.0 * x * x);
    x -= d;
    it++;
    if (fabs(d) <= 1e-14 * fabs(x))
      break;
  }
  return x;
}
static dual ncbrt_dual(dual a) {
  dual x = fabs(a.v) > 1.0 ? a : dc(a.v < 0.0 ? -1.0 : 1.0);
  int it = 0;
  while (it < 200) {
    dual d = ddiv(dsub(dmul(dmul(x, x), x), a), dscale(dmul(x, x), 3.0));
    x = dsub(x, d);
    it++;
    if (fabs(d.v) <= 1e-14 * fabs(x.v))
      break;
  }
  return x;
}

BATCHDIFF float nsqrtf_(float a) {
  if (!(a > 0.0f))
    return 0.0f;
  float x = a > 1.0f ? a : 1.0f;
  int i = 0;
  while (i < 60) {
    float nx = 0.5f * (x + a / x);
    if (fabsf(nx - x) <= 1e-6f * nx) {
      x = nx;
      break;
    }
    x = nx;
    i++;
  }
  return x;
}
static dualf nsqrtf_dual(dualf a) {
  if (!(a.v > 0.0f))
    return fc(0.0f);
  dualf x = a.v > 1.0f ? a : fc(1.0f);
  int i = 0;
  while (i < 60) {
    dualf s = fadd(x, fdivd(a, x));
    dualf nx = {0.5f * s.v, 0.5f * s.d};
    if (fabsf(nx.v - x.v) <= 1e-6f * nx.v) {
      x = nx;
      break;
    }
    x = nx;
    i++;
  }
  return x;
}

/* Accumulation: sum of f(x*k) for k < n. */
BATCHDIFF double accum(double x, int n) {
  double s = 0.0;
  for (int k = 0; k < n; k++)
    s += sin(x * k) + x * x / (k + 1);
  return s;
}
static dual accum_dual(dual x, int n) {
  dual s = dc(0.0);
  for (int k = 0; k < n; k++)
    s = dadd(s, dadd(dsin(dscale(x, k)), ddiv(dmul(x, x), dc(k + 1))));
  return s;
}

/* Recurrence x_{k+1} = a*x_k + sin(x_k). */
BATCHDIFF double recur(double x, double a, int n) {
  for (int k = 0; k < n; k++)
    x = a * x + sin(x);
  return x;
}
static dual recur_dual(dual x, dual a, int n) {
  for (int k = 0; k < n; k++)
    x = dadd(dmul(a, x), dsin(x));
  return x;
}

/* break, continue and return inside one loop. */
BATCHDIFF double bcr(double x, int n) {
  double y = x;
  for (int i = 0; i < n; i++) {
    if (i % 4 == 3)
      continue;
    y = y * x * 0.5 + cos(y);
    if (y > 4.0)
      break;
    if (y < -4.0)
      return y * x;
  }
  return y * y;
}
static dual bcr_dual(dual x, int n) {
  dual y = x;
  for (int i = 0; i < n; i++) {
    if (i % 4 == 3)
      continue;
    y = dadd(dscale(dmul(y, x), 0.5), dcos(y));
    if (y.v > 4.0)
      break;
    if (y.v < -4.0)
      return dmul(y, x);
  }
  return dmul(y, y);
}

/* Nested loops (inner do/while), early return from the inner loop. */
BATCHDIFF double nested(double x, double y, int n, int m) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    int j = 0;
    do {
      s += x * sin(y * j + i) / (1.0 + j);
      if (s > 8.0)
        return s * y;
      j++;
    } while (j < m);
    s *= 0.9;
  }
  return s + x;
}
static dual nested_dual(dual x, dual y, int n, int m) {
  dual s = dc(0.0);
  for (int i = 0; i < n; i++) {
    int j = 0;
    do {
      s = dadd(s, ddiv(dmul(x, dsin(dadd(dscale(y, j), dc(i)))), dc(1.0 + j)));
      if (s.v > 8.0)
        return dmul(s, y);
      j++;
    } while (j < m);
    s = dscale(s, 0.9);
  }
  return dadd(s, x);
}

/* A loop that runs zero times for some lanes: their gradient is that of
 * x*x alone. */
BATCHDIFF double zt(double x, int n) {
  double r = x * x;
  for (int i = 0; i < n; i++)
    r = r * 0.5 + sin(x * i);
  return r;
}
static dual zt_dual(dual x, int n) {
  dual r = dmul(x, x);
  for (int i = 0; i < n; i++)
    r = dadd(dscale(r, 0.5), dsin(dscale(x, i)));
  return r;
}

/* do/while whose reverse needs nothing from the iterations (no tape at
 * all): the body runs max(n, 1) times. */
BATCHDIFF double dwl(double x, int n) {
  double s = 0.0;
  do {
    s += x * x;
  } while (--n > 0);
  return s;
}
static dual dwl_dual(dual x, int n) {
  dual s = dc(0.0);
  do {
    s = dadd(s, dmul(x, x));
  } while (--n > 0);
  return s;
}

/* Escape loop on a float condition, int counter used in the result. */
BATCHDIFF double esc(double x, int n) {
  double y = x;
  int k = 0;
  while (y < 10.0 && k < n) {
    y = y * 1.5 + 0.1 * k;
    k++;
  }
  return y * k + y;
}
static dual esc_dual(dual x, int n) {
  dual y = x;
  int k = 0;
  while (y.v < 10.0 && k < n) {
    y = dadd(dscale(y, 1.5), dc(0.1 * k));
    k++;
  }
  return dadd(dscale(y, k), y);
}

/* Loops inside branches, a branch inside a loop, _Bool and int carried. */
BATCHDIFF double lib(double x, int n) {
  double r;
  if (x > 0.0) {
    r = 1.0;
    _Bool odd = 0;
    for (int i = 0; i < n; i++) {
      if (odd)
        r = r * x;
      else
        r = r + x * 0.25;
      odd = !odd;
    }
  } else {
    r = x * 3.0;
    int k = n;
    while (k > 0) {
      r = r * 0.5 - x;
      k -= 2;
    }
  }
  return r;
}
static dual lib_dual(dual x, int n) {
  dual r;
  if (x.v > 0.0) {
    r = dc(1.0);
    _Bool odd = 0;
    for (int i = 0; i < n; i++) {
      if (odd)
        r = dmul(r, x);
      else
        r = dadd(r, dscale(x, 0.25));
      odd = !odd;
    }
  } else {
    r = dscale(x, 3.0);
    int k = n;
    while (k > 0) {
      r = dsub(dscale(r, 0.5), x);
      k -= 2;
    }
  }
  return r;
}

/* A uniform parameter used inside a loop with a varying trip count: its
 * shadow is the sum over the batch. */
BATCHDIFF double uw(double x, BD_UNIFORM double w, int n) {
  double s = x;
  for (int i = 0; i < n; i++)
    s = s * w + x * w * 0.5;
  return s;
}
static dual uw_dual(dual x, dual w, int n) {
  dual s = x;
  for (int i = 0; i < n; i++)
    s = dadd(dmul(s, w), dscale(dmul(x, w), 0.5));
  return s;
}

/* Uniform trip count (no mask), uniform weight. */
BATCHDIFF double ut(double x, BD_UNIFORM double w, BD_UNIFORM int n) {
  double s = 0.0, p = x;
  for (int i = 0; i < n; i++) {
    s += sin(p) * w;
    p = p * w + 0.1;
  }
  return s;
}
static dual ut_dual(dual x, dual w, int n) {
  dual s = dc(0.0), p = x;
  for (int i = 0; i < n; i++) {
    s = dadd(s, dmul(dsin(p), w));
    p = dadd(dmul(p, w), dc(0.1));
  }
  return s;
}

/* Mixed float/double loop-carried values (shape d, float shadow). */
BATCHDIFF double cm(float f, double d, int n) {
  float ff = f;
  double dd = d;
  for (int i = 0; i < n; i++) {
    ff = ff * 0.5f + f;
    dd = dd * 0.25 + ff * d;
  }
  return dd;
}

/* Adapters to the common (x, n) shape. */
static double nsqrt_s(double a, int k) {
  (void)k;
  return nsqrt(a);
}
static dual nsqrt_d(dual a, int k) {
  (void)k;
  return nsqrt_dual(a);
}
static void nsqrt_g(size_t n, const double *x, const int *k, double *r,
                    const double *s, double *d) {
  (void)k;
  nsqrt_grad(n, x, r, s, d);
}
static double nsqrt_an(double a) { return a > 0.0 ? 0.5 / sqrt(a) : 0.0; }
static double ncbrt_s(double a, int k) {
  (void)k;
  return ncbrt(a);
}
static dual ncbrt_d(dual a, int k) {
  (void)k;
  return ncbrt_dual(a);
}
static void ncbrt_g(size_t n, const double *x, const int *k, double *r,
                    const double *s, double *d) {
  (void)k;
  ncbrt_grad(n, x, r, s, d);
}
static double ncbrt_an(double a) {
  double c = cbrt(a);
  return 1.0 / (3.0 * c * c);
}

/* ---- input generators ------------------------------------------------------
 */

static double g_apos(rng_t *r, int pat, size_t b) {
  switch (pat) {
  case 0:
    return exp(rng_range(r, -8.0, 14.0));
  case 1:
    return rng_range(r, 0.01, 50.0);
  case 2: /* 0 trips, 1 trip, then more and more */
    if (b % WF == 0)
      return -3.0;
    if (b % WF == 1)
      return 1.0;
    return pow(4.0, 2.0 * (double)(b % WF));
  case 3:
    return 2.0;
  default:
    return b % WF == 1 ? 1e12 : -1.0;
  }
}
static double g_acbrt(rng_t *r, int pat, size_t b) {
  double v = g_apos(r, pat, b);
  if (pat == 2 || pat == 4)
    v = fabs(v) + 0.5;
  return (b & 1) ? -v : v;
}

/* ---- tests ------------------------------------------------------------------
 */

static void grad_nsqrt(void **st) {
  (void)st;
  run_xn("nsqrt", nsqrt_g, nsqrt_s, nsqrt_d, nsqrt_an, g_apos, g_n, 0.0,
         DUAL_TOL, 1);
}
static void grad_ncbrt(void **st) {
  (void)st;
  run_xn("ncbrt", ncbrt_g, ncbrt_s, ncbrt_d, ncbrt_an, g_acbrt, g_n, 0.0,
         DUAL_TOL, 1);
}
/* ret tolerance for loops calling sin/cos: the vector math may differ by
 * an ULP per call (docs/runtime.md); recurrences amplify that mildly. */
#define MATH_RET_TOL 1e-11
static void grad_accum(void **st) {
  (void)st;
  run_xn("accum", accum_grad, accum, accum_dual, NULL, g_x, g_n, MATH_RET_TOL,
         1e-9, 1);
}
static void grad_bcr(void **st) {
  (void)st;
  run_xn("bcr", bcr_grad, bcr, bcr_dual, NULL, g_x, g_n, MATH_RET_TOL, 1e-9, 1);
}
static void grad_zt(void **st) {
  (void)st;
  run_xn("zt", zt_grad, zt, zt_dual, NULL, g_x, g_n, MATH_RET_TOL, 1e-9, 1);
}
static void grad_esc(void **st) {
  (void)st;
  run_xn("esc", esc_grad, esc, esc_dual, NULL, g_x, g_n, 0.0, DUAL_TOL, 1);
}
static void grad_dwl(void **st) {
  (void)st;
  run_xn("dwl", dwl_grad, dwl, dwl_dual, NULL, g_x, g_n, 0.0, DUAL_TOL, 1);
}
static void grad_lib(void **st) {
  (void)st;
  run_xn("lib", lib_grad, lib, lib_dual, NULL, g_x, g_n, 0.0, DUAL_TOL, 1);
}

/* Zero-trip lanes: exactly the gradient of x*x (2*x*seed), bit for bit
 * what the loop-free path gives. */
static void grad_zero_trip_exact(void **st) {
  (void)st;
  enum { N = 37 };
  double x[N], seed[N], ret[N], dx[N];
  int k[N];
  rng_t rng = {99};
  for (int b = 0; b < N; b++) {
    x[b] = rng_range(&rng, -3.0, 3.0);
    k[b] = (b % 3 == 0) ? 5 + b : (b % 3 == 1 ? 0 : -4);
    seed[b] = rng_range(&rng, -2.0, 2.0);
    dx[b] = 0.0;
  }
  zt_grad(N, x, k, ret, seed, dx);
  for (int b = 0; b < N; b++) {
    if (k[b] > 0)
      continue;
    assert_true(SAME(ret[b], x[b] * x[b]));
    double want = seed[b] * x[b] + seed[b] * x[b];
    if (!close_nan_inf(dx[b], want, 1e-15)) {
      print_error("zt zero-trip lane %d: d_x=%.17g want %.17g\n", b, dx[b],
                  want);
      fail();
    }
  }
}

static void grad_nsqrt_f(void **st) {
  (void)st;
  rng_t rng = {7};
  for (size_t ni = 0; ni < N_LOOP_NS; ni++) {
    size_t n = loop_ns[ni];
    for (int pat = 0; pat < N_PATS; pat++) {
      float *a = gp_alloc(n * sizeof *a), *ret = gp_alloc(n * sizeof *ret);
      float *seed = gp_alloc(n * sizeof *seed), *da = gp_alloc(n * sizeof *da);
      for (size_t b = 0; b < n; b++) {
        a[b] = (float)g_apos(&rng, pat, b);
        if (pat == 2 && b % WF > 1)
          a[b] = powf(4.0f, (float)(b % WF));
        seed[b] = (float)g_seed(&rng);
        da[b] = 0.25f;
      }
      gp_seal(a);
      gp_seal(seed);
      nsqrtf__grad(n, a, ret, seed, da);
      for (size_t b = 0; b < n; b++) {
        assert_true(SAME(ret[b], nsqrtf_(a[b])));
        dualf d = nsqrtf_dual((dualf){a[b], 1.0f});
        double want = 0.25 + (double)seed[b] * d.d;
        double an = a[b] > 0.0f ? 0.25 + seed[b] * 0.5 / sqrt(a[b]) : 0.25;
        if (!close_nan_inf(da[b], want, 1e-5) ||
            !close_nan_inf(da[b], an, 1e-4)) {
          print_error(
              "nsqrtf_grad: n=%zu pat=%d b=%zu a=%.9g seed=%g: d_a=%.9g "
              "dual %.9g analytic %.9g\n",
              n, pat, b, a[b], seed[b], da[b], want, an);
          fail();
        }
      }
      gp_reset();
    }
  }
}

/* recur(x, a, n): two varying shadows, every NULL combination. */
static void grad_recur(void **st) {
  (void)st;
  rng_t rng = {11};
  stats_t s = {0};
  for (size_t ni = 0; ni < N_LOOP_NS; ni++) {
    size_t n = loop_ns[ni];
    for (int pat = 0; pat < N_PATS; pat++) {
      double *x = gp_alloc(n * 8), *a = gp_alloc(n * 8),
             *seed = gp_alloc(n * 8);
      int *k = gp_alloc(n * sizeof(int));
      double *ret = gp_alloc(n * 8), *dx = gp_alloc(n * 8),
             *da = gp_alloc(n * 8), *dx1 = gp_alloc(n * 8),
             *da1 = gp_alloc(n * 8), *ret2 = gp_alloc(n * 8);
      for (size_t b = 0; b < n; b++) {
        x[b] = g_x(&rng, pat, b);
        a[b] = rng_range(&rng, -0.9, 0.9);
        k[b] = g_n(&rng, pat, b);
        seed[b] = g_seed(&rng);
        dx[b] = da[b] = 1.0;
        dx1[b] = da1[b] = 1.0;
      }
      gp_seal(x);
      gp_seal(a);
      gp_seal(k);
      gp_seal(seed);
      recur_grad(n, x, a, k, ret, seed, dx, da);
      recur_grad(n, x, a, k, NULL, seed, dx1, NULL);  /* d_a NULL */
      recur_grad(n, x, a, k, NULL, seed, NULL, da1);  /* d_x NULL */
      recur_grad(n, x, a, k, ret2, seed, NULL, NULL); /* primal only */
      recur_grad(n, x, a, k, NULL, NULL, NULL, NULL); /* nothing at all */
      for (size_t b = 0; b < n; b++) {
        double want = recur(x[b], a[b], k[b]);
        dual gx = recur_dual(dv(x[b]), dc(a[b]), k[b]);
        dual ga = recur_dual(dc(x[b]), dv(a[b]), k[b]);
        if (!close_nan_inf(ret[b], want, MATH_RET_TOL) ||
            !SAME(ret2[b], ret[b]) ||
            !close_nan_inf(dx[b], 1.0 + seed[b] * gx.d, 1e-9) ||
            !close_nan_inf(da[b], 1.0 + seed[b] * ga.d, 1e-9) ||
            !SAME(dx1[b], dx[b]) || !SAME(da1[b], da[b])) {
          print_error("recur_grad n=%zu pat=%d b=%zu x=%.17g a=%.17g k=%d: "
                      "ret %.17g/%.17g want %.17g; d_x %.17g (alone %.17g) "
                      "want %.17g; d_a %.17g (alone %.17g) want %.17g\n",
                      n, pat, b, x[b], a[b], k[b], ret[b], ret2[b], want, dx[b],
                      dx1[b], 1.0 + seed[b] * gx.d, da[b], da1[b],
                      1.0 + seed[b] * ga.d);
          fail();
        }
        /* finite differences in x */
        double h = 1e-6 * (1.0 + fabs(x[b]));
        double fd =
            (recur(x[b] + h, a[b], k[b]) - recur(x[b] - h, a[b], k[b])) /
            (2 * h);
        s.fd_total++;
        if (close_nan_inf(fd, gx.d, FD_TOL))
          s.fd_trusted++;
        s.checked++;
      }
      gp_reset();
    }
  }
  /* the recurrence is smooth: FD must agree with the dual nearly always */
  if (s.fd_trusted * 20 < s.fd_total * 19) {
    print_error("recur: FD agrees with forward mode for %zu of %zu\n",
                s.fd_trusted, s.fd_total);
    fail();
  }
}

/* nested(x, y, n, m): two shadows, inner do/while, early return. */
static void grad_nested(void **st) {
  (void)st;
  rng_t rng = {13};
  size_t fd_tot = 0;
  for (size_t ni = 0; ni < N_LOOP_NS; ni++) {
    size_t n = loop_ns[ni];
    for (int pat = 0; pat < N_PATS; pat++) {
      double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8),
             *seed = gp_alloc(n * 8);
      int *kn = gp_alloc(n * sizeof(int)), *km = gp_alloc(n * sizeof(int));
      double *ret = gp_alloc(n * 8), *dx = gp_alloc(n * 8),
             *dy = gp_alloc(n * 8);
      for (size_t b = 0; b < n; b++) {
        x[b] = g_x(&rng, pat, b);
        y[b] = rng_range(&rng, -2.0, 2.0);
        kn[b] = g_n(&rng, pat, b) / 2;
        km[b] = pat == 2 ? (int)((b * 3 + 1) % WF) : rng_below(&rng, 6);
        seed[b] = g_seed(&rng);
        dx[b] = dy[b] = 0.5;
      }
      gp_seal(x);
      gp_seal(y);
      gp_seal(kn);
      gp_seal(km);
      gp_seal(seed);
      nested_grad(n, x, y, kn, km, ret, seed, dx, dy);
      for (size_t b = 0; b < n; b++) {
        double want = nested(x[b], y[b], kn[b], km[b]);
        dual gx = nested_dual(dv(x[b]), dc(y[b]), kn[b], km[b]);
        dual gy = nested_dual(dc(x[b]), dv(y[b]), kn[b], km[b]);
        if (!close_nan_inf(ret[b], want, MATH_RET_TOL) ||
            !close_nan_inf(dx[b], 0.5 + seed[b] * gx.d, 1e-9) ||
            !close_nan_inf(dy[b], 0.5 + seed[b] * gy.d, 1e-9)) {
          print_error("nested_grad n=%zu pat=%d b=%zu x=%.17g y=%.17g n=%d "
                      "m=%d: ret %.17g want %.17g; d_x %.17g want %.17g; d_y "
                      "%.17g want %.17g\n",
                      n, pat, b, x[b], y[b], kn[b], km[b], ret[b], want, dx[b],
                      0.5 + seed[b] * gx.d, dy[b], 0.5 + seed[b] * gy.d);
          fail();
        }
        double h = 1e-6 * (1.0 + fabs(y[b]));
        double fp = nested(x[b], y[b] + h, kn[b], km[b]);
        double fm = nested(x[b], y[b] - h, kn[b], km[b]);
        double f0 = want;
        double fd = (fp - fm) / (2 * h);
        if (fabs((fp - f0) / h - (f0 - fm) / h) <= 1e-4 * (1 + fabs(fd))) {
          fd_tot++;
          if (!close_nan_inf(gy.d, fd, FD_TOL)) {
            print_error("nested: forward mode %.17g vs FD %.17g\n", gy.d, fd);
            fail();
          }
        }
      }
      gp_reset();
    }
  }
  assert_true(fd_tot > 100);
}

/* Uniform w inside loops: d_w is one value, incremented by the batch sum. */
static void grad_uniform(void **st) {
  (void)st;
  rng_t rng = {17};
  for (size_t ni = 0; ni < N_LOOP_NS; ni++) {
    size_t n = loop_ns[ni];
    for (int pat = 0; pat < N_PATS; pat++) {
      double w = pat == 3 ? -0.8 : rng_range(&rng, -0.95, 0.95);
      int un = (int[]){0, 1, 5, 17, 64}[pat];
      double *x = gp_alloc(n * 8), *seed = gp_alloc(n * 8);
      int *k = gp_alloc(n * sizeof(int));
      double *ret = gp_alloc(n * 8), *dx = gp_alloc(n * 8),
             *ret2 = gp_alloc(n * 8), *dx2 = gp_alloc(n * 8);
      for (size_t b = 0; b < n; b++) {
        x[b] = g_x(&rng, pat, b);
        k[b] = g_n(&rng, pat, b);
        seed[b] = g_seed(&rng);
        dx[b] = dx2[b] = 0.0;
      }
      gp_seal(x);
      gp_seal(k);
      gp_seal(seed);
      double dw = 3.0, dw2 = -1.0, dw_null = 7.0;
      uw_grad(n, x, w, k, ret, seed, dx, &dw);
      ut_grad(n, x, w, un, ret2, seed, dx2, &dw2);
      uw_grad(n, x, w, k, NULL, seed, NULL, &dw_null); /* only d_w */
      double want_w = 3.0, want_w2 = -1.0, abs_w = 0, abs_w2 = 0;
      for (size_t b = 0; b < n; b++) {
        dual gx = uw_dual(dv(x[b]), dc(w), k[b]);
        dual gw = uw_dual(dc(x[b]), dv(w), k[b]);
        want_w += seed[b] * gw.d;
        abs_w += fabs(seed[b] * gw.d);
        if (!SAME(ret[b], uw(x[b], w, k[b])) ||
            !close_nan_inf(dx[b], seed[b] * gx.d, DUAL_TOL)) {
          print_error("uw_grad n=%zu pat=%d b=%zu: ret %.17g want %.17g, d_x "
                      "%.17g want %.17g\n",
                      n, pat, b, ret[b], uw(x[b], w, k[b]), dx[b],
                      seed[b] * gx.d);
          fail();
        }
        dual hx = ut_dual(dv(x[b]), dc(w), un);
        dual hw = ut_dual(dc(x[b]), dv(w), un);
        want_w2 += seed[b] * hw.d;
        abs_w2 += fabs(seed[b] * hw.d);
        if (!close_nan_inf(ret2[b], ut(x[b], w, un), MATH_RET_TOL) ||
            !close_nan_inf(dx2[b], seed[b] * hx.d, 1e-9)) {
          print_error("ut_grad n=%zu pat=%d b=%zu: ret %.17g want %.17g, d_x "
                      "%.17g want %.17g\n",
                      n, pat, b, ret2[b], ut(x[b], w, un), dx2[b],
                      seed[b] * hx.d);
          fail();
        }
      }
      if (fabs(dw - want_w) > 1e-10 * (1 + abs_w) ||
          fabs(dw_null - 4.0 - want_w) > 1e-10 * (1 + abs_w) ||
          fabs(dw2 - want_w2) > 1e-9 * (1 + abs_w2)) {
        print_error("uniform shadow n=%zu pat=%d: uw d_w %.17g (alone %.17g) "
                    "want %.17g; ut d_w %.17g want %.17g\n",
                    n, pat, dw, dw_null - 4.0, want_w, dw2, want_w2);
        fail();
      }
      gp_reset();
    }
  }
}

/* cm(float f, double d, int n): float shadow in a double-shaped kernel. */
static void grad_mixed(void **st) {
  (void)st;
  rng_t rng = {19};
  for (size_t ni = 0; ni < N_LOOP_NS; ni++) {
    size_t n = loop_ns[ni];
    for (int pat = 0; pat < N_PATS; pat++) {
      float *f = gp_alloc(n * 4), *df = gp_alloc(n * 4);
      double *d = gp_alloc(n * 8), *dd = gp_alloc(n * 8),
             *ret = gp_alloc(n * 8);
      int *k = gp_alloc(n * sizeof(int));
      for (size_t b = 0; b < n; b++) {
        f[b] = (float)g_x(&rng, pat, b);
        d[b] = rng_range(&rng, -2, 2);
        k[b] = g_n(&rng, pat, b);
        df[b] = 0.0f;
        dd[b] = 0.0;
      }
      gp_seal(f);
      gp_seal(d);
      gp_seal(k);
      cm_grad(n, f, d, k, ret, NULL, df, dd);
      for (size_t b = 0; b < n; b++) {
        /* forward mode by hand, in the same precisions */
        float ff = f[b], dff = 1.0f;                        /* d/df */
        double ddv = d[b], ddf = 0.0, ddd = 1.0, ffd = 0.0; /* ffd: dff/dd=0 */
        (void)ffd;
        for (int i = 0; i < k[b]; i++) {
          ff = ff * 0.5f + f[b];
          dff = dff * 0.5f + 1.0f;
          double nd = ddv * 0.25 + ff * d[b];
          ddf = ddf * 0.25 + (double)dff * d[b];
          ddd = ddd * 0.25 + ff;
          ddv = nd;
        }
        if (!SAME(ret[b], cm(f[b], d[b], k[b])) ||
            !close_nan_inf(df[b], ddf, 1e-6) ||
            !close_nan_inf(dd[b], ddd, 1e-6)) {
          print_error("cm_grad n=%zu pat=%d b=%zu k=%d: ret %.17g want %.17g; "
                      "d_f %.9g want %.9g; d_d %.17g want %.17g\n",
                      n, pat, b, k[b], ret[b], cm(f[b], d[b], k[b]), df[b], ddf,
                      dd[b], ddd);
          fail();
        }
      }
      gp_reset();
    }
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(grad_nsqrt),
      cmocka_unit_test(grad_ncbrt),
      cmocka_unit_test(grad_nsqrt_f),
      cmocka_unit_test(grad_accum),
      cmocka_unit_test(grad_recur),
      cmocka_unit_test(grad_bcr),
      cmocka_unit_test(grad_nested),
      cmocka_unit_test(grad_zt),
      cmocka_unit_test(grad_zero_trip_exact),
      cmocka_unit_test(grad_esc),
      cmocka_unit_test(grad_lib),
      cmocka_unit_test(grad_dwl),
      cmocka_unit_test(grad_uniform),
      cmocka_unit_test(grad_mixed),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
