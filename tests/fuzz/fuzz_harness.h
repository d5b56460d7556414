/* Differential checks for the random programs of tests/fuzz/gen.py.
 *
 * The generated file defines, per annotated function f, four adapters that
 * take every argument as a double (floats and ints are stored exactly):
 *   scalar(a)                 f(a...) converted to double
 *   twin(a)                   the same body with every float made double (an
 *                             unannotated copy)
 *   ltwin(a)                  the same body in long double: finite
 *                             differences use it
 *   batched(n, a, ret)        f_batched; a[p] is n values (1 if uniform)
 *   grad(n, a, ret, d)        f_grad with d_ret NULL; d[p] is the shadow of
 *                             parameter p (n values, 1 if uniform, NULL if
 *                             p has none or the caller wants it NULL)
 * and a fz_fn descriptor; main() calls fz_main() with the table.
 *
 * Checks, for n in fz_ns[] and several input patterns:
 *  1. batched == loop over the scalar function, bit for bit (any NaN equals
 *     any NaN) when f calls no transcendental function; otherwise within
 *     FZ_TOL_D / FZ_TOL_F relative; a larger difference that the scalar
 *     function itself shows under relative input perturbations of 2^-40
 *     (double) / 2^-18 (float) is counted as "sensitive" (a math ULP can flip
 *     a comparison) instead of failing; a difference where the scalar
 *     path took a sign from a NaN (copysign, signbit, bits: unspecified,
 *     docs/abi.md) is counted as "nan_sign" (fuzz_explain.h);
 *  2. grad's ret equals batched's bit for bit; shadows pre-filled with
 *     nonzero values end as fl(pre + g) of a zero-filled call, bit for bit;
 *     each example alone (n = 1) gives the bits it gets inside the batch;
 *     a NULL shadow changes nothing else;
 *     varying gradients agree with Richardson-extrapolated central
 *     differences of the long twin (every floating type long double) at
 *     points where two scales and the one-sided differences at a tiny step
 *     agree (elsewhere: a kink or ill-conditioned point, skipped and
 *     counted) and where the long twin's value is the function's to 1e-9
 *     relative (1e-4 with float arithmetic; elsewhere: floatpath);
 *  3. uniform shadows equal the sum over the batch of the n = 1 gradients
 *     (to rounding), and the sum of per-example finite differences;
 *  4. a global the function writes (gget/gset) holds, after each generated
 *     function, what the sequential loop over the scalar function leaves:
 *     what the last example that wrote it left, its value before the call
 *     if none did (fuzz_global.h);
 *  5. NAME_jvp: ret as batched, NULL tangents as zeros, d_ret against
 *     dot(gradient, tangent);
 *  6. NAME_hvp (fuzz_hvp.h);
 *  7. calls of outside functions (gen.py --features ecalls): as the scalar
 *     loop makes them, in every generated function (fz_check_ext).
 * Prints FAIL lines with the inputs in hex; exit status 1 on any failure. */
#ifndef BATCHDIFF_FUZZ_HARNESS_H
#define BATCHDIFF_FUZZ_HARNESS_H

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* flat parameters: gen.py --features passes every struct member and array
 * element as a parameter of its own */
#define FZ_MAXP 64
/* The oracle's self-test (gen.py --mutate-grad): gradients are compared
 * with the finite differences scaled by 1 + FZ_MUTATE, a deliberate bug
 * that must be reported. */
#ifndef FZ_MUTATE
#define FZ_MUTATE 0.0
#endif
/* The primal checks' self-test (gen.py --mutate-ret): every NAME_batched
 * result is scaled by 1 + FZ_MUTATE_RET, a deliberate bug that must be
 * reported even where some results are excused (fz_nan_sign). */
#ifndef FZ_MUTATE_RET
#define FZ_MUTATE_RET 0.0
#endif
/* Check 5's self-test (gen.py --mutate-jvp): every NAME_jvp d_ret is
 * compared with dot(gradient, tangent) scaled by 1 + FZ_MUTATE_JVP, a
 * deliberate bug that must be reported (also at seed 289's jvp_gradoff
 * point, where the gradient is off). */
#ifndef FZ_MUTATE_JVP
#define FZ_MUTATE_JVP 0.0
#endif
/* Check 4's self-tests (gen.py --mutate-global): 1, the harness expects
 * in a written global what example n - 1 alone leaves, as if every example
 * wrote it (the oracle before globals written on some paths); 2, it runs
 * the scalar loop from another value of the global than the generated
 * functions, as if they had to change it where no example writes it: a
 * function writing one on some paths only must then be reported. */
#ifndef FZ_MUTATE_GLOBAL
#define FZ_MUTATE_GLOBAL 0
#endif

/* a ragged array's length parameter (gen.py --features): the harness's int
 * value mapped to 1..N, the same in every adapter */
static inline int fz_len(int v, int N) {
  v %= N;
  return 1 + (v < 0 ? v + N : v);
}

/* Memory whose last byte is followed by a PROT_NONE page (gen.py
 * --features shortc: arrays read where C reads them only conditionally,
 * `i < N && x[i] < t`, their shadows and tangents; a read past them
 * faults): gp_map(bytes), freed by gp_unmap(p, bytes). */
#include "../common/guard_pages.h"

typedef struct {
  const char *name;
  int np;
  const char *ptype;   /* per parameter: 'f' float, 'd' double, 'i' int */
  const char *uniform; /* per parameter: '1' uniform, '0' varying */
  const char *nodiff;  /* per parameter: '1' BD_NODIFF */
  char rtype;          /* 'f' or 'd' */
  int transcendental;  /* calls exp/log/sin/cos/tanh somewhere */
  int twin_exact;      /* no float arithmetic: the twin is the same code */
  double (*scalar)(const double *a);
  double (*twin)(const double *a);
  long double (*ltwin)(const long double *a); /* every type long double */
  void (*batched)(size_t n, double *const *a, double *ret);
  void (*grad)(size_t n, double *const *a, double *ret, double *const *d);
  /* NAME_jvp: tangents t[p] (NULL = zero direction); ret, dret may be NULL */
  void (*jvp)(size_t n, double *const *a, double *const *t, double *ret,
              double *dret);
  /* NAME_hvp: tangents t[p] as jvp's, d_ret NULL; gradient shadows d[p]
   * and H.v shadows h[p] (+=, NULL = not wanted); ret may be NULL */
  void (*hvp)(size_t n, double *const *a, double *const *t, double *ret,
              double *const *d, double *const *h);
  /* the tie twin: the scalar function with fmin/fmax counting, in fz_ties,
   * the ties of zeros of opposite signs, whose result C leaves open */
  double (*tie)(const double *a);
  /* the flags twin: the scalar function compiled under FENV_ACCESS, so
   * that no operation of the example's path is deleted or speculated */
  double (*fenv)(const double *a);
  /* a global the function writes (NULL if none): after each generated
   * function it must hold what the sequential loop leaves in it */
  double (*gget)(void);
  void (*gset)(double v);
  /* per parameter (gen.py --features; NULL: none): '1' an array element,
   * whose shadow is incremented at every read, so a pre-filled shadow ends
   * as pre + g1 + g2 + ..., fl(pre + g) only to rounding; 's' a uniform
   * parameter of a function whose batches NAME_grad sorts by length and
   * NAME_hvp does not (docs/abi.md), so their sums over the batch agree
   * to rounding; 'S' both */
  const char *elem;
  /* the tie twin's copy of the written global (NULL if none): check 4's
   * one-ULP explanation runs the tie twin */
  double (*gtie)(void);
  /* gen.py --features ecalls: the function calls outside functions and
   * no transcendental one: check 7 compares their calls (fz_check_ext) */
  int ext;
  /* sets the tie twin's copy of the written global (NULL if none): a
   * global written on some paths only keeps its value where an example
   * does not write it (gen.py --features gpaths) */
  void (*gtset)(double v);
  /* which return the long twin and the flags twin took (a number per
   * return of the body; NULL: not noted): a path is the function's only if
   * both took the same one (fz_path_ok) */
  int *rtl, *rtf;
} fz_fn;

/* The outside functions of gen.py --features ecalls (bodies in
 * fuzz_extern.h, after the generated functions): calls recorded as a
 * count and an order-independent hash of the arguments. */
static unsigned long fz_ext_n;
static uint64_t fz_ext_h;
#include "fuzz_extern.h"

static const size_t fz_ns[] = {0, 1, 3, 4, 5, 8, 9, 17, 100};
#define FZ_NNS (sizeof fz_ns / sizeof fz_ns[0])
#define FZ_NPATS 6
#define FZ_TOL_D 1e-12
#define FZ_TOL_F 1e-5
/* the largest share of check 1's results that fz_nan_sign may excuse */
#define FZ_NAN_SIGN_MAX 0.05

typedef struct {
  long exact, zero_tie, tol, sensitive, grad_fd, kink, floatpath, nonfinite,
      uni_fd, uni_skip, overflow, jvp_dot, jvp_skip, jvp_gradoff, hvp_bits,
      hvp_fd, hvp_skip, absorbed, ulp, nan_sign, ext_calls, ext_skip, gsome,
      gnone, fails;
} fz_stats;
static fz_stats fz_st;

static int fz_max_fail_print = 40;

#include "fuzz_explain.h"

static uint64_t fz_rng_s = 88172645463325252ull;
static uint64_t fz_rng(void) {
  fz_rng_s ^= fz_rng_s << 13;
  fz_rng_s ^= fz_rng_s >> 7;
  fz_rng_s ^= fz_rng_s << 17;
  return fz_rng_s;
}
static double fz_unif(double lo, double hi) {
  return lo + (hi - lo) * ((double)(fz_rng() >> 11) * 0x1p-53);
}

static int fz_same(double a, double b) {
  if (isnan(a) && isnan(b))
    return 1;
  return memcmp(&a, &b, sizeof a) == 0;
}
static int fz_samef(double a, double b) { /* values stored from floats */
  return fz_same(a, b);
}

/* Two generated functions' results at example b of a (NAME_jvp's,
 * NAME_grad's, NAME_hvp's ret against NAME_batched's, an example alone
 * against the batch): bit for bit, or different where the example's
 * scalar path took a sign from a NaN (counted as nan_sign): each entry
 * point may make a NaN of its own sign (seed 44 of the seventh round:
 * copysign(.., m2 / (1 + fabs(m2))) at m2 = inf, the NaN of inf / inf
 * signed one way in NAME_batched and the other in NAME_jvp). */
static int fz_same_ret(const fz_fn *f, double *const *a, size_t b, double got,
                       double want) {
  double x[FZ_MAXP];
  if (fz_same(got, want))
    return 1;
  for (int p = 0; p < f->np; p++)
    x[p] = f->uniform[p] == '1' ? a[p][0] : a[p][b];
  return fz_nan_sign(f, x);
}

static double fz_round(char t, double v) {
  if (t == 'f')
    return (double)(float)v;
  if (t == 'i')
    return (double)(int)v;
  return v;
}

static const double fz_specials[] = {
    NAN,   INFINITY, -INFINITY, 0.0,   -0.0, 5e-324, -4e-320, 1e-310,
    1e-40, 1e30,     -1e30,     1e300, 3.5,  -2.25,  0.5,     1e-8,
};

/* One input value for parameter type t under pattern pat, example b of n. */
static double fz_input(char t, int pat, size_t b, size_t n) {
  double v;
  if (t == 'i') {
    switch (pat) {
    case 1:
      return (double)((long)(b % 11) - 2);
    case 2:
      return b == n / 2 ? 19.0 : 3.0;
    case 3:
      return (double)((long)(fz_rng() % 60) - 30);
    default:
      return (double)((long)(fz_rng() % 24) - 3);
    }
  }
  switch (pat) {
  case 0:
    v = fz_unif(-3.0, 3.0);
    break;
  case 1: /* spread over the lanes of a chunk: different paths/trips */
    v = -3.0 + 6.0 * ((double)b + 0.5) / (double)(n ? n : 1) +
        fz_unif(-0.05, 0.05);
    break;
  case 2:
    v = b == n / 2 ? fz_unif(1.0, 3.0) : 0.3125;
    break;
  case 3: /* special values: bitwise primal checks only */
    v = (fz_rng() % 3 == 0) ? fz_unif(-3.0, 3.0)
                            : fz_specials[fz_rng() % (sizeof fz_specials /
                                                      sizeof fz_specials[0])];
    break;
  case 4:
    v = fz_unif(-0.1, 0.1);
    break;
  default:
    v = fz_unif(-8.0, 8.0);
    break;
  }
  return fz_round(t, v);
}

static void fz_print_args(const fz_fn *f, double *const *a, size_t b) {
  fprintf(stderr, "    args:");
  for (int p = 0; p < f->np; p++) {
    double v = f->uniform[p] == '1' ? a[p][0] : a[p][b];
    fprintf(stderr, " %a", v);
  }
  fprintf(stderr, "\n");
}

#define FZ_FAIL(f, a, b, ...)                                                  \
  do {                                                                         \
    fz_st.fails++;                                                             \
    if (fz_max_fail_print-- > 0) {                                             \
      fprintf(stderr, "FAIL %s n=%zu pat=%d b=%zu: ", (f)->name, n, pat,       \
              (size_t)(b));                                                    \
      fprintf(stderr, __VA_ARGS__);                                            \
      fprintf(stderr, "\n");                                                   \
      if ((a))                                                                 \
        fz_print_args((f), (a), (b));                                          \
    }                                                                          \
  } while (0)

static void fz_args_of(const fz_fn *f, double *const *a, size_t b,
                       double *out) {
  for (int p = 0; p < f->np; p++)
    out[p] = f->uniform[p] == '1' ? a[p][0] : a[p][b];
}

#include "fuzz_oracle.h"

#include "fuzz_hvp.h"

/* The two orders' roundings can differ by more than the tolerance of sum
 * |g t| where intermediate derivatives cancel (a value nearly constant in
 * its inputs; with float arithmetic, or in double near a derivative of 0):
 * then both must agree with the finite differences of the long twin as
 * closely as the gradient check asks (1e-6 or 1e-2 times |c| + 1, plus
 * the differences' noise): 1, counted as jvp_skip. Where only NAME_jvp
 * does, 2 (jvp_gradoff): NAME_jvp is right, and the gradient is check 2's
 * to judge (at the examples it samples). Reverse mode adds each use's
 * contribution to an adjoint as it meets it, and contributions that
 * cancel (+A, then -A) absorb a small one added before them, which
 * forward mode, cancelling them first, keeps (seed 289 of the twelfth
 * round: -(p0 * p2) + p0 / p2 at p2 = -1, A = 6.5e24, a gradient 1.6e-4
 * off the derivative, which NAME_jvp has to 1e-13). Where the differences
 * are no oracle (a kink within their step: seed 231 of 1-400 at K = 4,
 * x - x / (1 + |x|) at x = -3e-4, whose derivative 2|x| is
 * 1 - 1 / (1 + |x|)^2 in float), the point is skipped (1) if the two
 * orders still agree to the tolerance jt relative to the intermediates'
 * scale, sum |t| (|y| + 1), instead of to the cancelled sum |g t|; a
 * gross difference still fails (0). */
static double fz_fd(const fz_fn *f, const double *x0, int p, double *noise,
                    int *why);
static int fz_jvp_float_noise(const fz_fn *f, const double *x,
                              double *const *t1, double jvp, double dot,
                              double y, double jt) {
  double fdot = 0.0, tol = 0.0, rel = f->twin_exact ? 1e-6 : 1e-2;
  double tabs = 0.0;
  for (int p = 0; p < f->np; p++)
    if (t1[p])
      tabs += fabs(t1[p][0]);
  for (int p = 0; p < f->np; p++) {
    if (!t1[p])
      continue;
    double noise = 0.0;
    int why = 0;
    double d = fz_fd(f, x, p, &noise, &why);
    if (isnan(d))
      return fabs(jvp - dot) <= jt * tabs * (fabs(y) + 1.0);
    fdot += d * t1[p][0];
    /* the gradient check's bound, rel (|c| + 1) + noise, times |t| */
    tol += (rel * (fabs(d) + 1.0) + noise) * fabs(t1[p][0]);
  }
  if (!(fabs(jvp - fdot) <= tol))
    return 0;
  return fabs(dot - fdot) <= tol ? 1 : 2;
}

#include "fuzz_global.h"

/* One (n, pattern) case of fz_check_fn: the inputs, shadows and tangents
 * of the batch, the results the later checks compare with, and check 3's
 * running sums for uniform parameters. */
typedef struct {
  const fz_fn *f;
  size_t n;
  int pat;
  double *a[FZ_MAXP], *d[FZ_MAXP], *d0[FZ_MAXP], *d1[FZ_MAXP], *dn[FZ_MAXP];
  double pre[FZ_MAXP];
  int has_shadow[FZ_MAXP];
  double *rb, *rg, *r1;
  double *t[FZ_MAXP], *tz[FZ_MAXP];
  double *rj, *dj, *dz, *dnl;
  double gloop, gspread;
  long glast; /* the last example that wrote the global, -1 if none */
  double usum[FZ_MAXP], uabs[FZ_MAXP], ufd[FZ_MAXP], ufd_abs[FZ_MAXP],
      unoise[FZ_MAXP];
  int uskip[FZ_MAXP], uovf;
} fz_case;

/* Inputs of pattern pat and pre-filled shadows (d; d0 zero-filled). */
static void fz_case_init(fz_case *c, const fz_fn *f, size_t n, int pat) {
  c->f = f;
  c->n = n;
  c->pat = pat;
  c->rb = fz_alloc(n), c->rg = fz_alloc(n), c->r1 = fz_alloc(1);
  for (int p = 0; p < f->np; p++) {
    int u = f->uniform[p] == '1';
    size_t cnt = u ? 1 : n;
    c->a[p] = fz_alloc(cnt);
    for (size_t b = 0; b < cnt; b++)
      c->a[p][b] = fz_input(f->ptype[p], pat, u ? (size_t)(fz_rng() % 16) : b,
                            u ? 16 : n);
    c->has_shadow[p] = f->ptype[p] != 'i' && f->nodiff[p] != '1';
    c->d[p] = c->d0[p] = c->d1[p] = c->dn[p] = NULL;
    if (c->has_shadow[p]) {
      c->d[p] = fz_alloc(cnt);
      c->d0[p] = fz_alloc(cnt);
      c->d1[p] = fz_alloc(1);
      c->dn[p] = fz_alloc(cnt);
      c->pre[p] = fz_round(f->ptype[p], 0.375 + 0.25 * p);
      for (size_t b = 0; b < cnt; b++) {
        c->d[p][b] = c->pre[p] + (u ? 0.0 : 0.125 * (double)(b % 3));
        c->d[p][b] = fz_round(f->ptype[p], c->d[p][b]);
        c->d0[p][b] = 0.0;
      }
    }
  }
}

static void fz_case_free(fz_case *c) {
  for (int p = 0; p < c->f->np; p++) {
    free(c->a[p]);
    free(c->d[p]);
    free(c->d0[p]);
    free(c->d1[p]);
    free(c->dn[p]);
  }
  for (int p = 0; p < c->f->np; p++) {
    free(c->t[p]);
    free(c->tz[p]);
  }
  free(c->rj);
  free(c->dj);
  free(c->dz);
  free(c->dnl);
  free(c->rb);
  free(c->rg);
  free(c->r1);
}

/* Check 1: NAME_batched against the loop over the scalar function (rb
 * keeps the batched results), each example alone; check 4 after it
 * (gloop: what the loop leaves in a written global; gspread: how far
 * that may be off). */
static void fz_check_batched(fz_case *c) {
  const fz_fn *f = c->f;
  size_t n = c->n;
  int pat = c->pat;
  double *const *a = c->a;
  double *rb = c->rb, *r1 = c->r1;
  /* a written global as the loop leaves it (the last example that
   * wrote it wins; FZ_GSTART if none did) */
  double gloop = 0.0;
  long glast = -1, gfrom = 0;
  int gsens = 0;
  if (f->gget) {
    /* (--mutate-global 2: the loop starts from another value than the
     * generated functions, so where no example writes the global it
     * differs) */
    double start = FZ_MUTATE_GLOBAL == 2 ? 0.5 : FZ_GSTART;
    gloop = fz_gloop(f, a, n, 0, start);
    glast = fz_glast(f, a, n);
    if (FZ_MUTATE_GLOBAL == 1 && n > 0) {
      /* the old assumption: example n - 1 wrote it */
      gfrom = glast = (long)n - 1;
      gloop = fz_gloop(f, a, n, gfrom, start);
    }
    if (glast < 0 && !fz_same(gloop, fz_gheld(f, start)))
      FZ_FAIL(f, a, (size_t)0,
              "harness: no example wrote the global but the scalar loop "
              "left %a",
              gloop);
    if (n > 0 && glast < 0)
      fz_st.gnone++;
    else if (glast >= 0 && glast < (long)n - 1)
      fz_st.gsome++;
    f->gset(FZ_GSTART);
  }
  f->batched(n, a, rb);
  for (size_t b = 0; b < n && FZ_MUTATE_RET != 0.0; b++)
    rb[b] = rb[b] * (1.0 + FZ_MUTATE_RET) + FZ_MUTATE_RET;
  double gbat = f->gget ? f->gget() : 0.0;
  for (size_t b = 0; b < n; b++) {
    double x[FZ_MAXP];
    fz_args_of(f, a, b, x);
    double y = f->scalar(x);
    if (!f->transcendental) {
      double rv = fz_mutate_ulp(f, n, pat, b, rb[b]);
      fz_st.exact++;
      if (!fz_same(y, rv) && !fz_zero_tie(f, x, rv, y) && !fz_nan_sign(f, x))
        FZ_FAIL(f, a, b, "batched %a != scalar %a (exact, %s)", rv, y,
                f->rtype == 'f' ? "float" : "double");
    } else {
      double tol = f->rtype == 'f' || !f->twin_exact ? FZ_TOL_F : FZ_TOL_D;
      fz_st.tol++;
      int ok = (isnan(y) && isnan(rb[b])) || y == rb[b] ||
               fabs(y - rb[b]) <= tol * fmax(1.0, fabs(y));
      if (!ok) {
        double s = fz_sensitivity(f, x, y);
        if (fabs(y - rb[b]) <= 4 * s || isinf(s))
          fz_st.sensitive++, gsens = 1;
        else if (fz_ulp_explains(f, x, rb[b], tol))
          fz_st.ulp++, gsens = 1;
        else if (fz_nan_sign(f, x))
          ;
        else
          FZ_FAIL(f, a, b,
                  "batched %a != scalar %a (rel tol %g, sensitivity %g)", rb[b],
                  y, tol, s);
      }
    }
    /* each example alone gives the bits it gets in the batch */
    double *a1[FZ_MAXP];
    double one[FZ_MAXP];
    for (int p = 0; p < f->np; p++) {
      one[p] = x[p];
      a1[p] = &one[p];
    }
    f->batched(1, a1, r1);
    if (!fz_same_ret(f, a, b, r1[0], rb[b]))
      FZ_FAIL(f, a, b, "batched alone %a != in batch %a", r1[0], rb[b]);
  }
  double gspread = gsens ? INFINITY : 0.0;
  if (f->gget && f->transcendental && n > 0 && !gsens &&
      !fz_same(gbat, gloop)) {
    gspread = fz_gsensitivity(f, a, n, gfrom, glast, gloop);
    double tol = f->rtype == 'f' || !f->twin_exact ? FZ_TOL_F : FZ_TOL_D;
    if ((glast < 0 || fabs(gbat - gloop) > tol * fmax(1.0, fabs(gloop))) &&
        !(fabs(gbat - gloop) <= 4 * gspread) &&
        fz_gulp_explains(f, a, n, gfrom, gbat, tol))
      fz_st.ulp++, gspread = INFINITY;
  }
  if (f->gget && n > 0 && !isinf(gspread) && !fz_same(gbat, gloop) &&
      fz_global_fails(f, gbat, gloop, gspread, glast)) {
    /* the last writer (or an example after it, which may write when a
     * sign flips a branch) took a NaN's sign */
    for (size_t b = glast < 0 ? 0 : (size_t)glast; b < n; b++) {
      double x[FZ_MAXP];
      fz_args_of(f, a, b, x);
      if (fz_nan_sign(f, x)) {
        gspread = INFINITY;
        break;
      }
    }
  }
  fz_check_global(f, "batched", gbat, gloop, n, pat, glast, gspread);
  c->gloop = gloop;
  c->gspread = gspread;
  c->glast = glast;
}

/* Check 2 on the batch: ret as batched; shadows pre-filled (d) end as
 * fl(pre + g) of a zero-filled call (d0, kept for the later checks); a
 * NULL shadow changes no other shadow. */
static void fz_check_grad(fz_case *c) {
  const fz_fn *f = c->f;
  size_t n = c->n;
  int pat = c->pat;
  double *const *a = c->a;
  double *const *d = c->d, *const *d0 = c->d0, *const *dn = c->dn;
  if (f->gset)
    f->gset(FZ_GSTART);
  f->grad(n, a, c->rg, d);
  fz_check_global(f, "grad", f->gget ? f->gget() : 0.0, c->gloop, n, pat,
                  c->glast, c->gspread);
  for (size_t b = 0; b < n; b++)
    if (!fz_same_ret(f, a, b, c->rg[b], c->rb[b]))
      FZ_FAIL(f, a, b, "grad ret %a != batched %a", c->rg[b], c->rb[b]);
  f->grad(n, a, NULL, d0);
  for (int p = 0; p < f->np; p++) {
    if (!c->has_shadow[p])
      continue;
    size_t cnt = f->uniform[p] == '1' ? 1 : n;
    for (size_t b = 0; b < cnt; b++) {
      double start = fz_round(
          f->ptype[p],
          c->pre[p] + (f->uniform[p] == '1' ? 0.0 : 0.125 * (double)(b % 3)));
      double want = f->ptype[p] == 'f'
                        ? (double)((float)start + (float)d0[p][b])
                        : start + d0[p][b];
      if (f->uniform[p] == '1' && n == 0)
        want = start + 0.0;
      int acc_ok =
          f->elem && (f->elem[p] == '1' || f->elem[p] == 'S') &&
          fabs(d[p][b] - want) <= (f->ptype[p] == 'f' ? FZ_TOL_F : FZ_TOL_D) *
                                      (fabs(start) + fabs(d0[p][b]) + 1.0);
      if (!fz_same(want, d[p][b]) && !acc_ok && f->elem &&
          (f->elem[p] == '1' || f->elem[p] == 'S') &&
          fz_absorbed(f, n, a, p, b, start, d0[p][b])) {
        fz_st.absorbed++;
        continue;
      }
      if (!fz_same(want, d[p][b]) && !acc_ok)
        FZ_FAIL(f, a, b,
                "param %d: pre-filled shadow %a != pre %a + gradient %a", p,
                d[p][b], start, d0[p][b]);
    }
  }
  /* a NULL shadow changes nothing else */
  int first = -1;
  for (int p = 0; p < f->np; p++) {
    if (c->has_shadow[p]) {
      size_t cnt = f->uniform[p] == '1' ? 1 : n;
      for (size_t b = 0; b < cnt; b++)
        dn[p][b] = 0.0;
      if (first < 0)
        first = p;
    }
  }
  if (first < 0)
    return;
  double *dd[FZ_MAXP];
  for (int p = 0; p < f->np; p++)
    dd[p] = p == first ? NULL : dn[p];
  f->grad(n, a, NULL, dd);
  for (int p = 0; p < f->np; p++) {
    if (!c->has_shadow[p] || p == first)
      continue;
    size_t cnt = f->uniform[p] == '1' ? 1 : n;
    for (size_t b = 0; b < cnt; b++)
      if (!fz_same(dn[p][b], d0[p][b]))
        FZ_FAIL(f, a, b,
                "param %d: gradient %a with param %d's shadow NULL, "
                "%a without",
                p, dn[p][b], first, d0[p][b]);
  }
}

/* Check 5 on the batch: random tangents t; ret as batched; NULL tangents
 * are zeros (d_ret against dot(gradient of the example alone, t) in
 * fz_check_jvp_alone). */
static void fz_check_jvp(fz_case *c) {
  const fz_fn *f = c->f;
  size_t n = c->n;
  int pat = c->pat;
  double *const *a = c->a;
  double *tn[FZ_MAXP];
  c->rj = fz_alloc(n), c->dj = fz_alloc(n), c->dz = fz_alloc(n),
  c->dnl = fz_alloc(n);
  int first_t = -1;
  for (int p = 0; p < f->np; p++) {
    size_t cnt = f->uniform[p] == '1' ? 1 : n;
    c->t[p] = c->tz[p] = tn[p] = NULL;
    if (!c->has_shadow[p])
      continue;
    c->t[p] = fz_alloc(cnt);
    c->tz[p] = fz_alloc(cnt);
    for (size_t b = 0; b < cnt; b++) {
      c->t[p][b] = fz_round(f->ptype[p], fz_unif(-1.0, 1.0));
      c->tz[p][b] = 0.0;
    }
    if (first_t < 0)
      first_t = p;
  }
  if (f->gset)
    f->gset(FZ_GSTART);
  f->jvp(n, a, c->t, c->rj, c->dj);
  fz_check_global(f, "jvp", f->gget ? f->gget() : 0.0, c->gloop, n, pat,
                  c->glast, c->gspread);
  for (size_t b = 0; b < n; b++)
    if (!fz_same_ret(f, a, b, c->rj[b], c->rb[b]))
      FZ_FAIL(f, a, b, "jvp ret %a != batched %a", c->rj[b], c->rb[b]);
  for (int p = 0; p < f->np; p++)
    tn[p] = p == first_t ? NULL : c->t[p];
  f->jvp(n, a, tn, NULL, c->dnl);
  for (int p = 0; p < f->np; p++)
    tn[p] = p == first_t ? c->tz[p] : c->t[p];
  f->jvp(n, a, tn, NULL, c->dz);
  for (size_t b = 0; b < n; b++)
    if (!fz_same(c->dnl[b], c->dz[b]))
      FZ_FAIL(f, a, b, "jvp with param %d's tangent NULL %a, zero %a", first_t,
              c->dnl[b], c->dz[b]);
}

/* Check 5 at example b alone (a1; g1 its gradient alone): the bits it
 * gets in the batch, and d_ret against dot(g1, t). */
static void fz_check_jvp_alone(fz_case *c, size_t b, const double *x,
                               double *const *a1, double *const *g1) {
  const fz_fn *f = c->f;
  size_t n = c->n;
  int pat = c->pat;
  double *const *a = c->a;
  double *t1[FZ_MAXP], tv[FZ_MAXP], dj1 = 0, dot = 0, mag = 0;
  for (int p = 0; p < f->np; p++) {
    t1[p] = NULL;
    if (!c->has_shadow[p])
      continue;
    tv[p] = f->uniform[p] == '1' ? c->t[p][0] : c->t[p][b];
    t1[p] = &tv[p];
    dot += g1[p][0] * tv[p];
    mag += fabs(g1[p][0] * tv[p]);
  }
  f->jvp(1, a1, t1, NULL, &dj1);
  if (!fz_same(dj1, c->dj[b]))
    FZ_FAIL(f, a, b, "jvp alone %a != in batch %a", dj1, c->dj[b]);
  double jv = c->dj[b] * (1.0 + FZ_MUTATE_JVP);
  /* Both modes add the same products in other orders: rounding relative
   * to sum |g t| (float intermediates: float rounding). Not with special
   * inputs (pattern 3: Inf, NaN, subnormals), where 0 * Inf and underflow
   * differ between the orders, as the finite differences skip them. */
  double jt = f->rtype == 'f' || !f->twin_exact ? 1e-4 : 1e-10;
  if (pat == 3 || !isfinite(dot) || !isfinite(mag) || !isfinite(jv)) {
    fz_st.jvp_skip++;
  } else {
    int ok = fabs(jv - dot) <= jt * mag + 1e-300, why = 0;
    fz_st.jvp_dot++;
    if (!ok)
      why = fz_jvp_float_noise(f, x, t1, jv, dot, c->rb[b], jt);
    if (why) {
      fz_st.jvp_dot--;
      if (why == 1)
        fz_st.jvp_skip++;
      else
        fz_st.jvp_gradoff++;
    } else if (!ok)
      FZ_FAIL(f, a, b,
              "jvp %.17g != dot(gradient, tangent) %.17g "
              "(sum |g t| %g)",
              jv, dot, mag);
  }
}

/* Check 2's oracle at example b (finite inputs only; varying parameters
 * at some examples of n = 100, uniform ones at all, summed for check 3),
 * and check 6's at the same examples. */
static void fz_check_fd_at(fz_case *c, size_t b, const double *x) {
  const fz_fn *f = c->f;
  size_t n = c->n;
  int pat = c->pat;
  double *const *a = c->a;
  int sample = n <= 17 || b % 5 == 0;
  int all_finite = isfinite(c->rb[b]);
  for (int p = 0; p < f->np; p++)
    all_finite &= isfinite(x[p]);
  if (!all_finite) {
    fz_st.nonfinite++;
    for (int p = 0; p < f->np; p++)
      c->uskip[p] = 1;
    return;
  }
  /* intermediates that overflow (or become NaN) make reverse mode
   * multiply a zero adjoint by an infinite partial: a NaN gradient where
   * the function is locally constant. Such examples are counted
   * (overflow), not failed, when their gradient is not finite. */
  int ovf = 0;
  int path_ok = fz_path_ok(f, x, c->rb[b], &ovf);
  if (ovf)
    c->uovf = 1;
  if (sample)
    fz_check_hvp_fd(f, a, b, n, pat, x, c->t, path_ok, ovf);
  if (!path_ok) {
    fz_st.floatpath++;
    for (int p = 0; p < f->np; p++)
      c->uskip[p] = 1;
    return;
  }
  for (int p = 0; p < f->np; p++) {
    if (!c->has_shadow[p] || (!sample && f->uniform[p] != '1'))
      continue;
    double noise = 0.0;
    int why = 0;
    double cd = fz_fd(f, x, p, &noise, &why);
    if (isnan(cd)) {
      if (why == 1)
        fz_st.nonfinite++;
      else
        fz_st.kink++;
      c->uskip[p] = 1;
      continue;
    }
    if (!f->twin_exact && fabs(cd) > 1e30) {
      /* beyond what float arithmetic represents along the way */
      fz_st.nonfinite++;
      c->uskip[p] = 1;
      continue;
    }
    double tol = f->twin_exact ? 1e-6 : 1e-2;
    if (f->uniform[p] == '1') {
      c->ufd[p] += cd;
      c->ufd_abs[p] += fabs(cd);
      c->unoise[p] += noise;
      continue;
    }
    if (!sample)
      continue;
    double g = c->d0[p][b] * (1.0 + FZ_MUTATE);
    if (ovf && !isfinite(g)) {
      fz_st.overflow++;
      continue;
    }
    fz_st.grad_fd++;
    if (!(fabs(g - cd) <= tol * (fabs(cd) + 1.0) + noise))
      FZ_FAIL(f, a, b,
              "param %d: gradient %.17g, central difference %.17g "
              "(noise %g)",
              p, g, cd, noise);
  }
}

/* Example b alone: NAME_grad's ret and gradient against the batch's (its
 * uniform gradients summed for check 3), NAME_jvp, the oracles. */
static void fz_check_example(fz_case *c, size_t b) {
  const fz_fn *f = c->f;
  size_t n = c->n;
  int pat = c->pat;
  double *const *a = c->a;
  double x[FZ_MAXP], one[FZ_MAXP], *a1[FZ_MAXP], *g1[FZ_MAXP];
  fz_args_of(f, a, b, x);
  for (int p = 0; p < f->np; p++) {
    one[p] = x[p];
    a1[p] = &one[p];
    g1[p] = c->has_shadow[p] ? c->d1[p] : NULL;
    if (g1[p])
      g1[p][0] = 0.0;
  }
  f->grad(1, a1, c->r1, g1);
  if (!fz_same_ret(f, a, b, c->r1[0], c->rb[b]))
    FZ_FAIL(f, a, b, "grad ret alone %a != batched %a", c->r1[0], c->rb[b]);
  fz_check_jvp_alone(c, b, x, a1, g1);
  for (int p = 0; p < f->np; p++) {
    if (!c->has_shadow[p])
      continue;
    if (f->uniform[p] == '1') {
      c->usum[p] += g1[p][0];
      c->uabs[p] += fabs(g1[p][0]);
    } else if (!fz_same(g1[p][0], c->d0[p][b])) {
      FZ_FAIL(f, a, b, "param %d: gradient alone %a != in batch %a", p,
              g1[p][0], c->d0[p][b]);
    }
  }
  if (pat != 3)
    fz_check_fd_at(c, b, x);
}

/* Check 3: a uniform shadow is the sum of the examples' gradients alone
 * and of their central differences. */
static void fz_check_uniform(fz_case *c) {
  const fz_fn *f = c->f;
  size_t n = c->n;
  int pat = c->pat;
  double *const *a = c->a;
  for (int p = 0; p < f->np; p++) {
    if (!c->has_shadow[p] || f->uniform[p] != '1')
      continue;
    double tol = f->rtype == 'f' || f->ptype[p] == 'f' ? 2e-5 : 1e-12;
    double g = c->d0[p][0];
    if (!(fabs(g - c->usum[p]) <= 4 * tol * (c->uabs[p] + 1.0)) &&
        !(isnan(g) && isnan(c->usum[p])) && !(g == c->usum[p]))
      FZ_FAIL(f, a, (size_t)0,
              "param %d (uniform): shadow %.17g != sum of per-example "
              "gradients %.17g",
              p, g, c->usum[p]);
    if (c->uskip[p] || n == 0 || (c->uovf && !isfinite(g))) {
      fz_st.uni_skip++;
      continue;
    }
    fz_st.uni_fd++;
    double ftol = f->twin_exact ? 1e-6 : 1e-2;
    g *= 1.0 + FZ_MUTATE;
    if (!(fabs(g - c->ufd[p]) <= ftol * (c->ufd_abs[p] + 1.0) + c->unoise[p]))
      FZ_FAIL(f, a, (size_t)0,
              "param %d (uniform): shadow %.17g != sum of central "
              "differences %.17g",
              p, g, c->ufd[p]);
  }
}

/* Check 7 (gen.py --features ecalls): NAME_batched, NAME_grad, NAME_jvp
 * and NAME_hvp make the calls of outside functions that the loop over the
 * scalar function makes, as many and with the same arguments (in any
 * order: a batch's calls interleave across examples). Not where an
 * example's path took a NaN's sign or had a tie of zeros in fmin/fmax
 * (an int argument may follow either way): counted as ext_skip. */
static void fz_check_ext(fz_case *c) {
  const fz_fn *f = c->f;
  size_t n = c->n;
  int pat = c->pat;
  double *const *a = c->a;
  if (!f->ext)
    return;
  fz_ties = 0, fz_nans = 0;
  for (size_t b = 0; b < n; b++) {
    double x[FZ_MAXP];
    fz_args_of(f, a, b, x);
    (void)f->tie(x);
  }
  if (fz_ties || fz_nans) {
    fz_st.ext_skip++;
    return;
  }
  fz_ext_n = 0, fz_ext_h = 0;
  for (size_t b = 0; b < n; b++) {
    double x[FZ_MAXP];
    fz_args_of(f, a, b, x);
    (void)f->scalar(x);
  }
  unsigned long wn = fz_ext_n;
  uint64_t wh = fz_ext_h;
  double *r = fz_alloc(n), *none[FZ_MAXP] = {0};
  static const char *const what[] = {"batched", "grad", "jvp", "hvp"};
  for (int k = 0; k < 4; k++) {
    if (f->gset)
      f->gset(FZ_GSTART);
    fz_ext_n = 0, fz_ext_h = 0;
    if (k == 0)
      f->batched(n, a, r);
    else if (k == 1)
      f->grad(n, a, r, none);
    else if (k == 2)
      f->jvp(n, a, none, r, NULL);
    else if (f->hvp)
      f->hvp(n, a, none, r, none, none);
    else
      continue;
    fz_st.ext_calls++;
    if (fz_ext_n != wn || fz_ext_h != wh)
      FZ_FAIL(f, a, (size_t)0,
              "%s made %lu outside calls (hash %016llx), the scalar loop "
              "%lu (%016llx)",
              what[k], fz_ext_n, (unsigned long long)fz_ext_h, wn,
              (unsigned long long)wh);
  }
  free(r);
}

/* Check 4 after NAME_hvp (tangents of check 5, shadows NULL). */
static void fz_check_hvp_global(fz_case *c) {
  const fz_fn *f = c->f;
  size_t n = c->n;
  int pat = c->pat;
  if (!f->hvp || !f->gget)
    return;
  double *r = fz_alloc(n), *none[FZ_MAXP] = {0};
  f->gset(FZ_GSTART);
  f->hvp(n, c->a, c->t, r, none, none);
  fz_check_global(f, "hvp", f->gget(), c->gloop, n, pat, c->glast, c->gspread);
  free(r);
}

static void fz_check_fn(const fz_fn *f) {
  for (size_t in = 0; in < FZ_NNS; in++) {
    for (int pat = 0; pat < FZ_NPATS; pat++) {
      fz_case c;
      fz_case_init(&c, f, fz_ns[in], pat);
      fz_check_batched(&c);
      fz_check_grad(&c);
      fz_check_jvp(&c);
      fz_check_hvp(f, c.a, c.n, pat, c.t, c.rb, c.d0);
      fz_check_hvp_global(&c);
      for (int p = 0; p < f->np; p++) {
        c.usum[p] = c.uabs[p] = c.ufd[p] = c.ufd_abs[p] = c.unoise[p] = 0.0;
        c.uskip[p] = pat == 3;
      }
      c.uovf = 0;
      for (size_t b = 0; b < c.n; b++)
        fz_check_example(&c, b);
      fz_check_uniform(&c);
      fz_check_ext(&c);
      fz_case_free(&c);
    }
  }
}

static int fz_main(const fz_fn *fns, int nf, unsigned long seed) {
  fz_rng_s ^= seed * 0x9E3779B97F4A7C15ull;
  if (!fz_rng_s)
    fz_rng_s = 1;
  if (getenv("FZ_FAIL_PRINT")) /* gen.py's re-checks read every failure */
    fz_max_fail_print = atoi(getenv("FZ_FAIL_PRINT"));
  for (int i = 0; i < nf; i++) {
    long before = fz_st.fails;
    fz_check_fn(&fns[i]);
    if (fz_st.fails != before)
      fprintf(stderr, "function %s: %ld failure(s)\n", fns[i].name,
              fz_st.fails - before);
  }
  printf("STATS functions=%d exact=%ld zero_tie=%ld tol=%ld sensitive=%ld "
         "grad_fd=%ld "
         "kink=%ld floatpath=%ld nonfinite=%ld uni_fd=%ld uni_skip=%ld "
         "overflow=%ld jvp_dot=%ld jvp_skip=%ld jvp_gradoff=%ld "
         "hvp_bits=%ld hvp_fd=%ld "
         "hvp_skip=%ld absorbed=%ld ulp=%ld nan_sign=%ld ext_calls=%ld "
         "ext_skip=%ld gsome=%ld gnone=%ld fails=%ld\n",
         nf, fz_st.exact, fz_st.zero_tie, fz_st.tol, fz_st.sensitive,
         fz_st.grad_fd, fz_st.kink, fz_st.floatpath, fz_st.nonfinite,
         fz_st.uni_fd, fz_st.uni_skip, fz_st.overflow, fz_st.jvp_dot,
         fz_st.jvp_skip, fz_st.jvp_gradoff, fz_st.hvp_bits, fz_st.hvp_fd,
         fz_st.hvp_skip, fz_st.absorbed, fz_st.ulp, fz_st.nan_sign,
         fz_st.ext_calls, fz_st.ext_skip, fz_st.gsome, fz_st.gnone,
         fz_st.fails);
  /* A run whose every gradient check was skipped (kinks, overflow, NaN)
   * proved nothing about gradients: that is a failure too. */
  long skipped = fz_st.kink + fz_st.floatpath + fz_st.nonfinite +
                 fz_st.overflow + fz_st.uni_skip;
  if (skipped > 0 && fz_st.grad_fd + fz_st.uni_fd == 0) {
    fprintf(stderr, "all %ld gradient checks were skipped\n", skipped);
    return 1;
  }
  /* Excusing a NaN's sign must stay the exception: most compared values
   * carry no NaN's sign (a mutant that broke every result at special
   * inputs would otherwise hide behind it). */
  if (fz_st.nan_sign > FZ_NAN_SIGN_MAX * (fz_st.exact + fz_st.tol)) {
    fprintf(stderr, "%ld of %ld results excused by a NaN's sign\n",
            fz_st.nan_sign, fz_st.exact + fz_st.tol);
    return 1;
  }
  return fz_st.fails ? 1 : 0;
}

#endif
