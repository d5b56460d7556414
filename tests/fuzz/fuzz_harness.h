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
 * Checks 1-5 and 7 on one batch are fuzz_checks.h's; fz_check_fn below
 * runs them for each n and pattern.
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
      uni_fd, uni_skip, overflow, jvp_dot, jvp_skip, jvp_ovf, jvp_gradoff,
      hvp_bits, hvp_fd, hvp_skip, hvp_scaled, absorbed, ulp, nan_sign,
      ext_calls, ext_skip, gsome, gnone, fails;
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
 * signed one way in NAME_batched and the other in NAME_jvp). Also
 * NAME_hvp's gradient against NAME_grad's (fuzz_hvp.h): where a NaN's sign
 * decides a branch, the two may take different paths. */
static int fz_nan_sign_at(const fz_fn *f, double *const *a, size_t b) {
  double x[FZ_MAXP];
  for (int p = 0; p < f->np; p++)
    x[p] = f->uniform[p] == '1' ? a[p][0] : a[p][b];
  return fz_nan_sign(f, x);
}
static int fz_same_ret(const fz_fn *f, double *const *a, size_t b, double got,
                       double want) {
  return fz_same(got, want) || fz_nan_sign_at(f, a, b);
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

#include "fuzz_global.h"

#include "fuzz_checks.h"

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
         "overflow=%ld jvp_dot=%ld jvp_skip=%ld jvp_ovf=%ld jvp_gradoff=%ld "
         "hvp_bits=%ld hvp_fd=%ld "
         "hvp_skip=%ld hvp_scaled=%ld absorbed=%ld ulp=%ld nan_sign=%ld "
         "ext_calls=%ld ext_skip=%ld gsome=%ld gnone=%ld fails=%ld\n",
         nf, fz_st.exact, fz_st.zero_tie, fz_st.tol, fz_st.sensitive,
         fz_st.grad_fd, fz_st.kink, fz_st.floatpath, fz_st.nonfinite,
         fz_st.uni_fd, fz_st.uni_skip, fz_st.overflow, fz_st.jvp_dot,
         fz_st.jvp_skip, fz_st.jvp_ovf, fz_st.jvp_gradoff, fz_st.hvp_bits,
         fz_st.hvp_fd, fz_st.hvp_skip, fz_st.hvp_scaled, fz_st.absorbed,
         fz_st.ulp, fz_st.nan_sign, fz_st.ext_calls, fz_st.ext_skip,
         fz_st.gsome, fz_st.gnone, fz_st.fails);
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
