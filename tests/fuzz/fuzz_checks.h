/* Checks 1-5 and 7 of the random-program fuzzer on one (n, pattern) case
 * (fz_case: the batch's inputs, shadows, tangents and the results later
 * checks compare with), which fz_check_fn in fuzz_harness.h runs in turn.
 * Part of fuzz_harness.h (included there, after fuzz_oracle.h, fuzz_hvp.h
 * and fuzz_global.h); not a header of its own: it uses their functions and
 * fuzz_harness.h's types. */
#ifndef BATCHDIFF_FUZZ_CHECKS_H
#define BATCHDIFF_FUZZ_CHECKS_H

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
  int ovf = 0;
  if (pat == 3 || !isfinite(dot) || !isfinite(mag)) {
    fz_st.jvp_skip++;
  } else if (!isfinite(jv)) {
    /* a finite gradient but a non-finite d_ret: an intermediate that
     * overflowed (or became NaN) in the function itself excuses it (forward
     * mode then multiplies its infinite partial by a tangent the reverse
     * sweep never forms), and so do intermediate tangents that overflow
     * (seed 957 of the twelfth round: finite along t * 2^-64, as check 4's
     * H.v is scaled); otherwise a zero tangent times an infinite partial,
     * or a wrong rule, made it */
    (void)fz_path_ok(f, x, c->rb[b], &ovf);
    double ts[FZ_MAXP], *t2[FZ_MAXP], djs = 0.0;
    if (!ovf) {
      for (int p = 0; p < f->np; p++) {
        t2[p] = t1[p] ? &ts[p] : NULL;
        if (t1[p])
          ts[p] = t1[p][0] * 0x1p-64;
      }
      f->jvp(1, a1, t2, NULL, &djs);
      djs *= 1.0 + FZ_MUTATE_JVP;
    }
    if (ovf || isfinite(djs))
      fz_st.jvp_ovf++;
    else
      FZ_FAIL(f, a, b,
              "jvp %.17g not finite, dot(gradient, tangent) %.17g "
              "(no intermediate overflowed; along t * 2^-64: %.17g)",
              jv, dot, djs);
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

#endif
