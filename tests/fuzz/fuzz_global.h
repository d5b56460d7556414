/* Check 4 of the random-program fuzzer, part of fuzz_harness.h (included
 * there, before fz_case): what a generated function leaves besides its
 * results. A global it writes holds what the sequential loop over the
 * scalar function leaves (fz_check_global, with the sensitivity and
 * one-ULP explanations of check 1: fz_gsensitivity, fz_gulp_explains),
 * and an output array's bytes outside an example's extent stay as the
 * caller wrote them (fz_out_fail, gen.py --features nout). Not a header
 * of its own: it uses fuzz_harness.h's types. */
#ifndef BATCHDIFF_FUZZ_GLOBAL_H
#define BATCHDIFF_FUZZ_GLOBAL_H

/* A written global after a generated function: what the sequential loop
 * left (the last write of the last example that wrote it; untouched if no
 * example did, n = 0 included: gen.py --features gpaths writes globals on
 * some paths only). Bit for bit, or within the tolerance of check 1 with
 * transcendental calls where some example wrote it; a larger difference
 * there counts as sensitive when the scalar loop's value is itself that
 * sensitive (spread: INFINITY when check 1 found a return value
 * sensitive, else fz_gsensitivity). */
#define FZ_GSTART 0.8125

/* v as the global holds it (0 for FZ_GSTART in an int status flag) */
static double fz_gheld(const fz_fn *f, double v) {
  f->gset(v);
  return f->gget();
}

/* The global after the scalar function over examples from .. n - 1 of a,
 * in order, from the value start. */
static double fz_gloop(const fz_fn *f, double *const *a, size_t n, long from,
                       double start) {
  f->gset(start);
  for (size_t b = from < 0 ? 0 : (size_t)from; b < n; b++) {
    double x[FZ_MAXP];
    fz_args_of(f, a, b, x);
    (void)f->scalar(x);
  }
  return f->gget();
}

/* The last example of a that writes the global, -1 if none: each example
 * runs from two different values of it (3 and -7, exact in every type; no
 * example reads it before writing it, the plugin's rule): one that writes
 * it leaves the same value after both, one that does not leaves each. */
static long fz_glast(const fz_fn *f, double *const *a, size_t n) {
  long last = -1;
  for (size_t b = 0; b < n; b++) {
    double x[FZ_MAXP];
    fz_args_of(f, a, b, x);
    f->gset(3.0);
    (void)f->scalar(x);
    double g1 = f->gget();
    f->gset(-7.0);
    (void)f->scalar(x);
    if (fz_same(g1, f->gget()))
      last = (long)b;
  }
  return last;
}

/* Spread of the global the scalar loop leaves under tiny relative input
 * perturbations of the examples from the last writer on (all of them if
 * none wrote: a perturbation may make one write), as fz_sensitivity (the
 * global can be far more sensitive than the return value: seed 10 of
 * 1-400 at K = 4 iterates W = -fmin(p, W) * W / 1.5 + ... through log and
 * sin five times and returns a constant). Where every example writes, the
 * last one's perturbation decides, as before globals written on some
 * paths. (gfrom: the first example run, 0 but with gen.py
 * --mutate-global.) */
static double fz_gsensitivity(const fz_fn *f, double *const *a, size_t n,
                              long gfrom, long glast, double g0) {
  double spread = 0.0, xx[FZ_MAXP];
  double rel = f->rtype == 'f' || !f->twin_exact ? 0x1p-18 : 0x1p-40;
  size_t from = glast < 0 ? 0 : (size_t)glast;
  for (int trial = 0; trial < 8; trial++) {
    f->gset(FZ_GSTART);
    for (size_t b = (size_t)gfrom; b < n; b++) {
      fz_args_of(f, a, b, xx);
      for (int p = 0; p < f->np && b >= from; p++)
        if (f->ptype[p] != 'i')
          xx[p] = fz_round(
              f->ptype[p],
              xx[p] * (1.0 + rel * (double)((long)(fz_rng() % 9) - 4)));
      (void)f->scalar(xx);
    }
    double g = f->gget();
    if (isnan(g) != isnan(g0))
      return INFINITY;
    spread = fmax(spread, fabs(g - g0));
  }
  return spread;
}

/* The global the tie twin's loop over the examples leaves, its math
 * results one ULP off as in fz_ulp_explains (each example's calls
 * counted from 0), is got within tolerance tol: the global's own seed-310
 * case (a cosf result truncated to int and stored, where input
 * perturbations see nothing and the return value may not depend on it),
 * and, with globals written on some paths, an example whose decision to
 * write it a math ULP flips. (gfrom: the first example run, 0 but with
 * gen.py --mutate-global.) */
static int fz_gulp_explains(const fz_fn *f, double *const *a, size_t n,
                            long gfrom, double got, double tol) {
  int ok = 0;
  if (!f->gtie)
    return 0;
  for (int mode = 1; mode <= 16 && !ok; mode++) {
    fz_ulp_mode = mode;
    if (f->gtset)
      f->gtset(FZ_GSTART);
    for (size_t b = (size_t)gfrom; b < n; b++) {
      double x[FZ_MAXP];
      fz_args_of(f, a, b, x);
      fz_ulp_call = 0;
      (void)f->tie(x);
    }
    double y = f->gtie();
    ok = (isnan(y) && isnan(got)) || y == got ||
         fabs(y - got) <= tol * fmax(1.0, fabs(y));
  }
  fz_ulp_mode = 0;
  return ok;
}

/* gen.py --features nout: an output array's bytes outside example b's
 * extent (strided padding, the gap after a BD_PACKED example) changed */
static void fz_out_fail(const char *fn, const char *arr, size_t b) {
  fz_st.fails++;
  if (fz_max_fail_print-- > 0)
    fprintf(stderr, "FAIL %s: output %s written outside example %zu\n", fn, arr,
            b);
}

/* The written global's got differs from want by more than check 4
 * accepts without an explanation (spread: as fz_check_global's). Where no
 * example wrote it (glast < 0) its old value is kept bit for bit: no
 * tolerance, only the explanations of spread. */
static int fz_global_fails(const fz_fn *f, double got, double want,
                           double spread, long glast) {
  double tol = f->rtype == 'f' || !f->twin_exact ? FZ_TOL_F : FZ_TOL_D;
  if (glast < 0)
    return !fz_same(got, want) && !(fabs(got - want) <= 4 * spread);
  return !fz_same(got, want) &&
         !(f->transcendental &&
           (fabs(got - want) <= tol * fmax(1.0, fabs(want)) ||
            fabs(got - want) <= 4 * spread));
}

/* spread INFINITY: the scalar loop's global is itself that sensitive, one
 * ULP of a math call away, or took a NaN's sign */
static void fz_check_global(const fz_fn *f, const char *what, double got,
                            double want, size_t n, int pat, long glast,
                            double spread) {
  if (!f->gget || !fz_global_fails(f, got, want, 0.0, glast))
    return;
  if (isinf(spread) || !fz_global_fails(f, got, want, spread, glast)) {
    fz_st.sensitive++;
    return;
  }
  if (glast < 0)
    FZ_FAIL(f, (double *const *)NULL, n ? n - 1 : 0,
            "global after %s %a, but no example wrote it: was %a", what, got,
            want);
  else
    FZ_FAIL(f, (double *const *)NULL, (size_t)glast,
            "global after %s %a != after the scalar loop %a (last written "
            "by example %ld of %zu)",
            what, got, want, glast, n);
}

#endif
