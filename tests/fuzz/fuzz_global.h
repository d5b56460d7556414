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
 * left (example n-1's last write; untouched for n = 0). Bit for bit, or
 * within the tolerance of check 1 with transcendental calls; a larger
 * difference there counts as sensitive when the scalar function's value
 * is itself that sensitive (spread: INFINITY when check 1 found the
 * return value sensitive, else fz_gsensitivity at example n - 1). */
#define FZ_GSTART 0.8125
/* Spread of the global the scalar function leaves at x under tiny
 * relative input perturbations (as fz_sensitivity; the global can be far
 * more sensitive than the return value: seed 10 of 1-400 at K = 4 iterates
 * W = -fmin(p, W) * W / 1.5 + ... through log and sin five times and
 * returns a constant). */
static double fz_gsensitivity(const fz_fn *f, const double *x, double g0) {
  double spread = 0.0, xx[FZ_MAXP];
  double rel = f->rtype == 'f' || !f->twin_exact ? 0x1p-18 : 0x1p-40;
  for (int trial = 0; trial < 8; trial++) {
    memcpy(xx, x, sizeof xx);
    for (int p = 0; p < f->np; p++)
      if (f->ptype[p] != 'i')
        xx[p] =
            fz_round(f->ptype[p],
                     x[p] * (1.0 + rel * (double)((long)(fz_rng() % 9) - 4)));
    f->gset(FZ_GSTART);
    (void)f->scalar(xx);
    double g = f->gget();
    if (isnan(g) != isnan(g0))
      return INFINITY;
    spread = fmax(spread, fabs(g - g0));
  }
  return spread;
}

/* The global the tie twin leaves at x (every path writes it first, so
 * the value before the call does not matter), its math results one ULP
 * off as in fz_ulp_explains, is got within tolerance tol: the global's own
 * seed-310 case (a cosf result truncated to int and stored, where input
 * perturbations see nothing and the return value may not depend on it). */
static int fz_gulp_explains(const fz_fn *f, const double *x, double got,
                            double tol) {
  int ok = 0;
  if (!f->gtie)
    return 0;
  for (int mode = 1; mode <= 16 && !ok; mode++) {
    fz_ulp_mode = mode;
    fz_ulp_call = 0;
    (void)f->tie(x);
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
 * accepts without an explanation (spread: as fz_check_global's). */
static int fz_global_fails(const fz_fn *f, double got, double want,
                           double spread) {
  double tol = f->rtype == 'f' || !f->twin_exact ? FZ_TOL_F : FZ_TOL_D;
  return !fz_same(got, want) &&
         !(f->transcendental &&
           (fabs(got - want) <= tol * fmax(1.0, fabs(want)) ||
            fabs(got - want) <= 4 * spread));
}

/* spread INFINITY: the scalar global at example n - 1 is itself that
 * sensitive, one ULP of a math call away, or took a NaN's sign */
static void fz_check_global(const fz_fn *f, const char *what, double got,
                            double want, size_t n, int pat, double spread) {
  if (!f->gget || !fz_global_fails(f, got, want, 0.0))
    return;
  if (isinf(spread) || !fz_global_fails(f, got, want, spread)) {
    fz_st.sensitive++;
    return;
  }
  FZ_FAIL(f, (double *const *)NULL, n ? n - 1 : 0,
          "global after %s %a != after the scalar loop %a", what, got, want);
}

#endif
