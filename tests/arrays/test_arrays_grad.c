/* Gradients through array parameters: NAME_grad against hand-written
 * forward mode (dual numbers, one seeded element at a time; tight
 * tolerance) and central finite differences, for
 *   gdot   a dot product with BD_UNIFORM weights (d_w = sum over the batch),
 *   gdotw  the same product read by pointer walks, `*p++` of a copy of the
 *          BD_UNIFORM w (its one shadow: each element the sum over the
 *          batch of every example's contribution, each example's extent
 *          its own n[b]) and `*x++` of x itself (stride 0 too),
 *   glse   a ragged softmax-like reduction log(1 + sum exp(x[i])),
 *   gout   an output array y[i] = a x[i]^2 + 2 x[i] (d_y holds the
 *          cotangent on entry and is zeroed where y was written),
 *   ginout an in-out array y[i] = a y[i] + x[i]^2 (d_y on exit is the
 *          gradient w.r.t. y's initial value),
 *   gwloop, gwbranch, gwplus  overwrites (issue 13): a written element's
 *          shadow restarts from zero at the write, in a loop, under a
 *          per-lane branch, for a partial overwrite and for `+=`, and for
 *          a local array element overwritten by a constant,
 * with ragged extents n[b] (0 included), shadows pre-filled with nonzero
 * values (must be incremented: exactly S0 + the gradient from zero), NULL
 * shadows (each one in turn: the others unchanged, bit for bit), stride 0
 * for a shared input array and its shadow (the shadow gets the sum over
 * the batch), and sentinels in every shadow element outside every
 * example's extent (gaps between examples, past n[b]). */
#include "arrays_util.h"

#include "../exec/grad_util.h"
#include "../common/test_filter.h"

BATCHDIFF double gdot(const double *x, BD_UNIFORM const double *w, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += w[i] * x[i];
  return s;
}
BATCHDIFF double gdotw(const double *x, BD_UNIFORM const double *w, int n) {
  const double *p = w;
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += *p++ * *x++;
  return s;
}
BATCHDIFF double glse(const double *x, int n) {
  double s = 1.0;
  for (int i = 0; i < n; i++)
    s += exp(x[i]);
  return log(s);
}
BATCHDIFF void gout(const double *x, double *y, double a, int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] * x[i] + 2.0 * x[i];
}
BATCHDIFF void ginout(double *y, const double *x, double a, int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * y[i] + x[i] * x[i];
}
/* Overwrites: d_y on exit is the gradient w.r.t. y's initial value, which
 * an overwrite cuts off even when the new value is a constant. */
BATCHDIFF void gwloop(double *y, const double *x, double a, int n) {
  for (int i = 0; i < n; i++) {
    y[i] = 3.0;
    y[i] = a * y[i] + x[i];
  }
}
BATCHDIFF void gwbranch(double *y, const double *x, double a, int n) {
  for (int i = 0; i < n; i++) {
    if (x[i] > 0.0)
      y[i] = 2.0;
    y[i] = y[i] * a + x[i];
  }
}
BATCHDIFF void gwplus(double *y, const double *x, double a, int n) {
  double t[2];
  t[0] = a * a;
  t[0] = 0.5;
  t[1] = a;
  if (n > 0)
    y[0] = 1.5;
  for (int i = 0; i < n; i++)
    y[i] += t[0] * x[i] + t[1];
}

/* The objective of one example: seed * ret + sum_i cot[i] * y_final[i],
 * in dual numbers. x, w, y0 have n elements. */
static dual o_gdot(const dual *x, const dual *w, const dual *y0, dual a,
                   const double *cot, double seed, int n) {
  (void)y0, (void)a, (void)cot;
  dual s = dc(0.0);
  for (int i = 0; i < n; i++)
    s = dadd(s, dmul(w[i], x[i]));
  return dscale(s, seed);
}
static dual o_glse(const dual *x, const dual *w, const dual *y0, dual a,
                   const double *cot, double seed, int n) {
  (void)w, (void)y0, (void)a, (void)cot;
  dual s = dc(1.0);
  for (int i = 0; i < n; i++)
    s = dadd(s, dexp(x[i]));
  return dscale(dlog(s), seed);
}
static dual o_gout(const dual *x, const dual *w, const dual *y0, dual a,
                   const double *cot, double seed, int n) {
  (void)w, (void)y0, (void)seed;
  dual L = dc(0.0);
  for (int i = 0; i < n; i++) {
    dual y = dadd(dmul(dmul(a, x[i]), x[i]), dscale(x[i], 2.0));
    L = dadd(L, dscale(y, cot[i]));
  }
  return L;
}
static dual o_ginout(const dual *x, const dual *w, const dual *y0, dual a,
                     const double *cot, double seed, int n) {
  (void)w, (void)seed;
  dual L = dc(0.0);
  for (int i = 0; i < n; i++) {
    dual y = dadd(dmul(a, y0[i]), dmul(x[i], x[i]));
    L = dadd(L, dscale(y, cot[i]));
  }
  return L;
}
static dual o_gwloop(const dual *x, const dual *w, const dual *y0, dual a,
                     const double *cot, double seed, int n) {
  (void)w, (void)y0, (void)seed;
  dual L = dc(0.0);
  for (int i = 0; i < n; i++)
    L = dadd(L, dscale(dadd(dscale(a, 3.0), x[i]), cot[i]));
  return L;
}
static dual o_gwbranch(const dual *x, const dual *w, const dual *y0, dual a,
                       const double *cot, double seed, int n) {
  (void)w, (void)seed;
  dual L = dc(0.0);
  for (int i = 0; i < n; i++) {
    dual y = x[i].v > 0.0 ? dc(2.0) : y0[i];
    L = dadd(L, dscale(dadd(dmul(y, a), x[i]), cot[i]));
  }
  return L;
}
static dual o_gwplus(const dual *x, const dual *w, const dual *y0, dual a,
                     const double *cot, double seed, int n) {
  (void)w, (void)seed;
  dual L = dc(0.0);
  for (int i = 0; i < n; i++) {
    dual y = i == 0 ? dc(1.5) : y0[i];
    y = dadd(y, dadd(dscale(x[i], 0.5), a));
    L = dadd(L, dscale(y, cot[i]));
  }
  return L;
}

/* Inputs of the batch; every pointer may be NULL where unused. */
typedef struct {
  const double *x;
  ptrdiff_t xs;
  const double *w;
  double *y;
  ptrdiff_t ys;
  const double *a;
  const int *n;
  double *ret;
  const double *dret;
  double *dx;
  ptrdiff_t dxs;
  double *dw;
  double *dy;
  ptrdiff_t dys;
  double *da;
} gargs;

static void c_gdot(size_t nb, const gargs *g) {
  gdot_grad(nb, g->x, g->xs, g->w, g->n, g->ret, g->dret, g->dx, g->dxs,
            g->dw);
}
static void c_gdotw(size_t nb, const gargs *g) {
  gdotw_grad(nb, g->x, g->xs, g->w, g->n, g->ret, g->dret, g->dx, g->dxs,
             g->dw);
}
static void c_glse(size_t nb, const gargs *g) {
  glse_grad(nb, g->x, g->xs, g->n, g->ret, g->dret, g->dx, g->dxs);
}
static void c_gout(size_t nb, const gargs *g) {
  gout_grad(nb, g->x, g->xs, g->y, g->ys, g->a, g->n, g->dx, g->dxs, g->dy,
            g->dys, g->da);
}
static void c_ginout(size_t nb, const gargs *g) {
  ginout_grad(nb, g->y, g->ys, g->x, g->xs, g->a, g->n, g->dy, g->dys, g->dx,
              g->dxs, g->da);
}
static void c_gwloop(size_t nb, const gargs *g) {
  gwloop_grad(nb, g->y, g->ys, g->x, g->xs, g->a, g->n, g->dy, g->dys, g->dx,
              g->dxs, g->da);
}
static void c_gwbranch(size_t nb, const gargs *g) {
  gwbranch_grad(nb, g->y, g->ys, g->x, g->xs, g->a, g->n, g->dy, g->dys,
                g->dx, g->dxs, g->da);
}
static void c_gwplus(size_t nb, const gargs *g) {
  gwplus_grad(nb, g->y, g->ys, g->x, g->xs, g->a, g->n, g->dy, g->dys, g->dx,
              g->dxs, g->da);
}
static void s_gout(double *y, const double *x, double a, int n) {
  gout(x, y, a, n);
}

enum { U_W = 1, U_Y = 2, U_YIN = 4, U_A = 8, U_RET = 16 };
typedef struct {
  const char *name;
  unsigned use;
  dual (*obj)(const dual *, const dual *, const dual *, dual, const double *,
              double, int);
  void (*grad)(size_t, const gargs *);
  /* the scalar function of the cases that write y */
  void (*yfn)(double *y, const double *x, double a, int n);
} gcase_a;

static const gcase_a cases[] = {
    {"gdot", U_W | U_RET, o_gdot, c_gdot, NULL},
    {"glse", U_RET, o_glse, c_glse, NULL},
    {"gout", U_Y | U_A, o_gout, c_gout, s_gout},
    {"ginout", U_Y | U_YIN | U_A, o_ginout, c_ginout, ginout},
    {"gwloop", U_Y | U_YIN | U_A, o_gwloop, c_gwloop, gwloop},
    {"gwbranch", U_Y | U_YIN | U_A, o_gwbranch, c_gwbranch, gwbranch},
    {"gwplus", U_Y | U_YIN | U_A, o_gwplus, c_gwplus, gwplus},
    {"gdotw", U_W | U_RET, o_gdot, c_gdotw, NULL},
};

#define MAXN 12
#define GTOL 1e-12

/* d objective / d (input k) of example b by forward mode. which: 0 x, 1 w,
 * 2 y0, 3 a. */
static double dual_d(const gcase_a *c, const double *x, const double *w,
                     const double *y0, double a, const double *cot,
                     double seed, int n, int which, int k) {
  dual X[MAXN], W[MAXN], Y[MAXN];
  for (int i = 0; i < n; i++) {
    X[i] = (dual){x[i], which == 0 && i == k};
    W[i] = (dual){w ? w[i] : 0.0, which == 1 && i == k};
    Y[i] = (dual){y0 ? y0[i] : 0.0, which == 2 && i == k};
  }
  return c->obj(X, W, Y, (dual){a, which == 3}, cot, seed, n).d;
}
static double obj_v(const gcase_a *c, const double *x, const double *w,
                    const double *y0, double a, const double *cot,
                    double seed, int n) {
  dual X[MAXN], W[MAXN], Y[MAXN];
  for (int i = 0; i < n; i++) {
    X[i] = dc(x[i]);
    W[i] = dc(w ? w[i] : 0.0);
    Y[i] = dc(y0 ? y0[i] : 0.0);
  }
  return c->obj(X, W, Y, dc(a), cot, seed, n).v;
}

/* Every accessible element outside every example's extent still holds the
 * sentinel; returns its index from the mapping or -1. */
static long outside_changed(const lay_t *L, size_t nb, const int *ext) {
  size_t pg = gp_page();
  for (size_t g = 0; g * pg < L->m.len; g++) {
    if (L->m.guard[g])
      continue;
    for (size_t o = g * pg; o < (g + 1) * pg; o += L->esz) {
      long e = (long)(o / L->esz) - (long)L->off;
      int inside = 0;
      for (size_t b = 0; b < nb && !inside; b++) {
        long s = (long)b * L->stride;
        inside = e >= s && e < s + ext[b];
      }
      if (inside)
        continue;
      for (size_t k = 0; k < L->esz; k++)
        if ((unsigned char)L->m.map[o + k] != LAY_SENT)
          return (long)(o / L->esz);
    }
  }
  return -1;
}

#define AT(L, b, i) LAY_AT(&(L), double, b, i)

static void fill_pre(lay_t *L, size_t nb, const int *ext, int pre) {
  for (size_t b = 0; b < nb; b++)
    for (int i = 0; i < ext[b]; i++)
      LAY_AT(L, double, b, i) =
          pre ? 0.25 * (double)(1 + (b + (size_t)i) % 7) * (i % 2 ? -1 : 1)
              : 0.0;
}

/* One configuration. rep: 0 seeds NULL (ones) and zero shadows; 1 random
 * seeds; 2 stride 0 for x and d_x (a shared input array). */
static void run_one(const gcase_a *c, size_t nb, int rep, rng_t *rng) {
  int shared = rep == 2;
  int *ext = gp_alloc((nb ? nb : 1) * sizeof(int));
  int maxe = 0;
  for (size_t b = 0; b < nb; b++) {
    ext[b] = rng_below(rng, MAXN + 1);
    if (b == nb / 2 && rep == 1)
      ext[b] = 0;
    maxe = ext[b] > maxe ? ext[b] : maxe;
  }
  gp_seal(ext);
  ptrdiff_t S = maxe + 1 + rng_below(rng, 3); /* larger than any extent */
  ptrdiff_t XS = shared ? 0 : S;
  int *xext = ext; /* with stride 0 every example reads x[0..maxe) */
  int one_ext[1] = {maxe};
  size_t xnb = shared ? (nb ? 1 : 0) : nb;
  if (shared)
    xext = one_ext;

  lay_t LX, LY, LDX, LDY;
  lay_make(&LX, 8, xnb, XS, xext, 0, LAY_END);
  lay_make(&LY, 8, nb, S, ext, 0, LAY_END);
  for (size_t b = 0; b < xnb; b++)
    for (int i = 0; i < xext[b]; i++)
      AT(LX, b, i) = rng_range(rng, -2, 2);
  for (size_t b = 0; b < nb; b++)
    for (int i = 0; i < ext[b]; i++)
      AT(LY, b, i) = rng_range(rng, -2, 2);
  lay_seal(&LX);
  double *w = gp_alloc((size_t)maxe * sizeof(double));
  for (int i = 0; i < maxe; i++)
    w[i] = rng_range(rng, -2, 2);
  gp_seal(w);
  double *a = gp_alloc(nb * sizeof(double));
  double *seed = gp_alloc(nb * sizeof(double));
  for (size_t b = 0; b < nb; b++) {
    a[b] = rng_range(rng, -2, 2);
    seed[b] = rep == 0 ? 1.0 : rng_range(rng, -2, 2);
  }
  gp_seal(a), gp_seal(seed);
  /* y0 (initial y) and the cotangents of y, per example. */
  double *y0 = malloc((size_t)(nb * (size_t)S + 1) * sizeof(double));
  double *cot = malloc((size_t)(nb * (size_t)S + 1) * sizeof(double));
  for (size_t b = 0; b < nb; b++)
    for (int i = 0; i < ext[b]; i++) {
      y0[b * (size_t)S + (size_t)i] = AT(LY, b, i);
      cot[b * (size_t)S + (size_t)i] = rng_range(rng, -2, 2);
    }

  /* Three runs: zero shadows (G1), pre-filled shadows (G2), and with one
   * shadow NULL at a time (G3). Each run gets fresh y, d_y. */
  double *dw1 = gp_alloc(maxe * sizeof(double)), *dw2 = gp_alloc(maxe * sizeof(double));
  double *da1 = gp_alloc(nb * sizeof(double)), *da2 = gp_alloc(nb * sizeof(double));
  double *ret = gp_alloc(nb * sizeof(double));
  lay_t DX1, DX2, DY1, Y1;
  lay_make(&DX1, 8, xnb, XS, xext, 0, LAY_END);
  lay_make(&DX2, 8, xnb, XS, xext, 0, LAY_END);
  lay_make(&DY1, 8, nb, S, ext, 0, LAY_END);
  lay_make(&Y1, 8, nb, S, ext, 0, LAY_END);
  (void)LDX, (void)LDY;
  for (int run = 0; run < 2; run++) {
    lay_t *DX = run ? &DX2 : &DX1;
    double *dw = run ? dw2 : dw1, *da = run ? da2 : da1;
    fill_pre(DX, xnb, xext, run);
    for (int i = 0; i < maxe; i++)
      dw[i] = run ? 0.5 + i : 0.0;
    for (size_t b = 0; b < nb; b++)
      da[b] = run ? -0.75 + (double)b : 0.0;
    /* fresh y and cotangents */
    for (size_t b = 0; b < nb; b++)
      for (int i = 0; i < ext[b]; i++) {
        AT(Y1, b, i) = y0[b * (size_t)S + (size_t)i];
        AT(DY1, b, i) = cot[b * (size_t)S + (size_t)i];
      }
    for (size_t b = 0; b < nb; b++)
      ret[b] = -1234.0;
    gargs g = {LX.p, XS, w, Y1.p, S, a, ext, (c->use & U_RET) ? ret : NULL,
               rep == 0 ? NULL : seed, DX->p, XS, dw, DY1.p, S, da};
    c->grad(nb, &g);

    /* Primal outputs: ret and y as the scalar function computes them. */
    for (size_t b = 0; b < nb; b++) {
      double r;
      const double *xb = &AT(LX, shared ? 0 : b, 0);
      if (c->use & U_RET) {
        r = c == &cases[0]   ? gdot(xb, w, ext[b])
            : c == &cases[7] ? gdotw(xb, w, ext[b])
                             : glse(xb, ext[b]);
        if (!(fabs(r - ret[b]) <= 1e-14 * fabs(r)))
          GFAIL("%s: ret %.17g, scalar %.17g (n=%zu b=%zu)", c->name, ret[b],
                r, nb, b);
      }
      if (c->use & U_Y) {
        double yb[MAXN];
        memcpy(yb, &y0[b * (size_t)S], (size_t)ext[b] * sizeof(double));
        c->yfn(yb, xb, a[b], ext[b]);
        for (int i = 0; i < ext[b]; i++)
          if (memcmp(&yb[i], &AT(Y1, b, i), 8) != 0)
            GFAIL("%s: y[%d] = %.17g, scalar %.17g (n=%zu b=%zu)", c->name,
                  i, AT(Y1, b, i), yb[i], nb, b);
      }
    }
    long e;
    if ((e = outside_changed(DX, xnb, xext)) >= 0)
      GFAIL("%s: d_x element %ld (from the mapping) outside every extent "
            "changed (n=%zu rep=%d run=%d)",
            c->name, e, nb, rep, run);
    if ((e = outside_changed(&DY1, nb, ext)) >= 0)
      GFAIL("%s: d_y element %ld outside every extent changed (n=%zu)",
            c->name, e, nb);
    if ((e = outside_changed(&Y1, nb, ext)) >= 0)
      GFAIL("%s: y element %ld outside every extent changed (n=%zu)",
            c->name, e, nb);

    /* d_y on exit: gradient w.r.t. y's initial value. */
    for (size_t b = 0; b < nb; b++)
      for (int i = 0; i < ext[b]; i++) {
        double want = 0.0;
        if (c->use & U_YIN)
          want = dual_d(c, &AT(LX, shared ? 0 : b, 0), w, &y0[b * (size_t)S],
                        a[b], &cot[b * (size_t)S], seed[b], ext[b], 2, i);
        double got = AT(DY1, b, i);
        if (!(c->use & U_Y))
          want = cot[b * (size_t)S + (size_t)i]; /* unused by the function */
        if (!close_to(got, want, GTOL))
          GFAIL("%s: d_y[%d] on exit %.17g, want %.17g (n=%zu b=%zu)",
                c->name, i, got, want, nb, b);
      }
  }

  /* Run 1 against dual numbers; run 2 is exactly S0 + run 1. */
  double *wsum = calloc((size_t)maxe + 1, sizeof(double));
  double *wabs = calloc((size_t)maxe + 1, sizeof(double));
  double *xsum = calloc((size_t)maxe + 1, sizeof(double));
  for (size_t b = 0; b < nb; b++) {
    const double *xb = &AT(LX, shared ? 0 : b, 0);
    const double *yb0 = &y0[b * (size_t)S], *cb = &cot[b * (size_t)S];
    for (int i = 0; i < ext[b]; i++) {
      double dx = dual_d(c, xb, w, yb0, a[b], cb, seed[b], ext[b], 0, i);
      if (shared) {
        xsum[i] += dx;
      } else {
        double got = AT(DX1, b, i);
        if (!close_to(got, dx, GTOL))
          GFAIL("%s: d_x[%d] = %.17g, dual numbers say %.17g (n=%zu b=%zu "
                "rep=%d)",
                c->name, i, got, dx, nb, b, rep);
        double pre = 0.25 * (double)(1 + (b + (size_t)i) % 7) * (i % 2 ? -1 : 1);
        /* Not bit for bit: the gradient of an array element is added
         * once per read (x[i] * x[i] adds twice), so pre + g is rounded
         * more than once (docs/abi.md, "Array parameters"). */
        double w2 = pre + got;
        if (!(fabs(AT(DX2, b, i) - w2) <= GTOL * (fabs(pre) + fabs(got) + 1)))
          GFAIL("%s: d_x[%d] not incremented: %.17g, want %.17g + %.17g "
                "(n=%zu b=%zu)",
                c->name, i, AT(DX2, b, i), pre, got, nb, b);
      }
      if (c->use & U_W) {
        double dw = dual_d(c, xb, w, yb0, a[b], cb, seed[b], ext[b], 1, i);
        wsum[i] += dw;
        wabs[i] += fabs(dw);
      }
      /* Central finite differences at a few points. */
      if ((b + (size_t)i) % 5 == 0) {
        double xp[MAXN], xm[MAXN], h = 1e-5;
        memcpy(xp, xb, (size_t)ext[b] * 8), memcpy(xm, xb, (size_t)ext[b] * 8);
        xp[i] += h, xm[i] -= h;
        double fd = (obj_v(c, xp, w, yb0, a[b], cb, seed[b], ext[b]) -
                     obj_v(c, xm, w, yb0, a[b], cb, seed[b], ext[b])) /
                    (2 * h);
        if (!close_to(fd, dx, 1e-6))
          GFAIL("%s: d_x[%d]: dual %.17g vs finite differences %.17g", c->name,
                i, dx, fd);
      }
    }
    if (c->use & U_A) {
      double want = dual_d(c, xb, w, yb0, a[b], cb, seed[b], ext[b], 3, 0);
      if (!close_to(da1[b], want, GTOL))
        GFAIL("%s: d_a = %.17g, dual numbers say %.17g (n=%zu b=%zu)", c->name,
              da1[b], want, nb, b);
      double w2 = (-0.75 + (double)b) + da1[b];
      if (memcmp(&w2, &da2[b], 8) != 0)
        GFAIL("%s: d_a not incremented: %.17g vs %.17g (n=%zu b=%zu)", c->name,
              da2[b], w2, nb, b);
      double hp = a[b] + 1e-5, hm = a[b] - 1e-5;
      double fd = (obj_v(c, xb, w, yb0, hp, cb, seed[b], ext[b]) -
                   obj_v(c, xb, w, yb0, hm, cb, seed[b], ext[b])) / 2e-5;
      if (!close_to(fd, want, 1e-6))
        GFAIL("%s: d_a: dual %.17g vs finite differences %.17g", c->name,
              want, fd);
    }
  }
  for (int i = 0; i < maxe; i++) {
    if (c->use & U_W) {
      if (!(fabs(dw1[i] - wsum[i]) <= 4 * GTOL * (wabs[i] + 1)))
        GFAIL("%s: d_w[%d] = %.17g, sum over the batch %.17g (n=%zu)",
              c->name, i, dw1[i], wsum[i], nb);
      if (!(fabs(dw2[i] - (0.5 + i + dw1[i])) <= 4 * GTOL * (wabs[i] + 1)))
        GFAIL("%s: d_w[%d] not incremented: %.17g vs %.17g + %.17g",
              c->name, i, dw2[i], 0.5 + i, dw1[i]);
    } else if (dw1[i] != 0.0) {
      GFAIL("%s: d_w written", c->name);
    }
    if (shared) {
      double got = AT(DX1, 0, i);
      if (!(fabs(got - xsum[i]) <= 4 * GTOL * (fabs(xsum[i]) + 1) * (double)(nb + 1)))
        GFAIL("%s: stride-0 d_x[%d] = %.17g, sum over the batch %.17g "
              "(n=%zu)",
              c->name, i, got, xsum[i], nb);
    }
  }

  /* NULL shadows, one at a time: the others equal run 1 bit for bit. */
  for (int drop = 0; drop < 2; drop++) {
    lay_t DX3, DY3, Y3;
    lay_make(&DX3, 8, xnb, XS, xext, 0, LAY_END);
    lay_make(&DY3, 8, nb, S, ext, 0, LAY_END);
    lay_make(&Y3, 8, nb, S, ext, 0, LAY_END);
    fill_pre(&DX3, xnb, xext, 0);
    for (size_t b = 0; b < nb; b++)
      for (int i = 0; i < ext[b]; i++) {
        AT(Y3, b, i) = y0[b * (size_t)S + (size_t)i];
        AT(DY3, b, i) = cot[b * (size_t)S + (size_t)i];
      }
    double *dw3 = gp_alloc(maxe * sizeof(double));
    double *da3 = gp_alloc(nb * sizeof(double));
    memset(dw3, 0, maxe * sizeof(double));
    memset(da3, 0, nb * sizeof(double));
    /* drop 0: d_x NULL (d_w, d_a given); drop 1: d_w and d_a NULL. */
    gargs g = {LX.p, XS, w, Y3.p, S, a, ext, NULL, rep == 0 ? NULL : seed,
               drop == 0 ? NULL : DX3.p, XS, drop == 1 ? NULL : dw3,
               DY3.p, S, drop == 1 ? NULL : da3};
    c->grad(nb, &g);
    for (size_t b = 0; b < xnb; b++)
      for (int i = 0; i < xext[b]; i++)
        if (drop == 1 && memcmp(&AT(DX3, b, i), &AT(DX1, b, i), 8) != 0)
          GFAIL("%s: with d_w/d_a NULL, d_x[%d] = %.17g instead of %.17g "
                "(n=%zu b=%zu)",
                c->name, i, AT(DX3, b, i), AT(DX1, b, i), nb, b);
    if (drop == 0) {
      for (int i = 0; i < maxe; i++)
        if (memcmp(&dw3[i], &dw1[i], 8) != 0)
          GFAIL("%s: with d_x NULL, d_w[%d] = %.17g instead of %.17g (n=%zu)",
                c->name, i, dw3[i], dw1[i], nb);
      for (size_t b = 0; b < nb; b++)
        if ((c->use & U_A) && memcmp(&da3[b], &da1[b], 8) != 0)
          GFAIL("%s: with d_x NULL, d_a = %.17g instead of %.17g (n=%zu "
                "b=%zu)",
                c->name, da3[b], da1[b], nb, b);
    }
    for (size_t b = 0; b < nb; b++)
      for (int i = 0; i < ext[b]; i++)
        if (memcmp(&AT(Y3, b, i), &AT(Y1, b, i), 8) != 0 ||
            memcmp(&AT(DY3, b, i), &AT(DY1, b, i), 8) != 0)
          GFAIL("%s: NULL shadows changed y or d_y (n=%zu b=%zu)", c->name,
                nb, b);
    long e;
    if ((e = outside_changed(&DX3, xnb, xext)) >= 0 ||
        (e = outside_changed(&DY3, nb, ext)) >= 0)
      GFAIL("%s: NULL-shadow run wrote outside the extents (%ld)", c->name,
            e);
    lay_free(&DX3), lay_free(&DY3), lay_free(&Y3);
  }

  free(wsum), free(wabs), free(xsum), free(y0), free(cot);
  lay_free(&LX), lay_free(&LY), lay_free(&DX1), lay_free(&DX2);
  lay_free(&DY1), lay_free(&Y1);
  gp_reset();
}

static void run_case_a(const gcase_a *c) {
  rng_t rng = {name_seed(c->name)};
  gp_reset();
  for (size_t ni = 0; ni < N_ARR_NS; ni++)
    for (int rep = 0; rep < 3; rep++)
      for (int k = 0; k < 2; k++)
        run_one(c, arr_ns[ni], rep, &rng);
}

static void t_gdot(void **s) { (void)s, run_case_a(&cases[0]); }
static void t_glse(void **s) { (void)s, run_case_a(&cases[1]); }
static void t_gout(void **s) { (void)s, run_case_a(&cases[2]); }
static void t_ginout(void **s) { (void)s, run_case_a(&cases[3]); }
static void t_gwloop(void **s) { (void)s, run_case_a(&cases[4]); }
static void t_gwbranch(void **s) { (void)s, run_case_a(&cases[5]); }
static void t_gwplus(void **s) { (void)s, run_case_a(&cases[6]); }
static void t_gdotw(void **s) { (void)s, run_case_a(&cases[7]); }

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_gdot),
      cmocka_unit_test(t_glse),
      cmocka_unit_test(t_gout),
      cmocka_unit_test(t_ginout),
      cmocka_unit_test(t_gwloop),
      cmocka_unit_test(t_gwbranch),
      cmocka_unit_test(t_gwplus),
      cmocka_unit_test(t_gdotw),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
