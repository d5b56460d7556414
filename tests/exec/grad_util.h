/* Gradient test harness for NAME_grad (tests/exec).
 *
 * A test case describes one annotated function through small adapters that
 * move values between the harness (which keeps everything in double) and
 * the function's real parameter types:
 *   scalar(a)          NAME(example's arguments)
 *   deriv(a, j)        d NAME / d param j at a, by forward mode over the
 *                      hand-written dual-number copy of NAME in the test
 *   batched(n, A, ret) NAME_batched; A[j]: n values (varying) or 1 (uniform)
 *   grad(n, A, ret, dret, SH)  NAME_grad; SH[j]: shadow of differentiable
 *                      param j (n values varying, 1 uniform) or NULL
 *   sample(r, a)       one example's arguments, away from NaN/overflow
 *
 * run_grad_case() then checks, for every n in grad_ns:
 *   - ret written by _grad equals _batched's output (any NaN matches NaN);
 *   - shadows are incremented: a run with pre-filled shadows S0 gives
 *     exactly S0 + (the run from zero), rounded once in the shadow's type;
 *   - each example's shadow equals seed * (dual-number derivative of the
 *     path it took) to a tight relative tolerance (double 1e-12, float 2e-5);
 *   - uniform shadows get the sum over the batch;
 *   - d_ret NULL gives exactly what d_ret = all ones gives; ret NULL and
 *     NULL shadows are accepted and leave the other shadows unchanged;
 *   - central finite differences of NAME agree (double: 1e-6 relative;
 *     float: 1e-2), skipping points where two step sizes disagree (kinks).
 * Inputs, ret and shadows end at PROT_NONE guard pages (exec_util.h).
 */
#ifndef BATCHDIFF_GRAD_UTIL_H
#define BATCHDIFF_GRAD_UTIL_H

#include "exec_util.h"

#include "../common/dual.h"

/* ---- cases --------------------------------------------------------------- */

enum { P_VD, P_UD, P_VN, P_UN }; /* varying/uniform x diff/nodiff */
#define GMAXP 6

typedef struct {
  const char *name;
  int np;
  int kind[GMAXP];
  int is_float;      /* float return and float shadows */
  unsigned float_sh; /* bit j: param j is float in a double function */
  double (*scalar)(const double *a);
  double (*deriv)(const double *a, int j);
  void (*batched)(size_t n, double *const *A, double *ret);
  void (*grad)(size_t n, double *const *A, double *ret, const double *dret,
               double *const *SH);
  void (*sample)(rng_t *r, double *a);
  /* Primal check: batched vs scalar within 8 ULP, or within ret_abs when
   * it is set (cancellation after math calls amplifies their ULPs). */
  double ret_abs;
  /* Dual-number tolerance when not the default: adjoints of float
   * intermediates are floats, so a double parameter whose derivative flows
   * through a float variable is only float-accurate. */
  double tol;
  /* bit j: the function rounds param j (or a value made from it) to float,
   * so finite differences in j need float-sized steps and tolerance. */
  unsigned fd_coarse;
} gcase;

static int is_diff(int k) { return k == P_VD || k == P_UD; }
static int is_unif(int k) { return k == P_UD || k == P_UN; }

/* Adapter helpers for float functions: float copies in guard-page memory. */
static float *to_f(const double *a, size_t n) {
  float *f = gp_alloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++)
    f[i] = (float)a[i];
  gp_seal(f);
  return f;
}
static float *sh_f(const double *a, size_t n) { /* writable, NULL stays */
  if (!a)
    return NULL;
  float *f = gp_alloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++)
    f[i] = (float)a[i];
  return f;
}
static void sh_back(double *a, const float *f, size_t n) {
  if (a)
    for (size_t i = 0; i < n; i++)
      a[i] = f[i];
}
static int *to_i(const double *a, size_t n) {
  int *p = gp_alloc(n * sizeof(int));
  for (size_t i = 0; i < n; i++)
    p[i] = (int)a[i];
  gp_seal(p);
  return p;
}

static const size_t grad_ns[] = {0,      1,          WF - 1,     WF,
                                 WF + 1, WD - 1,     WD,         WD + 1,
                                 2 * WF + 3, 1000};
#define N_GRAD_NS (sizeof grad_ns / sizeof grad_ns[0])

static double *gbuf(size_t n) { return gp_alloc(n * sizeof(double)); }

static int sh_is_float(const gcase *c, int j) {
  return c->is_float || ((c->float_sh >> j) & 1);
}
/* Round as the shadow's type adds. */
static double acc_add(const gcase *c, int j, double s0, double g) {
  return sh_is_float(c, j) ? (double)((float)s0 + (float)g) : s0 + g;
}

static int same_val(double a, double b) {
  return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}

#define GFAIL(...)                                                             \
  do {                                                                         \
    print_error("%s: ", c->name);                                              \
    print_error(__VA_ARGS__);                                                  \
    print_error("\n");                                                         \
    gp_reset();                                                                \
    fail();                                                                    \
  } while (0)

static void print_args(const gcase *c, double *const *A, size_t b) {
  print_error("  args:");
  for (int j = 0; j < c->np; j++)
    print_error(" %.17g", is_unif(c->kind[j]) ? A[j][0] : A[j][b]);
  print_error("\n");
}

/* Central difference of the scalar function in param j at example args a,
 * with *noise set to a bound on its rounding error; NAN at an apparent kink
 * (forward and backward differences disagree, or two step sizes do). The
 * steps actually taken are used (float arguments round x +- h). */
static double fd_deriv(const gcase *c, const double *a, int j,
                       double *noise) {
  int fl = sh_is_float(c, j) || ((c->fd_coarse >> j) & 1);
  int fret = c->is_float;
  double eps_ret = fret ? 0x1p-24 : 0x1p-53;
  double x[GMAXP];
  double h = (fl ? 1e-3 : 1e-5) * fmax(1.0, fabs(a[j]));
  double ktol = fl ? 5e-2 : 1e-3;
  double est[2], nz = 0;
  memcpy(x, a, sizeof x);
  double f0 = c->scalar(x);
  for (int k = 0; k < 2; k++, h *= 0.5) {
    double xp = a[j] + h, xm = a[j] - h;
    if (fl) {
      xp = (float)xp;
      xm = (float)xm;
    }
    x[j] = xp;
    double fp = c->scalar(x);
    x[j] = xm;
    double fm = c->scalar(x);
    x[j] = a[j];
    double hp = xp - a[j], hm = a[j] - xm;
    est[k] = (fp - fm) / (hp + hm);
    double fwd = (fp - f0) / hp, bwd = (f0 - fm) / hm;
    /* each function value is off by ~eps |f| (more with math calls) */
    double rn = 8 * eps_ret * (fabs(fp) + fabs(fm) + fabs(f0));
    nz = rn / (hp + hm);
    if (!(fabs(fwd - bwd) <= ktol * (fabs(est[k]) + 1.0) + 2 * rn / fmin(hp, hm)))
      return NAN;
  }
  /* A jump J in the function inside [x-h, x+h] (a branch threshold) moves
   * est[k] by about J/(2h_k): est[1] - est[0] shows it, and bounding it by
   * a quarter of the final tolerance keeps est[1] within that tolerance. */
  if (!(fabs(est[0] - est[1]) <=
        (fl || fret ? 1e-2 : 1e-6) / 4 * (fabs(est[1]) + 1e-3) + 2 * nz))
    return NAN;
  *noise = 2 * nz;
  return est[1];
}

static void run_grad_case(const gcase *c) {
  gp_reset(); /* in case an earlier test failed mid-way */
  int lane_dep = 0; /* lane-independence failures: reported once, at the end */
  rng_t rng = {name_seed(c->name)};
  const double tol = c->is_float ? 2e-5 : 1e-12;
  const double fdtol = c->is_float ? 1e-2 : 1e-6;
  size_t fd_checked = 0, fd_skipped = 0;
  for (size_t ni = 0; ni < N_GRAD_NS; ni++) {
    size_t n = grad_ns[ni];
    for (int rep = 0; rep < 3; rep++) {
      /* Inputs: one sample per example; uniform params take example 0's. */
      double *A[GMAXP];
      double a0[GMAXP];
      c->sample(&rng, a0);
      for (int j = 0; j < c->np; j++) {
        size_t len = is_unif(c->kind[j]) ? 1 : n;
        A[j] = gbuf(len);
        if (is_unif(c->kind[j]))
          A[j][0] = a0[j];
      }
      for (size_t b = 0; b < n; b++) {
        double a[GMAXP];
        c->sample(&rng, a);
        for (int j = 0; j < c->np; j++)
          if (!is_unif(c->kind[j]))
            A[j][b] = a[j];
      }
      for (int j = 0; j < c->np; j++)
        gp_seal(A[j]);

      /* Seeds: all ones, or random (some zero, some negative). */
      double *seed = gbuf(n);
      int ones = rep == 0;
      for (size_t b = 0; b < n; b++)
        seed[b] = ones ? 1.0
                       : (rng_below(&rng, 8) == 0
                              ? 0.0
                              : (c->is_float ? (double)(float)rng_range(
                                                   &rng, -2, 2)
                                             : rng_range(&rng, -2, 2)));
      gp_seal(seed);

      /* Reference primal. */
      double *ret_b = gbuf(n);
      c->batched(n, A, ret_b);
      for (size_t b = 0; b < n; b++) {
        double a[GMAXP];
        for (int j = 0; j < c->np; j++)
          a[j] = is_unif(c->kind[j]) ? A[j][0] : A[j][b];
        double want = c->scalar(a);
        /* Bit-exactness is test_arith's job; here math calls inside the
         * function may make a few ULP of difference. */
        double ud = c->is_float ? ulp_dist_f((float)want, (float)ret_b[b])
                                : ulp_dist_d(want, ret_b[b]);
        if (!same_val(want, ret_b[b]) && !(ud <= 8) &&
            !(fabs(want - ret_b[b]) <= c->ret_abs)) {
          print_args(c, A, b);
          GFAIL("batched ret %.17g vs scalar %.17g (%g ULP) at n=%zu b=%zu",
                ret_b[b], want, ud, n, b);
        }
      }

      /* Run 1: zero shadows, ret requested. */
      double *S1[GMAXP] = {0}, *S2[GMAXP] = {0}, *S3[GMAXP] = {0};
      double *S0v[GMAXP] = {0};
      for (int j = 0; j < c->np; j++) {
        if (!is_diff(c->kind[j]))
          continue;
        size_t len = is_unif(c->kind[j]) ? 1 : n;
        S1[j] = gbuf(len);
        S2[j] = gbuf(len);
        S3[j] = gbuf(len);
        S0v[j] = malloc((len ? len : 1) * sizeof(double));
        for (size_t b = 0; b < len; b++) {
          S1[j][b] = 0.0;
          S0v[j][b] = 0.25 * (double)(1 + (b + (size_t)j) % 7) *
                      (b % 2 ? -1.0 : 1.0);
          S2[j][b] = S0v[j][b];
          S3[j][b] = 0.0;
        }
      }
      double *ret_g = gbuf(n);
      for (size_t b = 0; b < n; b++)
        ret_g[b] = -12345.0;
      c->grad(n, A, ret_g, ones ? NULL : seed, S1);
      for (size_t b = 0; b < n; b++)
        if (!same_val(ret_g[b], ret_b[b]))
          GFAIL("grad ret %.17g != batched %.17g at n=%zu b=%zu", ret_g[b],
                ret_b[b], n, b);

      /* Run 2: pre-filled shadows, ret NULL: S0 + run 1, exactly. */
      c->grad(n, A, NULL, ones ? NULL : seed, S2);
      for (int j = 0; j < c->np; j++) {
        if (!is_diff(c->kind[j]))
          continue;
        size_t len = is_unif(c->kind[j]) ? 1 : n;
        for (size_t b = 0; b < len; b++) {
          double want = acc_add(c, j, S0v[j][b], S1[j][b]);
          if (!same_val(S2[j][b], want)) {
            print_args(c, A, b);
            GFAIL("param %d: shadow not incremented: got %.17g, want "
                  "%.17g + %.17g = %.17g (n=%zu b=%zu)",
                  j, S2[j][b], S0v[j][b], S1[j][b], want, n, b);
          }
        }
      }

      /* Run 3: explicit all-ones seeds vs NULL (rep 0), or NULL shadows
       * for every other differentiable param (other reps). */
      int skip_par = rep; /* which parity of diff params to pass NULL */
      double *S3p[GMAXP] = {0};
      int di = 0;
      for (int j = 0; j < c->np; j++)
        if (is_diff(c->kind[j])) {
          S3p[j] = (ones || (di % 2) != (skip_par % 2)) ? S3[j] : NULL;
          di++;
        }
      if (ones) {
        double *one = gbuf(n);
        for (size_t b = 0; b < n; b++)
          one[b] = 1.0;
        c->grad(n, A, NULL, one, S3p);
      } else {
        c->grad(n, A, NULL, seed, S3p);
      }
      for (int j = 0; j < c->np; j++) {
        if (!S3p[j])
          continue;
        size_t len = is_unif(c->kind[j]) ? 1 : n;
        for (size_t b = 0; b < len; b++)
          if (!same_val(S3[j][b], S1[j][b]))
            GFAIL("param %d: %s changed the gradient: %.17g vs %.17g "
                  "(n=%zu b=%zu)",
                  j, ones ? "d_ret = ones instead of NULL" : "NULL shadows",
                  S3[j][b], S1[j][b], n, b);
      }
      /* Everything NULL: must not crash or write. */
      {
        double *none[GMAXP] = {0};
        c->grad(n, A, NULL, ones ? NULL : seed, none);
      }

      /* Lanes are independent: example b alone (n = 1, the masked tail
       * path) gives the same ret and varying shadows, bit for bit. */
      for (size_t b = 0; b < n; b += (n > 40 ? 37 : 1)) {
        double *A1[GMAXP], *S4[GMAXP] = {0};
        for (int j = 0; j < c->np; j++) {
          A1[j] = is_unif(c->kind[j]) ? A[j] : A[j] + b;
          if (is_diff(c->kind[j])) {
            S4[j] = gbuf(1);
            S4[j][0] = 0.0;
          }
        }
        double *r1 = gbuf(1);
        c->grad(1, A1, r1, ones ? NULL : seed + b, S4);
        if (!same_val(r1[0], ret_g[b]) && !lane_dep++)
          print_error("%s: example %zu alone: ret %.17g, in the batch %.17g "
                      "(n=%zu)\n",
                      c->name, b, r1[0], ret_g[b], n);
        for (int j = 0; j < c->np; j++)
          if (is_diff(c->kind[j]) && !is_unif(c->kind[j]) &&
              !same_val(S4[j][0], S1[j][b]) && !lane_dep++) {
            print_args(c, A, b);
            print_error("%s: param %d: example %zu alone: gradient %.17g, in "
                        "the batch %.17g (n=%zu)\n",
                        c->name, j, b, S4[j][0], S1[j][b], n);
          }
      }

      /* NaN / Inf in some lanes must not leak into the others. */
      if (rep == 2 && n > 1) {
        double *AP[GMAXP], *S5[GMAXP] = {0};
        int pj = -1;
        for (int j = 0; j < c->np && pj < 0; j++)
          if (!is_unif(c->kind[j]) && is_diff(c->kind[j]))
            pj = j;
        if (pj >= 0) {
          for (int j = 0; j < c->np; j++) {
            AP[j] = A[j];
            if (is_diff(c->kind[j])) {
              size_t len = is_unif(c->kind[j]) ? 1 : n;
              S5[j] = gbuf(len);
              for (size_t b = 0; b < len; b++)
                S5[j][b] = 0.0;
            }
          }
          static const double poison[] = {NAN, INFINITY, -INFINITY, 1e308,
                                           -1e308};
          AP[pj] = gbuf(n);
          for (size_t b = 0; b < n; b++)
            AP[pj][b] = b % 3 == 1 ? poison[(b / 3) % 5] : A[pj][b];
          c->grad(n, AP, NULL, seed, S5);
          for (int j = 0; j < c->np; j++)
            if (is_diff(c->kind[j]) && !is_unif(c->kind[j]))
              for (size_t b = 0; b < n; b++)
                if (b % 3 != 1 && !same_val(S5[j][b], S1[j][b]) &&
                    !lane_dep++) {
                  print_args(c, A, b);
                  print_error("  seed %.17g; lane inputs of param %d:", seed[b],
                              pj);
                  for (size_t k = b - b % WF; k < n && k < b - b % WF + WF;
                       k++)
                    print_error(" %g", AP[pj][k]);
                  print_error("\n");
                  print_error("%s: param %d: example %zu's gradient changed "
                              "from %.17g to %.17g when other lanes got "
                              "NaN/Inf (n=%zu)\n",
                              c->name, j, b, S1[j][b], S5[j][b], n);
                }
        }
      }

      /* Against dual numbers (and finite differences). */
      for (int j = 0; j < c->np; j++) {
        if (!is_diff(c->kind[j]))
          continue;
        double usum = 0.0, uabs = 0.0;
        for (size_t b = 0; b < n; b++) {
          double a[GMAXP];
          for (int k = 0; k < c->np; k++)
            a[k] = is_unif(c->kind[k]) ? A[k][0] : A[k][b];
          double d = c->deriv(a, j);
          double s = ones ? 1.0 : seed[b];
          double want = s * d;
          if (is_unif(c->kind[j])) {
            usum += want;
            uabs += fabs(want);
          } else {
            double got = S1[j][b];
            double t = c->tol ? c->tol
                              : sh_is_float(c, j) && !c->is_float ? 1e-6 : tol;
            if (!close_to(got, want, t)) {
              print_args(c, A, b);
              GFAIL("param %d: gradient %.17g, dual numbers say %.17g "
                    "(seed %.17g, n=%zu b=%zu)",
                    j, got, want, s, n, b);
            }
          }
          /* Finite differences on a subset. */
          if (b % 7 == 0 && rep == 0) {
            double noise = 0;
            double fd = fd_deriv(c, a, j, &noise);
            if (isnan(fd)) {
              fd_skipped++;
            } else {
              fd_checked++;
              double ft = sh_is_float(c, j) || ((c->fd_coarse >> j) & 1)
                              ? 1e-2
                              : fdtol;
              if (!(fabs(fd - d) <= ft * (fabs(d) + 1e-3) + noise)) {
                print_args(c, A, b);
                GFAIL("param %d: dual derivative %.17g vs finite "
                      "differences %.17g (n=%zu b=%zu)",
                      j, d, fd, n, b);
              }
            }
          }
        }
        if (is_unif(c->kind[j])) {
          double got = S1[j][0];
          if (!(fabs(got - usum) <= tol * (uabs + 1.0) * 4))
            GFAIL("param %d (uniform): gradient %.17g, sum over batch "
                  "%.17g (n=%zu)",
                  j, got, usum, n);
        }
      }
      for (int j = 0; j < c->np; j++)
        free(S0v[j]);
      gp_reset();
    }
  }
  if (lane_dep)
    GFAIL("%d examples' results depend on their neighbours in the batch",
          lane_dep);
  /* The FD check must not have been skipped everywhere. */
  if (fd_checked < 4 * fd_skipped || fd_checked == 0)
    GFAIL("finite differences checked %zu points, skipped %zu", fd_checked,
          fd_skipped);
}

#define GTEST(c)                                                               \
  static void grad_##c(void **state_) {                                        \
    (void)state_;                                                              \
    run_grad_case(&c);                                                         \
  }
#define GT_(c) cmocka_unit_test(grad_##c)

/* Dual inputs with a unit tangent in argument j. */
static void dseed(dual *x, const double *a, int np, int j) {
  for (int k = 0; k < np; k++)
    x[k] = (dual){a[k], k == j ? 1.0 : 0.0};
}

/* Boilerplate for all-double functions of 2 varying params. */
#define ADAPT2(fn)                                                             \
  static double s_##fn(const double *a) { return fn(a[0], a[1]); }             \
  static void b_##fn(size_t n, double *const *A, double *r) {                  \
    fn##_batched(n, A[0], A[1], r);                                            \
  }                                                                            \
  static void g_##fn(size_t n, double *const *A, double *r, const double *dr,  \
                     double *const *S) {                                       \
    fn##_grad(n, A[0], A[1], r, dr, S[0], S[1]);                               \
  }                                                                            \
  static double d_##fn(const double *a, int j) {                               \
    dual x[2];                                                                 \
    dseed(x, a, 2, j);                                                         \
    return dual_##fn(x[0], x[1]).d;                                            \
  }
#define CASE2(fn, SAMPLE)                                                      \
  static const gcase c_##fn = {#fn,    2,      {P_VD, P_VD}, 0, 0, s_##fn,     \
                               d_##fn, b_##fn, g_##fn,       SAMPLE};          \
  GTEST(c_##fn)

#endif /* BATCHDIFF_GRAD_UTIL_H */
