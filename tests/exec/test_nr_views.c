/* Numerical-Recipes-style indexing (1-based code adapted to 0-based
 * arrays, written for these tests in the shape of such code): offset
 * views `const double *a = x - 1` (also `&x[-1]`, `x + k - 1`) read and
 * written at a[1] .. a[n], whose parameter's extent is inferred through
 * the view or declared, and plain 1-based parameters `ya[1..n]` (extent
 * n + 1). Each function has a 0-based twin doing the same operations:
 *   - NAME_batched bit for bit vs the scalar function and the twin, over
 *     ragged batches (n per example), the last example's extent ending at
 *     a guard page (strided); BD_PACKED and BD_POINTERS with a PROT_NONE
 *     page right after, then right before, every example's extent;
 *   - NAME_grad bit for bit vs the twin's (shadows incremented from a
 *     nonzero start, nothing outside the extent touched), vs central
 *     differences; the 1-based parameter's element 0 untouched;
 *   - poly1's _jvp vs its _grad, _hvp vs differences of _grad; ramp1's
 *     (an output written through `o = out - 1`) _jvp vs the twin's;
 *   - a view assigned once after its declaration, a plain copy `q = x`
 *     indexed, f2c's `--x;` / `x -= 1;` on entry (dec1, sub1), a view
 *     of a BD_UNIFORM table; 1-based helpers called with `x - 1` and
 *     `out - 1` (x's extent inferred through the helper); Horner counting
 *     down from c[n] itself (extent n + 1). */
#include "exec_util.h"

#include "../arrays/ragged_util.h"
#include "../common/test_filter.h"

/* ---- 1-based code on 0-based arrays: offset views `a = x - 1` -------- */

/* Horner from the top through `a = x - 1` (the brief's example): x's
 * extent n is inferred from a[i], i from n down to 1. */
BD_BATCH BD_DIFF BD_JVP BD_HVP double poly1(const double *x, int n, double t) {
  const double *a = x - 1; /* a[1..n] is x[0..n-1] */
  double s = 0.0;
  for (int i = n; i >= 1; i--)
    s = s * t + a[i];
  return s;
}
BATCHDIFF double poly0(const double *x, int n, double t) {
  double s = 0.0;
  for (int i = n - 1; i >= 0; i--)
    s = s * t + x[i];
  return s;
}

/* Ascending powers through `&x[-1]`, counted up to `i <= n`. */
BATCHDIFF double pow1(const double *x, int n, double t) {
  const double *a = &x[-1];
  double s = 0.0, p = 1.0;
  for (int i = 1; i <= n; i++) {
    s += a[i] * p;
    p *= t;
  }
  return s;
}
BATCHDIFF double pow0(const double *x, int n, double t) {
  double s = 0.0, p = 1.0;
  for (int i = 0; i < n; i++) {
    s += x[i] * p;
    p *= t;
  }
  return s;
}

/* A Chebyshev series on [lo, hi] by Clenshaw's recurrence, 1-based
 * coefficients c[1..m] (c[1] halved), m >= 1. */
BATCHDIFF double cheb1(double lo, double hi, const double *coef, int m,
                       double x) {
  const double *c = coef - 1;
  double u = (2.0 * x - lo - hi) / (hi - lo), u2 = 2.0 * u;
  double b1 = 0.0, b2 = 0.0;
  for (int j = m; j >= 2; j--) {
    double b0 = u2 * b1 - b2 + c[j];
    b2 = b1;
    b1 = b0;
  }
  return u * b1 - b2 + 0.5 * c[1];
}
BATCHDIFF double cheb0(double lo, double hi, const double *coef, int m,
                       double x) {
  double u = (2.0 * x - lo - hi) / (hi - lo), u2 = 2.0 * u;
  double b1 = 0.0, b2 = 0.0;
  for (int j = m - 1; j >= 1; j--) {
    double b0 = u2 * b1 - b2 + coef[j];
    b2 = b1;
    b1 = b0;
  }
  return u * b1 - b2 + 0.5 * coef[0];
}

/* A damped running sum written through `o = out - 1`: o[1..n]. */
BD_BATCH BD_DIFF BD_JVP double ramp1(const double *x, double *out, int n,
                                     double r) {
  const double *a = x - 1;
  double *o = out - 1;
  double s = 0.0;
  for (int i = 1; i <= n; i++) {
    s = s * r + a[i];
    o[i] = s * a[i];
  }
  return s;
}
BD_BATCH BD_DIFF BD_JVP double ramp0(const double *x, double *out, int n,
                                     double r) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s = s * r + x[i];
    out[i] = s * x[i];
  }
  return s;
}

/* Neville's tableau, 1-based, on declared extents; the scratch row is a
 * local array seen 1-based too. After round m, p[i] is the polynomial
 * through points i .. i + m. */
enum { NEV_MAX = 12 };
BATCHDIFF double nev1(int n, const double xs[n], const double ys[n], double x) {
  const double *xa = xs - 1, *ya = ys - 1;
  double row[NEV_MAX];
  double *p = row - 1;
  for (int i = 1; i <= n; i++)
    p[i] = ya[i];
  for (int m = 1; m < n; m++)
    for (int i = 1; i <= n - m; i++)
      p[i] = ((x - xa[i + m]) * p[i] + (xa[i] - x) * p[i + 1]) /
             (xa[i] - xa[i + m]);
  return p[1];
}
BATCHDIFF double nev0(int n, const double xs[n], const double ys[n], double x) {
  double p[NEV_MAX];
  for (int i = 0; i < n; i++)
    p[i] = ys[i];
  for (int m = 1; m < n; m++)
    for (int i = 0; i < n - m; i++)
      p[i] = ((x - xs[i + m]) * p[i] + (xs[i] - x) * p[i + 1]) /
             (xs[i] - xs[i + m]);
  return p[0];
}

/* A window x[k .. k + m - 1] seen 1-based: `a = x + k - 1`. */
BATCHDIFF double win1(int n, const double x[n], int k, int m, double t) {
  const double *a = x + k - 1;
  double s = 0.0;
  for (int i = 1; i <= m; i++)
    s = s * t + a[i];
  return s;
}
BATCHDIFF double win0(int n, const double x[n], int k, int m, double t) {
  double s = 0.0;
  for (int i = 0; i < m; i++)
    s = s * t + x[k + i];
  return s;
}

/* A plain 1-based parameter: ya[1..n], extent n + 1 (ya[0] unused). */
BATCHDIFF double nrp1(const double *ya, int n, double t) {
  double s = 0.0;
  for (int i = 1; i <= n; i++)
    s = s * t + ya[i];
  return s;
}

/* nrp1's 0-based twin, called with ya + 1. */
BATCHDIFF double nrp0(const double *x, int n, double t) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s = s * t + x[i];
  return s;
}

/* The view assigned once after its declaration, as older C writes it. */
BATCHDIFF double asg1(const double *x, int n, double t) {
  const double *a;
  double s = 0.0;
  a = x - 1;
  for (int i = 1; i <= n; i++)
    s = s * t + a[i];
  return s;
}

/* f2c's parameter adjustment: the parameter itself stepped back on entry,
 * `--x;` or `x -= 1;` (ExtentAdjust.h), then x[1] .. x[n]. */
BATCHDIFF double dec1(const double *x, int n, double t) {
  double s = 0.0;
  --x;
  for (int i = 1; i <= n; i++)
    s = s * t + x[i];
  return s;
}
BATCHDIFF double sub1(const double *x, int n, double t) {
  double s;
  int i;
  x -= 1;
  s = 0.0;
  for (i = 1; i <= n; ++i)
    s = s * t + x[i];
  return s;
}

/* A plain copy, indexed (a view of offset 0). */
BATCHDIFF double copy0(const double *x, int n, double t) {
  const double *q = x;
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s = s * t + q[i];
  return s;
}

/* A view of a BD_UNIFORM table, per-example lengths. */
BATCHDIFF double unif1(BD_UNIFORM const double *coef, int m, double t) {
  const double *c = coef - 1;
  double s = 0.0;
  for (int j = m; j >= 1; j--)
    s = s * t + c[j];
  return s;
}
BATCHDIFF double unif0(BD_UNIFORM const double *coef, int m, double t) {
  double s = 0.0;
  for (int j = m - 1; j >= 0; j--)
    s = s * t + coef[j];
  return s;
}

/* Horner from c[n] down to c[0], counting from n itself: extent n + 1. */
BATCHDIFF double top0(const double *c, int n, double t) {
  double s = 0.0;
  for (int j = n; j >= 0; j--)
    s = s * t + c[j];
  return s;
}

/* 1-based helpers called from 0-based code with `x - 1`, as a caller of
 * Numerical Recipes' routines does: x's extent is inferred through the
 * helper's loops. */
static double horner1(const double a[], int n, double t) {
  double s = 0.0;
  for (int i = n; i >= 1; i--)
    s = s * t + a[i];
  return s;
}
static void scale1(double o[], const double a[], int n, double c) {
  for (int i = 1; i <= n; i++)
    o[i] = c * a[i] * a[i];
}
BATCHDIFF double callh1(const double *x, int n, double t) {
  return horner1(x - 1, n, t);
}
BATCHDIFF double callo1(const double *x, double *out, int n, double c) {
  scale1(out - 1, x - 1, n, c);
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += out[i] * x[i];
  return s;
}
BATCHDIFF double callo0(const double *x, double *out, int n, double c) {
  for (int i = 0; i < n; i++)
    out[i] = c * x[i] * x[i];
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += out[i] * x[i];
  return s;
}

/* poly1 in the ragged layouts. */
#define POLY1_BODY                                                             \
  const double *a = x - 1;                                                     \
  double s = 0.0;                                                              \
  for (int i = n; i >= 1; i--)                                                 \
    s = s * t + a[i];                                                          \
  return s;
BATCHDIFF double poly1k(BD_PACKED const double *x, int n,
                        double t){POLY1_BODY} BATCHDIFF
    double poly1p(BD_POINTERS const double *x, int n, double t){POLY1_BODY}
/* nrp1 with BD_POINTERS: the callers of 1-based code pass `data - 1`,
 * whose element 0 (before the data) is never touched. */
BATCHDIFF double nrp1p(BD_POINTERS const double *ya, int n, double t) {
  double s = 0.0;
  for (int i = 1; i <= n; i++)
    s = s * t + ya[i];
  return s;
}

/* ---- harness ------------------------------------------------------------ */

enum { ST = 12 }; /* largest n, and the strided arrays' stride */

static int same_d(double a, double b) { return same_bits_or_nan(&a, &b, 8, 1); }

#define CHECK(ok, ...)                                                         \
  do {                                                                         \
    if (!(ok)) {                                                               \
      print_error(__VA_ARGS__);                                                \
      print_error("\n");                                                       \
      fail();                                                                  \
    }                                                                          \
  } while (0)

/* nb examples of `ST` doubles apart whose last one, of len elements, ends
 * at a guard page (so the last example's extent ends there). */
static double *strided(size_t nb, int len) {
  size_t k = nb ? (nb - 1) * ST + (size_t)len : 0;
  return gp_alloc((k ? k : 1) * sizeof(double));
}

/* n examples of len[b] doubles, each starting right after a PROT_NONE page
 * (pk_make puts one right after each example's last element). */
static void pk_make_before(pk_t *p, size_t n, const int *len) {
  size_t P = gp_page() / sizeof(double), pages = 1;
  p->off = malloc((n + 1) * sizeof(size_t));
  p->ptr = malloc((n + 1) * sizeof(double *));
  p->wptr = malloc((n + 1) * sizeof(double *));
  for (size_t b = 0; b < n; b++)
    pages += 1 + ((size_t)len[b] + P - 1) / P + (len[b] == 0);
  gp_pages_map(&p->m, pages, SENT_BYTE);
  p->base = (double *)p->m.map;
  size_t pgi = 0;
  for (size_t b = 0; b < n; b++) {
    gp_pages_guard(&p->m, pgi++);
    p->off[b] = pgi * P;
    pgi += ((size_t)len[b] + P - 1) / P + (len[b] == 0);
  }
  p->off[n] = pgi * P;
  for (size_t b = 0; b < n; b++)
    p->ptr[b] = p->wptr[b] = p->base + p->off[b];
}

/* Central difference of f at a[j] (a modified in place and restored). */
#define CENTRAL(expr, var)                                                     \
  ({                                                                           \
    double v0_ = (var), h_ = 1e-6 * (fabs(v0_) + 1.0);                         \
    (var) = v0_ + h_;                                                          \
    double fp_ = (expr);                                                       \
    (var) = v0_ - h_;                                                          \
    double fm_ = (expr);                                                       \
    (var) = v0_;                                                               \
    (fp_ - fm_) / (2.0 * h_);                                                  \
  })

/* Examples whose gradients are checked against central differences. */
enum { FD_EX = 24 };
#define FD_TOL 1e-6

/* poly1, pow1, nrp1 and cheb1 (offset views of a strided input, the plain
 * 1-based parameter): bits of _batched vs the scalar function and vs the
 * 0-based twin, _grad bit for bit vs the twin's, vs central differences;
 * poly1's _jvp vs its _grad, _hvp vs differences of _grad. */
static void t_views(void **state) {
  (void)state;
  rng_t rng = {name_seed("nr_views")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    int *len = gp_alloc((n ? n : 1) * sizeof(int));
    int *m = gp_alloc((n ? n : 1) * sizeof(int));
    for (size_t b = 0; b < n; b++) {
      len[b] = b + 1 == n ? ST : rng_below(&rng, ST + 1);
      m[b] = 1 + rng_below(&rng, ST);
    }
    if (n)
      m[n - 1] = ST;
    /* x: extent len[b]; ya: the 1-based parameter, extent len[b] + 1 */
    int lastya = n ? len[n - 1] + 1 : 0;
    double *x = strided(n, n ? len[n - 1] : 0), *c = strided(n, ST);
    double *ya = gp_alloc(((n ? (n - 1) * (ST + 1) + lastya : 0) + 1) * 8);
    double *t = gp_alloc((n + 1) * 8), *lo = gp_alloc((n + 1) * 8);
    double *hi = gp_alloc((n + 1) * 8), *u = gp_alloc((n + 1) * 8);
    double *r1 = gp_alloc((n + 1) * 8), *r0 = gp_alloc((n + 1) * 8);
    double *q1 = gp_alloc((n + 1) * 8), *q0 = gp_alloc((n + 1) * 8);
    double *c1 = gp_alloc((n + 1) * 8), *c0 = gp_alloc((n + 1) * 8);
    double *y1 = gp_alloc((n + 1) * 8);
    for (size_t b = 0; b < n; b++) {
      for (int i = 0; i < len[b]; i++)
        x[b * ST + i] = rng_range(&rng, -2, 2);
      for (int i = 0; i <= len[b]; i++)
        ya[b * (ST + 1) + i] = rng_range(&rng, -2, 2);
      for (int i = 0; i < m[b]; i++)
        c[b * ST + i] = rng_range(&rng, -1, 1);
      t[b] = rng_range(&rng, -1.2, 1.2);
      lo[b] = rng_range(&rng, -2, 0);
      hi[b] = rng_range(&rng, 0.5, 2);
      u[b] = rng_range(&rng, lo[b], hi[b]);
    }
    gp_seal(x), gp_seal(c), gp_seal(ya), gp_seal(len), gp_seal(m);
    gp_seal(t), gp_seal(lo), gp_seal(hi), gp_seal(u);
    poly1_batched(n, x, ST, len, t, r1);
    poly0_batched(n, x, ST, len, t, r0);
    pow1_batched(n, x, ST, len, t, q1);
    pow0_batched(n, x, ST, len, t, q0);
    cheb1_batched(n, lo, hi, c, ST, m, u, c1);
    cheb0_batched(n, lo, hi, c, ST, m, u, c0);
    nrp1_batched(n, ya, ST + 1, len, t, y1);
    for (size_t b = 0; b < n; b++) {
      const double *xb = x + b * ST, *yb = ya + b * (ST + 1);
      double w1 = poly1(xb, len[b], t[b]), w2 = pow1(xb, len[b], t[b]);
      double w3 = cheb1(lo[b], hi[b], c + b * ST, m[b], u[b]);
      double w4 = nrp1(yb, len[b], t[b]);
      CHECK(same_d(r1[b], w1) && same_d(r0[b], w1), "poly n=%zu b=%zu", n, b);
      CHECK(same_d(q1[b], w2) && same_d(q0[b], w2), "pow n=%zu b=%zu", n, b);
      CHECK(same_d(c1[b], w3) && same_d(c0[b], w3), "cheb n=%zu b=%zu", n, b);
      CHECK(same_d(y1[b], w4) && same_d(y1[b], nrp0(yb + 1, len[b], t[b])),
            "nrp1 n=%zu b=%zu", n, b);
    }
    /* Gradients: the views' vs the twins', bit for bit, from a nonzero
     * start (+=); against central differences for the first examples. */
    size_t nx = n * ST + 1, ny = n * (ST + 1) + 1;
    double *dx1 = gp_alloc(nx * 8), *dx0 = gp_alloc(nx * 8);
    double *dt1 = gp_alloc((n + 1) * 8), *dt0 = gp_alloc((n + 1) * 8);
    double *dy1 = gp_alloc(ny * 8);
    double *seed = gp_alloc((n + 1) * 8);
    for (size_t b = 0; b < n; b++)
      seed[b] = rng_range(&rng, 0.5, 2);
    for (int f = 0; f < 4; f++) {
      for (size_t k = 0; k < nx; k++)
        dx1[k] = dx0[k] = 0.25;
      for (size_t k = 0; k < ny; k++)
        dy1[k] = 0.25;
      for (size_t b = 0; b < n; b++)
        dt1[b] = dt0[b] = 0.0;
      if (f == 0) {
        poly1_grad(n, x, ST, len, t, NULL, seed, dx1, ST, dt1);
        poly0_grad(n, x, ST, len, t, NULL, seed, dx0, ST, dt0);
      } else if (f == 1) {
        pow1_grad(n, x, ST, len, t, NULL, seed, dx1, ST, dt1);
        pow0_grad(n, x, ST, len, t, NULL, seed, dx0, ST, dt0);
      } else if (f == 2) { /* d/dlo, d/dhi not wanted: d/dc, d/du */
        cheb1_grad(n, lo, hi, c, ST, m, u, NULL, seed, NULL, NULL, dx1, ST,
                   dt1);
        cheb0_grad(n, lo, hi, c, ST, m, u, NULL, seed, NULL, NULL, dx0, ST,
                   dt0);
      } else { /* the plain 1-based parameter: ya[0] untouched */
        nrp1_grad(n, ya, ST + 1, len, t, NULL, seed, dy1, ST + 1, dt1);
      }
      for (size_t b = 0; b < n; b++) {
        int ext = f == 2 ? m[b] : f == 3 ? len[b] + 1 : len[b];
        int w = f == 3 ? ST + 1 : ST;
        double *d1 = f == 3 ? dy1 + b * w : dx1 + b * w, *d0 = dx0 + b * w;
        for (int i = 0; i < w; i++)
          CHECK((f == 3 || same_d(d1[i], d0[i])) &&
                    (i < ext || d1[i] == 0.25) &&
                    (f != 3 || i || d1[i] == 0.25),
                "grad %d: d_x[%d] n=%zu b=%zu: %a vs %a", f, i, n, b, d1[i],
                f == 3 ? 0.0 : d0[i]);
        CHECK(f == 3 || same_d(dt1[b], dt0[b]), "grad %d: d_t n=%zu b=%zu", f,
              n, b);
        if (b >= FD_EX)
          continue;
        /* central differences of seed * f on a copy of the example */
        double xl[ST + 1], tl = f == 2 ? u[b] : t[b], s = seed[b];
        memcpy(xl,
               f == 3   ? ya + b * w
               : f == 2 ? c + b * w
                        : x + b * w,
               (size_t)ext * 8);
#define F_OF(xv, tv)                                                           \
  (f == 0   ? poly1(xv, len[b], tv)                                            \
   : f == 1 ? pow1(xv, len[b], tv)                                             \
   : f == 2 ? cheb1(lo[b], hi[b], xv, m[b], tv)                                \
            : nrp1(xv, len[b], tv))
        for (int i = f == 3; i < ext; i++) {
          double fd = CENTRAL(s * F_OF(xl, tl), xl[i]);
          CHECK(close_to(d1[i] - 0.25, fd, FD_TOL), "grad %d fd: d_x[%d] b=%zu",
                f, i, b);
        }
        double fd = CENTRAL(s * F_OF(xl, tl), tl);
        CHECK(close_to(dt1[b], fd, FD_TOL), "grad %d fd: d_t b=%zu %a %a", f, b,
              dt1[b], fd);
#undef F_OF
      }
    }
    gp_reset();
  }
}

/* poly1's _jvp against its _grad, _hvp's gradient bit for bit _grad's and
 * its H.v against central differences of _grad along v. */
static void t_poly_fwd(void **state) {
  (void)state;
  rng_t rng = {name_seed("nr_poly_fwd")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni], nx = n * ST + 1;
    int *len = gp_alloc((n + 1) * sizeof(int));
    for (size_t b = 0; b < n; b++)
      len[b] = b + 1 == n ? ST : rng_below(&rng, ST + 1);
    double *x = strided(n, n ? len[n - 1] : 0), *t = gp_alloc((n + 1) * 8);
    double *tx = gp_alloc(nx * 8), *tt = gp_alloc((n + 1) * 8);
    double *dx = gp_alloc(nx * 8), *dt = gp_alloc((n + 1) * 8);
    double *dx2 = gp_alloc(nx * 8), *dt2 = gp_alloc((n + 1) * 8);
    double *hx = gp_alloc(nx * 8), *ht = gp_alloc((n + 1) * 8);
    double *xs = gp_alloc(nx * 8), *ts = gp_alloc((n + 1) * 8);
    double *gp = gp_alloc(nx * 8), *gpt = gp_alloc((n + 1) * 8);
    double *gm = gp_alloc(nx * 8), *gmt = gp_alloc((n + 1) * 8);
    double *ret = gp_alloc((n + 1) * 8), *jv = gp_alloc((n + 1) * 8);
    for (size_t b = 0; b < n; b++) {
      for (int i = 0; i < len[b]; i++)
        x[b * ST + i] = rng_range(&rng, -2, 2);
      t[b] = rng_range(&rng, -1.2, 1.2);
      tt[b] = rng_range(&rng, -1, 1);
    }
    for (size_t k = 0; k < nx; k++)
      tx[k] = rng_range(&rng, -1, 1);
    gp_seal(x), gp_seal(t), gp_seal(len);
    poly1_grad(n, x, ST, len, t, NULL, NULL, dx, ST, dt);
    poly1_jvp(n, x, ST, len, t, tx, ST, tt, ret, jv);
    poly1_hvp(n, x, ST, len, t, tx, ST, tt, NULL, NULL, dx2, ST, dt2, hx, ST,
              ht);
    double e = 1e-5;
    for (int sg = -1; sg <= 1; sg += 2) {
      double *g = sg > 0 ? gp : gm, *gt = sg > 0 ? gpt : gmt;
      for (size_t k = 0; k < nx; k++)
        xs[k] = (k < (n ? (n - 1) * ST + (size_t)len[n - 1] : 0) ? x[k] : 0) +
                sg * e * tx[k];
      for (size_t b = 0; b < n; b++)
        ts[b] = t[b] + sg * e * tt[b];
      poly1_grad(n, xs, ST, len, ts, NULL, NULL, g, ST, gt);
    }
    for (size_t b = 0; b < n; b++) {
      CHECK(same_d(ret[b], poly1(x + b * ST, len[b], t[b])), "jvp ret b=%zu",
            b);
      double want = dt[b] * tt[b];
      for (int i = 0; i < len[b]; i++)
        want += dx[b * ST + i] * tx[b * ST + i];
      CHECK(close_to(jv[b], want, 1e-12), "jvp n=%zu b=%zu %a %a", n, b, jv[b],
            want);
      CHECK(same_d(dt2[b], dt[b]), "hvp d_t b=%zu", b);
      CHECK(close_to(ht[b], (gpt[b] - gmt[b]) / (2 * e), 1e-6), "hvp h_t b=%zu",
            b);
      for (int i = 0; i < ST; i++) {
        size_t k = b * ST + i;
        CHECK(same_d(dx2[k], dx[k]), "hvp d_x b=%zu i=%d", b, i);
        CHECK(close_to(hx[k], (gp[k] - gm[k]) / (2 * e), 1e-6),
              "hvp h_x b=%zu i=%d: %a %a", b, i, hx[k],
              (gp[k] - gm[k]) / (2 * e));
      }
    }
    gp_reset();
  }
}

/* ramp1 writes through `o = out - 1`: every byte of the outputs vs the
 * scalar function (elements past the example's n keep their pattern), the
 * 0-based twin's bits; _grad vs the twin's bit for bit (the outputs'
 * cotangents as seeds), vs central differences; _jvp vs the twin's. */
static void t_ramp(void **state) {
  (void)state;
  rng_t rng = {name_seed("nr_ramp")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni], nx = n * ST + 1;
    int *len = gp_alloc((n + 1) * sizeof(int));
    for (size_t b = 0; b < n; b++)
      len[b] = b + 1 == n ? ST : rng_below(&rng, ST + 1);
    int last = n ? len[n - 1] : 0;
    double *x = strided(n, last), *r = gp_alloc((n + 1) * 8);
    double *o1 = strided(n, last), *o0 = strided(n, last);
    double *os = gp_alloc(nx * 8), *ret1 = gp_alloc((n + 1) * 8);
    double *ret0 = gp_alloc((n + 1) * 8);
    double *dx1 = gp_alloc(nx * 8), *dx0 = gp_alloc(nx * 8);
    double *do1 = strided(n, last), *do0 = strided(n, last);
    double *dr1 = gp_alloc((n + 1) * 8), *dr0 = gp_alloc((n + 1) * 8);
    double *tx = gp_alloc(nx * 8), *tr = gp_alloc((n + 1) * 8);
    double *to1 = strided(n, last), *to0 = strided(n, last);
    double *jv1 = gp_alloc((n + 1) * 8), *jv0 = gp_alloc((n + 1) * 8);
    size_t used = n ? (n - 1) * ST + (size_t)last : 0;
    for (size_t b = 0; b < n; b++) {
      for (int i = 0; i < len[b]; i++)
        x[b * ST + i] = rng_range(&rng, -2, 2);
      r[b] = rng_range(&rng, -0.9, 0.9);
      tr[b] = rng_range(&rng, -1, 1);
    }
    for (size_t k = 0; k < used; k++) {
      o1[k] = o0[k] = os[k] = -7.5;
      do1[k] = do0[k] = rng_range(&rng, -1, 1);
      tx[k] = rng_range(&rng, -1, 1);
      to1[k] = to0[k] = 0.0;
      dx1[k] = dx0[k] = 0.0;
    }
    gp_seal(x), gp_seal(r), gp_seal(len);
    ramp1_batched(n, x, ST, o1, ST, len, r, ret1);
    ramp0_batched(n, x, ST, o0, ST, len, r, ret0);
    for (size_t b = 0; b < n; b++) {
      double w = ramp1(x + b * ST, os + b * ST, len[b], r[b]);
      CHECK(same_d(ret1[b], w) && same_d(ret0[b], w), "ramp n=%zu b=%zu", n, b);
    }
    CHECK(memcmp(o1, os, used * 8) == 0 && memcmp(o0, os, used * 8) == 0,
          "ramp outputs n=%zu", n);
    for (size_t b = 0; b < n; b++)
      dr1[b] = dr0[b] = 0.0;
    ramp1_grad(n, x, ST, o1, ST, len, r, NULL, NULL, dx1, ST, do1, ST, dr1);
    ramp0_grad(n, x, ST, o0, ST, len, r, NULL, NULL, dx0, ST, do0, ST, dr0);
    CHECK(memcmp(dx1, dx0, used * 8) == 0 && memcmp(do1, do0, used * 8) == 0 &&
              memcmp(dr1, dr0, n * 8) == 0,
          "ramp grad vs twin n=%zu", n);
    ramp1_jvp(n, x, ST, o1, ST, len, r, tx, ST, to1, ST, tr, NULL, jv1);
    ramp0_jvp(n, x, ST, o0, ST, len, r, tx, ST, to0, ST, tr, NULL, jv0);
    CHECK(memcmp(jv1, jv0, n * 8) == 0 && memcmp(to1, to0, used * 8) == 0,
          "ramp jvp vs twin n=%zu", n);
    /* Central differences of ret + sum w_i out_i, w the cotangents the
     * gradient started from (do0 after the call: rebuilt from rng). */
    rng_t again = {name_seed("nr_ramp_w")};
    for (size_t b = 0; b < n && b < FD_EX; b++) {
      double xl[ST], ol[ST], wl[ST], rl = r[b];
      int nb = len[b];
      memcpy(xl, x + b * ST, (size_t)nb * 8);
      for (int i = 0; i < nb; i++)
        wl[i] = rng_range(&again, -1, 1);
      double dxb[ST] = {0}, dob[ST], drb = 0;
      memcpy(dob, wl, sizeof wl);
      size_t one = 1;
      int nbv = nb;
      ramp1_grad(one, xl, ST, ol, ST, &nbv, &rl, NULL, NULL, dxb, ST, dob, ST,
                 &drb);
#define L_OF()                                                                 \
  ({                                                                           \
    double l_ = ramp1(xl, ol, nb, rl);                                         \
    for (int i_ = 0; i_ < nb; i_++)                                            \
      l_ += wl[i_] * ol[i_];                                                   \
    l_;                                                                        \
  })
      for (int i = 0; i < nb; i++) {
        double fd = CENTRAL(L_OF(), xl[i]);
        CHECK(close_to(dxb[i], fd, FD_TOL), "ramp fd d_x[%d] b=%zu", i, b);
      }
      double fd = CENTRAL(L_OF(), rl);
      CHECK(close_to(drb, fd, FD_TOL), "ramp fd d_r b=%zu", b);
#undef L_OF
    }
    gp_reset();
  }
}

/* nev1 and win1: views of parameters with declared extents (and of a local
 * array), ragged: bits vs the scalar function and the 0-based twin, _grad
 * bit for bit vs the twin's, and vs central differences. */
static void t_declared(void **state) {
  (void)state;
  rng_t rng = {name_seed("nr_declared")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni], nx = n * ST + 1;
    int *len = gp_alloc((n + 1) * sizeof(int)), *nn = gp_alloc((n + 1) * 4);
    int *k = gp_alloc((n + 1) * sizeof(int)), *m = gp_alloc((n + 1) * 4);
    for (size_t b = 0; b < n; b++) {
      len[b] = b + 1 == n ? NEV_MAX : 1 + rng_below(&rng, NEV_MAX);
      nn[b] = b + 1 == n ? ST : rng_below(&rng, ST + 1);
      k[b] = rng_below(&rng, nn[b] + 1);
      m[b] = b + 1 == n ? nn[b] - k[b] : rng_below(&rng, nn[b] - k[b] + 1);
    }
    double *xs = strided(n, n ? len[n - 1] : 0);
    double *ys = strided(n, n ? len[n - 1] : 0);
    double *w = strided(n, n ? nn[n - 1] : 0);
    double *x = gp_alloc((n + 1) * 8), *t = gp_alloc((n + 1) * 8);
    double *r1 = gp_alloc((n + 1) * 8), *r0 = gp_alloc((n + 1) * 8);
    double *s1 = gp_alloc((n + 1) * 8), *s0 = gp_alloc((n + 1) * 8);
    for (size_t b = 0; b < n; b++) {
      for (int i = 0; i < len[b]; i++) {
        xs[b * ST + i] = i + rng_range(&rng, 0, 0.6);
        ys[b * ST + i] = rng_range(&rng, -2, 2);
      }
      for (int i = 0; i < nn[b]; i++)
        w[b * ST + i] = rng_range(&rng, -2, 2);
      x[b] = rng_range(&rng, 0, len[b] - 1);
      t[b] = rng_range(&rng, -1.2, 1.2);
    }
    gp_seal(xs), gp_seal(ys), gp_seal(w), gp_seal(x), gp_seal(t);
    gp_seal(len), gp_seal(nn), gp_seal(k), gp_seal(m);
    nev1_batched(n, len, xs, ST, ys, ST, x, r1);
    nev0_batched(n, len, xs, ST, ys, ST, x, r0);
    win1_batched(n, nn, w, ST, k, m, t, s1);
    win0_batched(n, nn, w, ST, k, m, t, s0);
    for (size_t b = 0; b < n; b++) {
      double v1 = nev1(len[b], xs + b * ST, ys + b * ST, x[b]);
      double v2 = win1(nn[b], w + b * ST, k[b], m[b], t[b]);
      CHECK(same_d(r1[b], v1) && same_d(r0[b], v1), "nev n=%zu b=%zu", n, b);
      CHECK(same_d(s1[b], v2) && same_d(s0[b], v2), "win n=%zu b=%zu", n, b);
    }
    double *a1 = gp_alloc(nx * 8), *a0 = gp_alloc(nx * 8);
    double *b1 = gp_alloc(nx * 8), *b0 = gp_alloc(nx * 8);
    double *c1 = gp_alloc((n + 1) * 8), *c0 = gp_alloc((n + 1) * 8);
    nev1_grad(n, len, xs, ST, ys, ST, x, NULL, NULL, a1, ST, b1, ST, c1);
    nev0_grad(n, len, xs, ST, ys, ST, x, NULL, NULL, a0, ST, b0, ST, c0);
    CHECK(memcmp(a1, a0, nx * 8) == 0 && memcmp(b1, b0, nx * 8) == 0 &&
              memcmp(c1, c0, n * 8) == 0,
          "nev grad vs twin n=%zu", n);
    for (size_t b = 0; b < n && b < FD_EX; b++) {
      double xl[NEV_MAX], yl[NEV_MAX], xv = x[b];
      int nb = len[b];
      memcpy(xl, xs + b * ST, (size_t)nb * 8);
      memcpy(yl, ys + b * ST, (size_t)nb * 8);
      for (int i = 0; i < nb; i++) {
        double f1 = CENTRAL(nev1(nb, xl, yl, xv), xl[i]);
        double f2 = CENTRAL(nev1(nb, xl, yl, xv), yl[i]);
        CHECK(close_to(a1[b * ST + i], f1, 1e-5) &&
                  close_to(b1[b * ST + i], f2, 1e-5),
              "nev fd i=%d b=%zu: %a %a, %a %a", i, b, a1[b * ST + i], f1,
              b1[b * ST + i], f2);
      }
      double f3 = CENTRAL(nev1(nb, xl, yl, xv), xv);
      CHECK(close_to(c1[b], f3, 1e-5), "nev fd x b=%zu", b);
    }
    memset(a1, 0, nx * 8), memset(a0, 0, nx * 8);
    memset(c1, 0, n * 8), memset(c0, 0, n * 8);
    win1_grad(n, nn, w, ST, k, m, t, NULL, NULL, a1, ST, c1);
    win0_grad(n, nn, w, ST, k, m, t, NULL, NULL, a0, ST, c0);
    CHECK(memcmp(a1, a0, nx * 8) == 0 && memcmp(c1, c0, n * 8) == 0,
          "win grad vs twin n=%zu", n);
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < ST; i++) {
        /* d/dw[i] = t^(k + m - 1 - i) inside the window, 0 outside */
        double p = 1.0;
        for (int j = i; j < k[b] + m[b] - 1; j++)
          p *= t[b];
        double want = i >= k[b] && i < k[b] + m[b] ? p : 0.0;
        CHECK(close_to(a1[b * ST + i], want, 1e-12), "win d_w[%d] b=%zu", i, b);
      }
    gp_reset();
  }
}

/* poly1 with BD_PACKED and BD_POINTERS arrays: a PROT_NONE page right
 * after every example's last element, then right before every example's
 * first one; bits vs the scalar function, shadows vs poly0's. */
static const size_t lay_ns[] = {0, 1, 3, 4, 5, 8, 9, 17, 100, 1000};
static void t_layouts(void **state) {
  (void)state;
  rng_t rng = {name_seed("nr_layouts")};
  for (size_t ni = 0; ni < sizeof lay_ns / sizeof lay_ns[0]; ni++)
    for (int before = 0; before < 2; before++) {
      size_t n = lay_ns[ni];
      int *len = malloc((n + 1) * sizeof(int));
      double *t = malloc((n + 1) * 8), *rk = malloc((n + 1) * 8);
      double *rp = malloc((n + 1) * 8), *dtk = calloc(n + 1, 8);
      double *dtp = calloc(n + 1, 8);
      for (size_t b = 0; b < n; b++) {
        len[b] = rng_below(&rng, ST + 1);
        t[b] = rng_range(&rng, -1.2, 1.2);
      }
      pk_t x, dk, dp;
      if (before) {
        pk_make_before(&x, n, len), pk_make_before(&dk, n, len);
        pk_make_before(&dp, n, len);
      } else {
        pk_make(&x, n, len, 1), pk_make(&dk, n, len, 1);
        pk_make(&dp, n, len, 1);
      }
      for (size_t b = 0; b < n; b++)
        for (int i = 0; i < len[b]; i++) {
          AT(&x, b, i) = rng_range(&rng, -2, 2);
          AT(&dk, b, i) = AT(&dp, b, i) = 0.0;
        }
      gp_pages_seal(&x.m);
      poly1k_batched(n, x.base, x.off, len, t, rk);
      poly1p_batched(n, x.ptr, len, t, rp);
      poly1k_grad(n, x.base, x.off, len, t, NULL, NULL, dk.base, dtk);
      poly1p_grad(n, x.ptr, len, t, NULL, NULL, dp.wptr, dtp);
      /* NR's calling convention: `data - 1` (before: in the guard page) */
      const double **xm1 = malloc((n + 1) * sizeof(double *));
      double **dm1 = malloc((n + 1) * sizeof(double *));
      double *ry = malloc((n + 1) * 8), *dty = calloc(n + 1, 8);
      pk_t dy;
      if (before)
        pk_make_before(&dy, n, len);
      else
        pk_make(&dy, n, len, 1);
      for (size_t b = 0; b < n; b++) {
        xm1[b] = x.ptr[b] - 1;
        dm1[b] = dy.wptr[b] - 1;
        for (int i = 0; i < len[b]; i++)
          AT(&dy, b, i) = 0.0;
      }
      nrp1p_batched(n, xm1, len, t, ry);
      nrp1p_grad(n, xm1, len, t, NULL, NULL, dm1, dty);
      for (size_t b = 0; b < n; b++) {
        double want = poly1(x.ptr[b], len[b], t[b]);
        CHECK(same_d(rk[b], want) && same_d(rp[b], want),
              "layouts n=%zu b=%zu before=%d", n, b, before);
        double dx[ST] = {0}, dt = 0.0, one = 1.0;
        int lb = len[b];
        double tb = t[b];
        poly0_grad(1, x.ptr[b], ST, &lb, &tb, NULL, &one, dx, ST, &dt);
        for (int i = 0; i < len[b]; i++)
          CHECK(same_d(AT(&dk, b, i), dx[i]) && same_d(AT(&dp, b, i), dx[i]),
                "layouts d_x[%d] n=%zu b=%zu", i, n, b);
        CHECK(same_d(dtk[b], dt) && same_d(dtp[b], dt), "layouts d_t b=%zu", b);
        double dy0[ST] = {0}, dty0 = 0.0;
        CHECK(same_d(ry[b], nrp0(x.ptr[b], lb, tb)), "nrp1p n=%zu b=%zu", n, b);
        nrp0_grad(1, x.ptr[b], ST, &lb, &tb, NULL, &one, dy0, ST, &dty0);
        for (int i = 0; i < len[b]; i++)
          CHECK(same_d(AT(&dy, b, i), dy0[i]), "nrp1p d_ya[%d] b=%zu", i + 1,
                b);
        CHECK(same_d(dty[b], dty0), "nrp1p d_t b=%zu", b);
      }
      pk_check_gaps(&dk, n, len, "poly1k d_x");
      pk_check_gaps(&dp, n, len, "poly1p d_x");
      pk_check_gaps(&dy, n, len, "nrp1p d_ya");
      pk_free(&x), pk_free(&dk), pk_free(&dp), pk_free(&dy);
      free(xm1), free(dm1), free(ry), free(dty);
      free(len), free(t), free(rk), free(rp), free(dtk), free(dtp);
    }
}

/* asg1 and copy0 vs nrp0, unif1 vs unif0: bits, and gradients bit for
 * bit (the uniform table's shadow summed over the batch in the same
 * order). */
static void t_forms(void **state) {
  (void)state;
  rng_t rng = {name_seed("nr_forms")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni], nx = n * ST + 1;
    int *len = gp_alloc((n + 1) * sizeof(int));
    for (size_t b = 0; b < n; b++)
      len[b] = b + 1 == n ? ST : rng_below(&rng, ST + 1);
    double *x = strided(n, n ? len[n - 1] : 0), *t = gp_alloc((n + 1) * 8);
    double *c = gp_alloc(ST * 8), *r[4], *dx[3], *dt[4], dc[2][ST];
    for (int k = 0; k < 4; k++) {
      r[k] = gp_alloc((n + 1) * 8);
      dt[k] = gp_alloc((n + 1) * 8);
      if (k < 3)
        dx[k] = gp_alloc(nx * 8);
    }
    for (size_t b = 0; b < n; b++) {
      for (int i = 0; i < len[b]; i++)
        x[b * ST + i] = rng_range(&rng, -2, 2);
      t[b] = rng_range(&rng, -1.2, 1.2);
    }
    for (int i = 0; i < ST; i++)
      c[i] = rng_range(&rng, -1, 1);
    gp_seal(x), gp_seal(t), gp_seal(len), gp_seal(c);
    asg1_batched(n, x, ST, len, t, r[0]);
    copy0_batched(n, x, ST, len, t, r[1]);
    unif1_batched(n, c, len, t, r[2]);
    unif0_batched(n, c, len, t, r[3]);
    for (size_t b = 0; b < n; b++) {
      double w = nrp0(x + b * ST, len[b], t[b]);
      double u = unif0(c, len[b], t[b]);
      CHECK(same_d(r[0][b], w) && same_d(r[1][b], w) &&
                same_d(r[0][b], asg1(x + b * ST, len[b], t[b])) &&
                same_d(r[1][b], copy0(x + b * ST, len[b], t[b])),
            "asg1/copy0 n=%zu b=%zu", n, b);
      CHECK(same_d(r[2][b], u) && same_d(r[3][b], u) &&
                same_d(u, unif1(c, len[b], t[b])),
            "unif n=%zu b=%zu", n, b);
    }
    asg1_grad(n, x, ST, len, t, NULL, NULL, dx[0], ST, dt[0]);
    copy0_grad(n, x, ST, len, t, NULL, NULL, dx[1], ST, dt[1]);
    nrp0_grad(n, x, ST, len, t, NULL, NULL, dx[2], ST, dt[2]);
    CHECK(memcmp(dx[0], dx[2], nx * 8) == 0 &&
              memcmp(dx[1], dx[2], nx * 8) == 0 &&
              memcmp(dt[0], dt[2], n * 8) == 0 &&
              memcmp(dt[1], dt[2], n * 8) == 0,
          "asg1/copy0 grad n=%zu", n);
    /* f2c's `--x;` and `x -= 1;` on entry: nrp0's bits */
    {
      double *rf[2], *dxf[2], *dtf[2];
      for (int k = 0; k < 2; k++) {
        rf[k] = gp_alloc((n + 1) * 8);
        dxf[k] = gp_alloc(nx * 8);
        dtf[k] = gp_alloc((n + 1) * 8);
      }
      dec1_batched(n, x, ST, len, t, rf[0]);
      sub1_batched(n, x, ST, len, t, rf[1]);
      for (size_t b = 0; b < n; b++)
        CHECK(same_d(rf[0][b], r[0][b]) && same_d(rf[1][b], r[0][b]) &&
                  same_d(rf[0][b], dec1(x + b * ST, len[b], t[b])) &&
                  same_d(rf[1][b], sub1(x + b * ST, len[b], t[b])),
              "dec1/sub1 n=%zu b=%zu", n, b);
      dec1_grad(n, x, ST, len, t, NULL, NULL, dxf[0], ST, dtf[0]);
      sub1_grad(n, x, ST, len, t, NULL, NULL, dxf[1], ST, dtf[1]);
      CHECK(memcmp(dxf[0], dx[2], nx * 8) == 0 &&
                memcmp(dxf[1], dx[2], nx * 8) == 0 &&
                memcmp(dtf[0], dt[2], n * 8) == 0 &&
                memcmp(dtf[1], dt[2], n * 8) == 0,
            "dec1/sub1 grad n=%zu", n);
    }
    /* top0 reads c[0] .. c[n]: the examples whose len is below ST */
    {
      int *lm = gp_alloc((n + 1) * sizeof(int));
      for (size_t b = 0; b < n; b++)
        lm[b] = len[b] < ST ? len[b] : ST - 1;
      gp_seal(lm);
      memset(dx[0], 0, nx * 8), memset(dx[2], 0, nx * 8);
      memset(dt[0], 0, (n + 1) * 8), memset(dt[2], 0, (n + 1) * 8);
      int *l1 = gp_alloc((n + 1) * sizeof(int));
      for (size_t b = 0; b < n; b++)
        l1[b] = lm[b] + 1;
      top0_batched(n, x, ST, lm, t, r[0]);
      poly0_batched(n, x, ST, l1, t, r[2]);
      top0_grad(n, x, ST, lm, t, NULL, NULL, dx[0], ST, dt[0]);
      poly0_grad(n, x, ST, l1, t, NULL, NULL, dx[2], ST, dt[2]);
      for (size_t b = 0; b < n; b++)
        CHECK(same_d(r[0][b], r[2][b]) &&
                  same_d(r[0][b], top0(x + b * ST, lm[b], t[b])),
              "top0 n=%zu b=%zu", n, b);
      CHECK(memcmp(dx[0], dx[2], nx * 8) == 0 &&
                memcmp(dt[0], dt[2], n * 8) == 0,
            "top0 grad n=%zu", n);
    }
    /* 1-based helpers called with `x - 1` */
    double *o1 = strided(n, n ? len[n - 1] : 0);
    double *o0 = strided(n, n ? len[n - 1] : 0);
    double *os = gp_alloc(nx * 8), *dxo[2], *doo[2], *dco[2];
    double *cc = gp_alloc((n + 1) * 8);
    size_t used = n ? (n - 1) * ST + (size_t)len[n - 1] : 0;
    for (int k = 0; k < 2; k++) {
      dxo[k] = gp_alloc(nx * 8);
      doo[k] = gp_alloc(nx * 8);
      dco[k] = gp_alloc((n + 1) * 8);
    }
    for (size_t b = 0; b < n; b++)
      cc[b] = rng_range(&rng, -2, 2);
    for (size_t k = 0; k < used; k++)
      o1[k] = o0[k] = os[k] = -3.25;
    callh1_batched(n, x, ST, len, t, r[0]);
    callo1_batched(n, x, ST, o1, ST, len, cc, r[1]);
    callo0_batched(n, x, ST, o0, ST, len, cc, r[2]);
    for (size_t b = 0; b < n; b++) {
      double w = poly0(x + b * ST, len[b], t[b]);
      double v = callo1(x + b * ST, os + b * ST, len[b], cc[b]);
      CHECK(same_d(r[0][b], w) &&
                same_d(r[0][b], callh1(x + b * ST, len[b], t[b])),
            "callh1 n=%zu b=%zu", n, b);
      CHECK(same_d(r[1][b], v) && same_d(r[2][b], v), "callo1 n=%zu b=%zu", n,
            b);
    }
    CHECK(memcmp(o1, os, used * 8) == 0 && memcmp(o0, os, used * 8) == 0,
          "callo1 outputs n=%zu", n);
    memset(dx[0], 0, nx * 8), memset(dx[2], 0, nx * 8);
    memset(dt[0], 0, (n + 1) * 8), memset(dt[2], 0, (n + 1) * 8);
    callh1_grad(n, x, ST, len, t, NULL, NULL, dx[0], ST, dt[0]);
    poly0_grad(n, x, ST, len, t, NULL, NULL, dx[2], ST, dt[2]);
    CHECK(memcmp(dx[0], dx[2], nx * 8) == 0 && memcmp(dt[0], dt[2], n * 8) == 0,
          "callh1 grad n=%zu", n);
    for (size_t k = 0; k < used; k++)
      doo[0][k] = doo[1][k] = 0.5;
    callo1_grad(n, x, ST, o1, ST, len, cc, NULL, NULL, dxo[0], ST, doo[0], ST,
                dco[0]);
    callo0_grad(n, x, ST, o0, ST, len, cc, NULL, NULL, dxo[1], ST, doo[1], ST,
                dco[1]);
    CHECK(memcmp(dxo[0], dxo[1], nx * 8) == 0 &&
              memcmp(doo[0], doo[1], nx * 8) == 0 &&
              memcmp(dco[0], dco[1], n * 8) == 0,
          "callo1 grad n=%zu", n);
    memset(dc, 0, sizeof dc);
    memset(dt[0], 0, (n + 1) * 8), memset(dt[3], 0, (n + 1) * 8);
    unif1_grad(n, c, len, t, NULL, NULL, dc[0], dt[0]);
    unif0_grad(n, c, len, t, NULL, NULL, dc[1], dt[3]);
    CHECK(memcmp(dc[0], dc[1], sizeof dc[0]) == 0 &&
              memcmp(dt[0], dt[3], n * 8) == 0,
          "unif grad n=%zu", n);
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_views),   cmocka_unit_test(t_poly_fwd),
      cmocka_unit_test(t_ramp),    cmocka_unit_test(t_declared),
      cmocka_unit_test(t_layouts), cmocka_unit_test(t_forms),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_nr_views", tests, NULL, NULL);
}
