/* NAME_hvp checks of the random-program fuzzer (included by fuzz_harness.h,
 * see tests/fuzz/README.md, check 6).
 *
 * Per n and input pattern: ret and the gradient part bit for bit those of
 * NAME_batched and NAME_grad; a NULL tangent gives the bits of a zero one;
 * each example alone (n = 1) gives the H.v bits it gets in the batch; a
 * uniform parameter's H.v is the sum of the examples' (to rounding). At
 * sampled examples, (H v)_p against an independent oracle: the central
 * difference along v of the long twin's derivative in p (itself
 * Richardson-extrapolated differences, fz_fd), Richardson-extrapolated in
 * the step along v at two scales that must agree, as must one-sided
 * differences at the point (fz_hv_fd); where they do not (a
 * kink of the gradient within the stencil, a branch, fmin/fmax/fabs/floor)
 * or fz_fd finds no reliable derivative at a stencil point, the point is
 * skipped and counted (hvp_skip), as are points where the long twin is no
 * oracle (fz_path_ok) or an intermediate overflowed and H.v is not finite. */
#ifndef BATCHDIFF_FUZZ_HVP_H
#define BATCHDIFF_FUZZ_HVP_H

static double fz_fd(const fz_fn *f, const double *x0, int p, double *noise,
                    int *why);

/* Central difference along v, step s, of the long twin's derivative in p;
 * NAN where fz_fd has no reliable derivative at a stencil point. */
static double fz_hv_cd(const fz_fn *f, const double *x, const double *v, int p,
                       double s, double *noise) {
  double g[2], nz[2];
  for (int k = 0; k < 2; k++) {
    double xs[FZ_MAXP];
    for (int q = 0; q < FZ_MAXP; q++)
      xs[q] = q < f->np ? x[q] + (k ? -s : s) * v[q] : 0.0;
    int why = 0;
    nz[k] = 0.0;
    g[k] = fz_fd(f, xs, p, &nz[k], &why);
    if (isnan(g[k]))
      return NAN;
  }
  *noise = (nz[0] + nz[1]) / (2 * s);
  return (g[0] - g[1]) / (2 * s);
}

/* One-sided differences along v, step t, of the long twin's derivative in
 * p: *fw forward, *bw backward; 0 where fz_fd has no derivative. */
static int fz_hv_sides(const fz_fn *f, const double *x, const double *v, int p,
                       double t, double *fw, double *bw, double *noise) {
  double g[3], nz[3];
  for (int k = 0; k < 3; k++) {
    double xs[FZ_MAXP];
    for (int q = 0; q < FZ_MAXP; q++)
      xs[q] = q < f->np ? x[q] + (double)(k - 1) * t * v[q] : 0.0;
    int why = 0;
    nz[k] = 0.0;
    g[k] = fz_fd(f, xs, p, &nz[k], &why);
    if (isnan(g[k]))
      return 0;
  }
  *fw = (g[2] - g[1]) / t;
  *bw = (g[1] - g[0]) / t;
  *noise = (nz[0] + 2 * nz[1] + nz[2]) / t;
  return 1;
}

/* (H v)_p of the long twin at x, or NAN where that is no reliable oracle;
 * *noise gets the bound of the differences' rounding noise. Besides the
 * two extrapolations, the one-sided differences at a step 2^13 times
 * smaller, which read the derivative at x itself, must agree: central
 * differences never see x. The function can take another branch at x
 * only (an exact tie, pattern 2: `(...) != p1 ? p2 : k` at p2 == p1
 * returns the constant k there and log(|p2| + 0.5) around it, seed 65 of
 * 25-1200 at K = 4), or its Hessian can jump at x (fmax(p1, p2) * p2 at a
 * tie), where central differences average the two sides' H.v and
 * NAME_hvp gives the side the example took. */
static double fz_hv_fd(const fz_fn *f, const double *x, const double *v, int p,
                       double *noise) {
  const double s = 0x1p-7;
  double n1, n2, n3, n4;
  double d1 = fz_hv_cd(f, x, v, p, s, &n1);
  double d2 = fz_hv_cd(f, x, v, p, s / 2, &n2);
  double d3 = fz_hv_cd(f, x, v, p, s / 8, &n3);
  double d4 = fz_hv_cd(f, x, v, p, s / 16, &n4);
  if (!isfinite(d1) || !isfinite(d2) || !isfinite(d3) || !isfinite(d4))
    return NAN;
  double r1 = (4 * d2 - d1) / 3, r2 = (4 * d4 - d3) / 3;
  double nr = (5 * n4 + n3) / 3;
  if (fabs(r1 - r2) > 1e-7 * (fabs(r2) + 1.0) + 2 * ((5 * n2 + n1) / 3 + nr))
    return NAN;
  /* At 2^-20 the sides' noise (fz_fd's, over t) can hide a jump: seed 414
   * of the tenth round's all, fmax(a, b) at a == b with v_a != v_b, sides
   * 0.156 and 0.491 with a noise bound of 0.359. Where the noise is more
   * than a tenth of the tolerance the sides are read again at 2^-14, 64
   * times less noisy, still inside the central stencil's smallest step
   * (2^-11), and must agree there too. */
  const double tol = 1e-3 * (fabs(r2) + 1.0);
  for (double t = 0x1p-20; t <= 0x1p-14; t *= 0x1p6) {
    double fw, bw, nt;
    if (!fz_hv_sides(f, x, v, p, t, &fw, &bw, &nt) ||
        fabs(fw - bw) > tol + 2 * nt || fabs((fw + bw) / 2 - r2) > tol + nt)
      return NAN;
    if (nt <= tol / 10)
      break;
  }
  *noise = nr;
  return r2;
}

/* The derivative along v, on one side (dir +1 or -1) of x only, of the
 * long twin's derivative in p: one-sided differences at steps t and t/2,
 * Richardson-extrapolated; NAN where fz_fd has no derivative. */
static double fz_hv_side(const fz_fn *f, const double *x, const double *v,
                         int p, int dir, double t, double *noise) {
  double g[3], nz[3];
  const double st[3] = {0.0, t / 2, t};
  for (int k = 0; k < 3; k++) {
    double xs[FZ_MAXP];
    for (int q = 0; q < FZ_MAXP; q++)
      xs[q] = q < f->np ? x[q] + dir * st[k] * v[q] : 0.0;
    int why = 0;
    nz[k] = 0.0;
    g[k] = fz_fd(f, xs, p, &nz[k], &why);
    if (isnan(g[k]))
      return NAN;
  }
  double d1 = (g[2] - g[0]) / (dir * t), d2 = (g[1] - g[0]) / (dir * t / 2);
  *noise = 2 * (nz[1] + nz[0]) / (t / 2) + (nz[2] + nz[0]) / t;
  return 2 * d2 - d1;
}

/* H.v component g, which disagrees with the central differences c, is
 * the derivative on one side of x where the two sides differ: the Hessian
 * jumps at x (fmax(a, b) * p1 at a == b, v_a != v_b: seed 459 of the tenth
 * round's all, a jump of 1.5e-4 under the 1e-3 of fz_hv_fd's sides check,
 * which its own rounding needs) and NAME_hvp took the side the example
 * took, while central differences average both. */
static int fz_hv_jump(const fz_fn *f, const double *x, const double *v, int p,
                      double g, double tol) {
  /* smaller steps see a jump closer to x, larger ones with less noise */
  for (double t = 0x1p-12; t <= 0x1p-8; t *= 4) {
    double nf = 0.0, nb = 0.0;
    double fw = fz_hv_side(f, x, v, p, 1, t, &nf);
    double bw = fz_hv_side(f, x, v, p, -1, t, &nb);
    if (isnan(fw) || isnan(bw) ||
        !(fabs(fw - bw) > tol * (fabs(fw) + fabs(bw) + 1.0) + nf + nb))
      continue;
    if (fabs(g - fw) <= tol * (fabs(fw) + 1.0) + nf ||
        fabs(g - bw) <= tol * (fabs(bw) + 1.0) + nb)
      return 1;
  }
  return 0;
}

static int fz_has_shadow(const fz_fn *f, int p) {
  return f->ptype[p] != 'i' && f->nodiff[p] != '1';
}

/* One example's direction: v[q] (0 without a tangent), t1[q] pointing at
 * it for parameters with one. */
static void fz_direction(const fz_fn *f, double *const *t, size_t b, double *v,
                         double **t1) {
  for (int q = 0; q < FZ_MAXP; q++) {
    v[q] = 0.0;
    t1[q] = NULL;
    if (q >= f->np || !fz_has_shadow(f, q))
      continue;
    v[q] = f->uniform[q] == '1' ? t[q][0] : t[q][b];
    t1[q] = &v[q];
  }
}

/* H.v of example b alone (n = 1, gradient shadows NULL): h[q]; along v
 * times s (a power of 2), the result divided by s. */
static void fz_hvp_one(const fz_fn *f, double *const *a, size_t b,
                       double *const *t, double s, double *h) {
  double one[FZ_MAXP], *a1[FZ_MAXP], v[FZ_MAXP], *t1[FZ_MAXP],
      *d1[FZ_MAXP] = {0}, *h1[FZ_MAXP];
  fz_args_of(f, a, b, one);
  fz_direction(f, t, b, v, t1);
  for (int q = 0; q < f->np; q++) {
    a1[q] = &one[q];
    v[q] *= s;
    h[q] = 0.0;
    h1[q] = fz_has_shadow(f, q) ? &h[q] : NULL;
  }
  f->hvp(1, a1, t1, NULL, d1, h1);
  for (int q = 0; q < f->np; q++)
    h[q] /= s;
}

/* H.v is linear in v, and the function's values do not depend on it: where
 * no value overflowed (ovf 0) but H.v is not finite, the tangents of
 * intermediates may have (seed 957 of the twelfth round's all: p4 squared
 * eight times to -5.3e306, whose derivative along v is -9.95e308 in long
 * double, past DBL_MAX; the return m / (1 + |m|), m = fmax(0.375 -
 * lgamma(..) * p4, -0.125) = 1.8e308, multiplies its derivative, 0 in
 * double, by that infinite tangent; NAME_jvp's d_ret is NaN there too).
 * Along v * 2^-64 they do not: that H.v, times 2^64, is the one compared
 * with the oracle (counted as hvp_scaled). A non-finite H.v that is not
 * the tangents' size stays non-finite there, and fails. */
static void fz_hvp_rescale(const fz_fn *f, double *const *a, size_t b,
                           double *const *t, int ovf, double *h) {
  double hs[FZ_MAXP];
  int nonfinite = 0;
  for (int p = 0; p < f->np; p++)
    nonfinite |= fz_has_shadow(f, p) && !isfinite(h[p]);
  if (ovf || !nonfinite)
    return;
  fz_hvp_one(f, a, b, t, 0x1p-64, hs);
  for (int p = 0; p < f->np; p++)
    if (fz_has_shadow(f, p) && !isfinite(h[p]) && isfinite(hs[p])) {
      h[p] = hs[p];
      fz_st.hvp_scaled++;
    }
}

/* Example b against the oracle (path_ok, ovf: fz_path_ok at x). */
static void fz_check_hvp_fd(const fz_fn *f, double *const *a, size_t b,
                            size_t n, int pat, const double *x,
                            double *const *t, int path_ok, int ovf) {
  double h[FZ_MAXP], v[FZ_MAXP], *t1[FZ_MAXP];
  if (!f->hvp)
    return;
  fz_hvp_one(f, a, b, t, 1.0, h);
  fz_hvp_rescale(f, a, b, t, ovf, h);
  fz_direction(f, t, b, v, t1);
  for (int p = 0; p < f->np; p++) {
    if (!fz_has_shadow(f, p))
      continue;
    double noise = 0.0;
    double c = path_ok && !(ovf && !isfinite(h[p]))
                   ? fz_hv_fd(f, x, v, p, &noise)
                   : NAN;
    /* beyond what float arithmetic represents along the way */
    if (isnan(c) || (!f->twin_exact && fabs(c) > 1e30)) {
      fz_st.hvp_skip++;
      continue;
    }
    fz_st.hvp_fd++;
    double tol = f->twin_exact ? 1e-6 : 1e-2;
    double g = h[p] * (1.0 + FZ_MUTATE);
    if (!(fabs(g - c) <= tol * (fabs(c) + 1.0) + noise) &&
        fz_hv_jump(f, x, v, p, g, tol)) {
      fz_st.hvp_fd--; /* no oracle at a jump: skipped as kinks are */
      fz_st.hvp_skip++;
      continue;
    }
    if (!(fabs(g - c) <= tol * (fabs(c) + 1.0) + noise))
      FZ_FAIL(f, a, b,
              "param %d: hvp %.17g, central difference of the derivative "
              "along v %.17g (noise %g)",
              p, g, c, noise);
  }
}

/* A gradient of NAME_hvp's that differs from NAME_grad's where a NaN's
 * sign decides the path (fz_same_ret; docs/abi.md, "NaN sign and
 * payload"): each is compiled on its own, and LLVM may sign a NaN
 * differently in each (seed 984 of the twelfth round's all, f1:
 * `-(copysignf((float)p2, (float)xr6[1].d * xs3.c) * k) + 2` with xr6[1]
 * a +NaN: clang -O2 moves the negation into copysignf's sign operand as
 * `(-xs3.c) * NaN`, on x86 the NaN with its sign unchanged: the right side
 * is 182, not -178, in the scalar f1, NAME_batched and NAME_grad; the
 * `&& p2-- > 4` after it runs at -O0 and in NAME_hvp only). A uniform
 * parameter's gradient sums the batch: any example's NaN sign counts. */
static int fz_hvp_nan_sign(const fz_fn *f, double *const *a, size_t n, int p,
                           size_t b) {
  if (f->uniform[p] != '1')
    return fz_nan_sign_at(f, a, b);
  for (size_t e = 0; e < n; e++)
    if (fz_nan_sign_at(f, a, e))
      return 1;
  return 0;
}

/* The batch: ret, gradient and H.v shadows (zero-filled) against
 * NAME_batched, NAME_grad (d0, zero-filled) and the examples alone. */
static void fz_check_hvp(const fz_fn *f, double *const *a, size_t n, int pat,
                         double *const *t, const double *rb,
                         double *const *d0) {
  if (!f->hvp)
    return;
  double *r = fz_alloc(n), *d[FZ_MAXP], *h[FZ_MAXP], *hz[FZ_MAXP], *h0[FZ_MAXP],
         *tn[FZ_MAXP];
  int first = -1;
  for (int p = 0; p < f->np; p++) {
    size_t cnt = f->uniform[p] == '1' ? 1 : n;
    d[p] = h[p] = hz[p] = h0[p] = tn[p] = NULL;
    if (!fz_has_shadow(f, p))
      continue;
    d[p] = fz_alloc(cnt);
    h[p] = fz_alloc(cnt);
    hz[p] = fz_alloc(cnt);
    h0[p] = fz_alloc(cnt);
    tn[p] = fz_alloc(cnt);
    for (size_t b = 0; b < cnt; b++) {
      d[p][b] = h[p][b] = hz[p][b] = h0[p][b] = 0.0;
      tn[p][b] = first < 0 ? 0.0 : t[p][b];
    }
    if (first < 0)
      first = p;
  }
  f->hvp(n, a, t, r, d, h);
  for (size_t b = 0; b < n; b++) {
    fz_st.hvp_bits++;
    if (!fz_same_ret(f, a, b, r[b], rb[b]))
      FZ_FAIL(f, a, b, "hvp ret %a != batched %a", r[b], rb[b]);
  }
  for (int p = 0; p < f->np; p++)
    for (size_t b = 0; d[p] && b < (f->uniform[p] == '1' ? 1 : n); b++)
      if (!fz_same(d[p][b], d0[p][b]) &&
          !(f->elem && (f->elem[p] == 's' || f->elem[p] == 'S') &&
            fabs(d[p][b] - d0[p][b]) <=
                (f->ptype[p] == 'f' ? FZ_TOL_F : FZ_TOL_D) * (double)(n + 1) *
                    (fabs(d0[p][b]) + 1.0)) &&
          !fz_hvp_nan_sign(f, a, n, p, b))
        FZ_FAIL(f, a, b, "param %d: hvp gradient %a != grad %a", p, d[p][b],
                d0[p][b]);
  /* a NULL tangent is the zero direction: hz (NULL) against h0 (zero),
   * gradient shadows NULL */
  if (first >= 0) {
    double *tnull[FZ_MAXP], *dnull[FZ_MAXP] = {0};
    for (int p = 0; p < f->np; p++)
      tnull[p] = p == first ? NULL : tn[p];
    f->hvp(n, a, tnull, NULL, dnull, hz);
    f->hvp(n, a, tn, NULL, dnull, h0);
    for (int p = 0; p < f->np; p++)
      for (size_t b = 0; hz[p] && b < (f->uniform[p] == '1' ? 1 : n); b++)
        if (!fz_same(hz[p][b], h0[p][b]))
          FZ_FAIL(f, a, b,
                  "param %d: hvp with param %d's tangent NULL %a, zero %a", p,
                  first, hz[p][b], h0[p][b]);
  }
  /* each example alone; uniform sums */
  double usum[FZ_MAXP] = {0}, uabs[FZ_MAXP] = {0};
  for (size_t b = 0; b < n; b++) {
    double h1[FZ_MAXP];
    fz_hvp_one(f, a, b, t, 1.0, h1);
    for (int p = 0; p < f->np; p++) {
      if (!h[p])
        continue;
      if (f->uniform[p] == '1') {
        usum[p] += h1[p];
        uabs[p] += fabs(h1[p]);
      } else if (!fz_same(h1[p], h[p][b])) {
        FZ_FAIL(f, a, b, "param %d: hvp alone %a != in batch %a", p, h1[p],
                h[p][b]);
      }
    }
  }
  for (int p = 0; p < f->np; p++) {
    if (!h[p] || f->uniform[p] != '1')
      continue;
    double tol = f->rtype == 'f' || f->ptype[p] == 'f' ? 2e-5 : 1e-12;
    double g = h[p][0];
    if (!(fabs(g - usum[p]) <= 4 * tol * (uabs[p] + 1.0)) &&
        !(isnan(g) && isnan(usum[p])) && !(g == usum[p]))
      FZ_FAIL(f, a, (size_t)0,
              "param %d (uniform): hvp %.17g != sum of per-example H.v "
              "%.17g",
              p, g, usum[p]);
  }
  for (int p = 0; p < f->np; p++) {
    free(d[p]);
    free(h[p]);
    free(hz[p]);
    free(h0[p]);
    free(tn[p]);
  }
  free(r);
}

#endif
