/* The fuzzer's derivative oracle, part of fuzz_harness.h (included there,
 * after its helpers): how sensitive the scalar function is at a point,
 * central differences in long double on the long twin, whether a point
 * sits on a branch boundary, and whether a difference is absorbed by
 * rounding. Not a header of its own: it uses fuzz_harness.h's types. */
#ifndef BATCHDIFF_FUZZ_ORACLE_H
#define BATCHDIFF_FUZZ_ORACLE_H

/* The re-checks' self-test (gen.py --mutate-ulp): check 1 compares the
 * scalar result with NAME_batched's moved FZ_MUTATE_ULP ULPs of the result
 * type at one example per function (n = 17, pattern 0, example 8), a small
 * deliberate bug of a contraction difference's form that gen.py's
 * re-checks (recheck.py) must not excuse. */
#ifndef FZ_MUTATE_ULP
#define FZ_MUTATE_ULP 0
#endif
static double fz_mutate_ulp(const fz_fn *f, size_t n, int pat, size_t b,
                            double v) {
  if (!FZ_MUTATE_ULP || n != 17 || pat != 0 || b != 8 || !isfinite(v) ||
      v == 0.0)
    return v;
  return v + FZ_MUTATE_ULP * ldexp(1.0, ilogb(v) - (f->rtype == 'f' ? 23 : 52));
}

/* Spread of the scalar function under tiny relative input perturbations. */
static double fz_sensitivity(const fz_fn *f, const double *x, double y0) {
  double spread = 0.0, xx[FZ_MAXP];
  double rel = f->rtype == 'f' || !f->twin_exact ? 0x1p-18 : 0x1p-40;
  for (int trial = 0; trial < 8; trial++) {
    memcpy(xx, x, sizeof xx);
    for (int p = 0; p < f->np; p++)
      if (f->ptype[p] != 'i')
        xx[p] =
            fz_round(f->ptype[p],
                     x[p] * (1.0 + rel * (double)((long)(fz_rng() % 9) - 4)));
    double y = f->scalar(xx);
    if (isnan(y) != isnan(y0))
      return INFINITY;
    double d = fabs(y - y0);
    if (d > spread)
      spread = d;
  }
  return spread;
}

/* Central difference of the long twin w.r.t. parameter p at x, step h. */
static long double fz_cd(const fz_fn *f, long double *x, int p, long double x0,
                         long double h, long double *fmax_abs) {
  x[p] = x0 + h;
  long double fp = f->ltwin(x);
  x[p] = x0 - h;
  long double fm = f->ltwin(x);
  x[p] = x0;
  *fmax_abs = fmaxl(*fmax_abs, fmaxl(fabsl(fp), fabsl(fm)));
  return (fp - fm) / (2 * h);
}

/* The derivative of the long twin (every floating type long double) w.r.t.
 * parameter p at x0, or NAN where it is no reliable oracle (*why: 1 a value
 * is not finite, 2 a kink or an ill-conditioned point). Richardson-
 * extrapolated central differences (error O(h^4)) at two scales must agree,
 * and so must the one-sided differences at a step 2^26 times smaller: that
 * catches kinks, exact ties between the two sides of a branch, functions
 * piecewise constant below the step (floor of a huge value) and arguments
 * whose steps are meaningless (sin of 1e53). *noise gets the rounding-noise
 * bound of the result. Long double cancels 11 bits later than double. */
static void fz_to_long(const fz_fn *f, const double *x, long double *out) {
  for (int i = 0; i < FZ_MAXP; i++)
    out[i] = i < f->np ? (long double)x[i] : 0.0L;
}

static double fz_fd(const fz_fn *f, const double *x0, int p, double *noise,
                    int *why) {
  long double x[FZ_MAXP];
  fz_to_long(f, x0, x);
  long double s = fmaxl(1.0L, fabsl(x[p])), xp = x[p];
  long double f0 = f->ltwin(x), fmx = fabsl(f0);
  long double h = 0x1p-10L * s;
  long double d1 = fz_cd(f, x, p, xp, h, &fmx);
  long double d2 = fz_cd(f, x, p, xp, h / 2, &fmx);
  long double d3 = fz_cd(f, x, p, xp, h / 8, &fmx);
  long double d4 = fz_cd(f, x, p, xp, h / 16, &fmx);
  long double dt = 0x1p-36L * s;
  x[p] = xp + dt;
  long double ft = f->ltwin(x);
  x[p] = xp - dt;
  long double bt = f->ltwin(x);
  x[p] = xp;
  if (!isfinite(f0) || !isfinite(d1) || !isfinite(d2) || !isfinite(d3) ||
      !isfinite(d4) || !isfinite(ft) || !isfinite(bt)) {
    *why = 1;
    return NAN;
  }
  fmx = fmaxl(fmx, fmaxl(fabsl(ft), fabsl(bt)));
  long double nz = 64 * LDBL_EPSILON * fmaxl(fmx, 1e-300L);
  long double r1 = (4 * d2 - d1) / 3, r2 = (4 * d4 - d3) / 3;
  long double nr = 3 * nz / (h / 16), nt = 2 * nz / dt;
  long double scale = fabsl(r2) + 1.0L;
  long double fw = (ft - f0) / dt, bw = (f0 - bt) / dt;
  *why = 2;
  if (fabsl(r1 - r2) > 1e-7L * scale + 2 * nr)
    return NAN;
  /* A staircase: flat at the point (both one-sided differences exactly 0,
   * where a slope of r2 would move the long twin by more than 4 ULPs of its
   * largest value) but not over the central differences' steps, which see
   * the stairs' mean slope (seed 118 of the eleventh round's fptrs, fchoice,
   * gpaths: floor of p2 times about 17,800, steps of 5.6e-5 in p2 under
   * the steps 3.2e-3 and 2e-4): no derivative there to compare with. */
  if (fw == 0 && bw == 0 && fabsl(r2) * dt > 4 * LDBL_EPSILON * fmx)
    return NAN;
  if (fabsl(fw - bw) > 1e-3L * scale + 2 * nt)
    return NAN;
  if (fabsl((fw + bw) / 2 - r2) > 1e-3L * scale + nt)
    return NAN;
  *why = 0;
  *noise = (double)nr;
  return (double)r2;
}

/* Whether the long twin is an oracle at x, where the function returned y:
 * it must take the path the function took (a value further off means a
 * branch decided by rounding, or a function so ill-conditioned that its
 * double gradient is noise). *ovf: an intermediate overflowed or became
 * NaN (reverse mode then multiplies a zero adjoint by an infinite partial:
 * a NaN gradient where the function is locally constant). */
static int fz_path_ok(const fz_fn *f, const double *x, double y, int *ovf) {
  if (f->rtf)
    *f->rtf = -1, *f->rtl = -2;
  feclearexcept(FE_ALL_EXCEPT);
  double yt = f->twin(x);
  /* float intermediates overflow earlier; a double-only function is its
   * twin, whose flags are those of its path (FENV_ACCESS: clang may
   * evaluate both arms of a ?: in the function itself, and deletes float
   * arithmetic whose result is dead, with its flags: seed 701, a float
   * loop overflowing to Inf before a return of a constant) */
  if (!f->twin_exact)
    (void)f->fenv(x);
  *ovf = fetestexcept(FE_OVERFLOW | FE_INVALID | FE_DIVBYZERO) != 0;
  /* the return taken: a value close to the function's may still come from
   * another return (seed 26 of the twelfth round: a return taken where p1
   * is not a float, never in the twins, which make (float)p1 double; its
   * large BD_NODIFF terms made the two returns' results 7.7e-5 apart) */
  if (f->rtf && f->twin_exact)
    (void)f->fenv(x);
  long double xl[FZ_MAXP];
  fz_to_long(f, x, xl);
  double yl = (double)f->ltwin(xl);
  if (f->rtf && *f->rtl != *f->rtf)
    return 0;
  return f->twin_exact
             ? fz_same(yt, y) && fabs(yl - y) <= 1e-9 * (fabs(y) + 1.0)
             : fabs(yt - y) <= 1e-4 * (fabs(y) + 1.0) &&
                   fabs(yl - y) <= 1e-4 * (fabs(y) + 1.0);
}

static double *fz_alloc(size_t n) {
  double *p = malloc((n ? n : 1) * sizeof(double));
  if (!p) {
    fprintf(stderr, "out of memory\n");
    exit(2);
  }
  return p;
}

/* The pre-filled shadow of an array element p (incremented at every read:
 * pre + c1 + c2 + ...) differs from fl(pre + g): is that absorption (pre
 * lost next to huge increments that cancel, +a then -a with a = 1e308: seed
 * 97) rather than a shadow stored instead of incremented? Pre-fills pre *
 * 2^k of every scale: if the shadow shows its pre-fill, P + g to rounding
 * of P, at one of them (P comparable with the increments), it is
 * incremented; a stored shadow never does (it ends as g or the last
 * increment, whatever P is). */
static int fz_absorbed(const fz_fn *f, size_t n, double *const *a, int p,
                       size_t b, double pre, double g) {
  size_t cnt = f->uniform[p] == '1' ? 1 : n;
  double *dd[FZ_MAXP] = {0};
  double *s = fz_alloc(cnt);
  int lo = f->ptype[p] == 'f' ? -140 : -1060,
      hi = f->ptype[p] == 'f' ? 120 : 1020;
  int ok = 0;
  for (int k = lo; k <= hi && !ok; k += 10) {
    double P = fz_round(f->ptype[p], ldexp(pre, k));
    if (P == 0.0 || !isfinite(P) || !(fabs(P) >= 1e-3 * fabs(g)))
      continue; /* a pre-fill this small would not show */
    for (size_t e = 0; e < cnt; e++)
      s[e] = P;
    dd[p] = s;
    f->grad(n, a, NULL, dd);
    ok = isfinite(s[b]) &&
         fabs(s[b] - (P + g)) <= (f->ptype[p] == 'f' ? 1e-4 : 1e-9) * fabs(P);
  }
  free(s);
  return ok;
}

#endif
