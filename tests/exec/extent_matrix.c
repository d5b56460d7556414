/* Column-major matrices with a leading dimension and their triangles, as
 * MINPACK (cminpack's covar, qrsolv, chkder, lmpar) and LAPACK-style C
 * index them (plugin/lower/ExtentMatrix.h; docs/found-minpack.md): `a[i +
 * j * lda]` under `i < m` and `j < n` ((n - 1) * lda + m elements), the
 * diagonal `r[k + k * ldr]`, the upper triangle `for (i = 0; i <= j; i++)`
 * inside `for (j = 0; j < n; j++)` (and `i < j`), the transpose `r[j + i *
 * ldr]`, back substitution counting j down, columns scaled in place.
 * Per example its own m, n and lda >= m (0 .. 3W + 1 columns, rows and
 * gaps of 0 .. 3 elements between columns); each example's matrix ends
 * where its last element is, the strided batch laid out so that the last
 * example's last element is right before a guard page (one call per
 * example as the last):
 *   - NAME_batched bit for bit the scalar function (results and arrays
 *     written in place, the gaps between columns included);
 *   - NAME_grad's result bit for bit; every element's partial (the gaps',
 *     0) against central differences of the scalar function.
 * Before ExtentMatrix.h the plugin refused all six ("cannot infer the
 * extent of 'a'"; `w[i]` under `i <= j` too). Run from
 * test_extent_loops.c's main (exec_extent_loops). */
#include "exec_util.h"

/* ---- the functions ------------------------------------------------------- */

BATCHDIFF double mx_colsum(int m, int n, const double *a, int lda) {
  double s = 0;
  for (int j = 0; j < n; j++) {
    double c = 0;
    for (int i = 0; i < m; i++) {
      double t = a[i + j * lda];
      c += t < 0 ? -0.5 * t : t * t;
    }
    s = s * 0.75 + (j + 1) * c;
  }
  return s;
}

/* The diagonal, terms in the other order. */
BATCHDIFF double mx_diag(int n, const double *r, int ldr) {
  double s = 1;
  for (int k = 0; k < n; k++)
    s = s * 0.5 + r[ldr * k + k] * r[k + k * ldr];
  return s;
}

/* The upper triangle with its weights w[i] (i <= j < n: w has n). */
BATCHDIFF double mx_upper(int n, const double *r, int ldr, const double *w) {
  double s = 0;
  int i, j;
  for (j = 0; j < n; ++j)
    for (i = 0; i <= j; ++i)
      s += w[i] * r[i + j * ldr] * (r[j + j * ldr] > 0 ? 1.0 : -2.0);
  return s;
}

/* The strict triangle against its transpose. */
BATCHDIFF double mx_strict(int n, const double *r, int ldr) {
  double s = 0;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < j; i++)
      s += r[i + j * ldr] * r[j + i * ldr] - r[i + j * ldr];
  return s;
}

/* Back substitution with the transpose of the upper triangle, in place. */
BATCHDIFF void mx_backsub(int n, const double *r, int ldr, double *x) {
  for (int j = n - 1; j >= 0; j--) {
    double s = x[j];
    for (int i = j + 1; i < n; i++)
      s -= r[j + i * ldr] * x[i];
    x[j] = r[j + j * ldr] != 0 ? s / r[j + j * ldr] : s;
  }
}

/* Columns scaled in place, qform's `for (i = k; i < m; i++)` shape. */
BATCHDIFF void mx_scale(int m, int n, double *a, int lda, const double *c) {
  for (int j = 0; j < n; j++)
    for (int i = j; i < m; i++)
      a[i + j * lda] = c[j] * a[i + j * lda] + a[i + j * lda] * a[i + j * lda];
}

/* ---- the batch ----------------------------------------------------------- */

#define MX_MAXB 40
typedef struct {
  size_t nb;
  int m[MX_MAXB], n[MX_MAXB], ld[MX_MAXB];
  int ea[MX_MAXB]; /* elements of the matrix: (n - 1) * ld + m, or 0 */
  int ev[MX_MAXB]; /* elements of the vector */
  int sa, sv;      /* strides: the largest extents */
} mx_batch;

static void mx_make(mx_batch *B, rng_t *r, size_t nb, int square, int vec) {
  B->nb = nb;
  B->sa = B->sv = 1;
  for (size_t b = 0; b < nb; b++) {
    int n = (int)rng_below(r, 3 * WD + 2), m = square ? n : rng_below(r, 9);
    B->n[b] = n;
    B->m[b] = m;
    B->ld[b] = m + rng_below(r, 4);
    B->ea[b] = n > 0 && m > 0 ? (n - 1) * B->ld[b] + m : 0;
    B->ev[b] = vec == 1 ? n : 0;
    if (B->ea[b] > B->sa)
      B->sa = B->ea[b];
    if (B->ev[b] > B->sv)
      B->sv = B->ev[b];
  }
}

/* Examples 0 .. last of stride st, extents ext: memory ending right after
 * the last one's last element, at a guard page; the rest NaN. */
static double *mx_alloc(const mx_batch *B, size_t last, int st, const int *ext,
                        rng_t *r, int fill) {
  size_t elems = last * (size_t)st + (size_t)ext[last];
  double *p = gp_alloc((elems ? elems : 1) * sizeof(double));
  for (size_t k = 0; k < elems; k++)
    p[k] = NAN;
  for (size_t b = 0; b <= last; b++)
    for (int k = 0; k < ext[b]; k++) /* gaps between columns: NaN */
      p[b * st + k] = !fill ? 0.0
                      : ext == B->ea && k % B->ld[b] >= B->m[b]
                          ? NAN
                          : rng_range(r, -2.0, 2.0);
  return p;
}

static int mx_same(double a, double b) {
  return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}

typedef double (*mx_scalar)(const mx_batch *B, size_t b, const double *a,
                            const double *v);

/* A function returning a double, its inputs a matrix and maybe a vector:
 * values and the partials of every element. */
static void mx_check_ret(
    const char *name, rng_t *r, int square, int vec, mx_scalar S,
    void (*Bt)(const mx_batch *, const double *, const double *, double *),
    void (*G)(const mx_batch *, const double *, const double *, double *,
              double *, double *)) {
  for (size_t nb = 1; nb <= MX_MAXB; nb += (nb < 3 * WD ? 1 : 11)) {
    mx_batch B;
    mx_make(&B, r, nb, square, vec);
    size_t last = nb - 1; /* the last example at the guard */
    double *a = mx_alloc(&B, last, B.sa, B.ea, r, 1);
    double *v = vec ? mx_alloc(&B, last, B.sv, B.ev, r, 1) : NULL;
    double *ret = gp_alloc(nb * sizeof(double));
    double *gret = gp_alloc(nb * sizeof(double));
    double *da = mx_alloc(&B, last, B.sa, B.ea, r, 0);
    double *dv = vec ? mx_alloc(&B, last, B.sv, B.ev, r, 0) : NULL;
    Bt(&B, a, v, ret);
    G(&B, a, v, gret, da, dv);
    for (size_t b = 0; b < nb; b++) {
      double want = S(&B, b, a + b * B.sa, v ? v + b * B.sv : NULL);
      if (!mx_same(ret[b], want) || !mx_same(gret[b], want)) {
        print_error("%s: example %zu of %zu (m %d n %d ld %d): %a / %a, "
                    "scalar %a\n",
                    name, b, nb, B.m[b], B.n[b], B.ld[b], ret[b], gret[b],
                    want);
        fail();
      }
      /* Partials: every element of the example's extents (gaps: 0). */
      for (int which = 0; which < (vec ? 2 : 1); which++) {
        double *x = which ? v + b * B.sv : a + b * B.sa;
        double *dx = which ? dv + b * B.sv : da + b * B.sa;
        int ext = which ? B.ev[b] : B.ea[b];
        for (int k = 0; k < ext; k++) {
          double x0 = x[k], h = 1e-5 * (fabs(x0) > 1 ? fabs(x0) : 1);
          if (isnan(x0)) { /* a gap: not read, no partial */
            if (dx[k] != 0) {
              print_error("%s: example %zu: partial %g of gap %d\n", name, b,
                          dx[k], k);
              fail();
            }
            continue;
          }
          x[k] = x0 + h;
          double fp = S(&B, b, a + b * B.sa, v ? v + b * B.sv : NULL);
          x[k] = x0 - h;
          double fm = S(&B, b, a + b * B.sa, v ? v + b * B.sv : NULL);
          x[k] = x0;
          double fd = (fp - fm) / (2 * h);
          if (fabs(dx[k] - fd) > 1e-6 * (1 + fabs(fd))) {
            print_error("%s: example %zu (m %d n %d ld %d): d[%d] %s %.17g, "
                        "differences %.17g\n",
                        name, b, B.m[b], B.n[b], B.ld[b], k, which ? "v" : "a",
                        dx[k], fd);
            fail();
          }
        }
      }
    }
    gp_reset();
  }
}

/* ---- per function -------------------------------------------------------- */

static double s_colsum(const mx_batch *B, size_t b, const double *a,
                       const double *v) {
  (void)v;
  return mx_colsum(B->m[b], B->n[b], a, B->ld[b]);
}
static void b_colsum(const mx_batch *B, const double *a, const double *v,
                     double *ret) {
  (void)v;
  mx_colsum_batched(B->nb, B->m, B->n, a, B->sa, B->ld, ret);
}
static void g_colsum(const mx_batch *B, const double *a, const double *v,
                     double *ret, double *da, double *dv) {
  (void)v, (void)dv;
  mx_colsum_grad(B->nb, B->m, B->n, a, B->sa, B->ld, ret, NULL, da, B->sa);
}

static double s_diag(const mx_batch *B, size_t b, const double *a,
                     const double *v) {
  (void)v;
  return mx_diag(B->n[b], a, B->ld[b]);
}
static void b_diag(const mx_batch *B, const double *a, const double *v,
                   double *ret) {
  (void)v;
  mx_diag_batched(B->nb, B->n, a, B->sa, B->ld, ret);
}
static void g_diag(const mx_batch *B, const double *a, const double *v,
                   double *ret, double *da, double *dv) {
  (void)v, (void)dv;
  mx_diag_grad(B->nb, B->n, a, B->sa, B->ld, ret, NULL, da, B->sa);
}

static double s_upper(const mx_batch *B, size_t b, const double *a,
                      const double *v) {
  return mx_upper(B->n[b], a, B->ld[b], v);
}
static void b_upper(const mx_batch *B, const double *a, const double *v,
                    double *ret) {
  mx_upper_batched(B->nb, B->n, a, B->sa, B->ld, v, B->sv, ret);
}
static void g_upper(const mx_batch *B, const double *a, const double *v,
                    double *ret, double *da, double *dv) {
  mx_upper_grad(B->nb, B->n, a, B->sa, B->ld, v, B->sv, ret, NULL, da, B->sa,
                dv, B->sv);
}

static double s_strict(const mx_batch *B, size_t b, const double *a,
                       const double *v) {
  (void)v;
  return mx_strict(B->n[b], a, B->ld[b]);
}
static void b_strict(const mx_batch *B, const double *a, const double *v,
                     double *ret) {
  (void)v;
  mx_strict_batched(B->nb, B->n, a, B->sa, B->ld, ret);
}
static void g_strict(const mx_batch *B, const double *a, const double *v,
                     double *ret, double *da, double *dv) {
  (void)v, (void)dv;
  mx_strict_grad(B->nb, B->n, a, B->sa, B->ld, ret, NULL, da, B->sa);
}

void t_mx_colsum(void **state) {
  (void)state;
  rng_t r = {name_seed("mx_colsum")};
  mx_check_ret("mx_colsum", &r, 0, 0, s_colsum, b_colsum, g_colsum);
}
void t_mx_diag(void **state) {
  (void)state;
  rng_t r = {name_seed("mx_diag")};
  mx_check_ret("mx_diag", &r, 1, 0, s_diag, b_diag, g_diag);
}
void t_mx_upper(void **state) {
  (void)state;
  rng_t r = {name_seed("mx_upper")};
  mx_check_ret("mx_upper", &r, 1, 1, s_upper, b_upper, g_upper);
}
void t_mx_strict(void **state) {
  (void)state;
  rng_t r = {name_seed("mx_strict")};
  mx_check_ret("mx_strict", &r, 1, 0, s_strict, b_strict, g_strict);
}

/* In place: the arrays after NAME_batched and NAME_grad (whose shadows are
 * not checked here) bit for bit the scalar function's. */
void t_mx_inplace(void **state) {
  (void)state;
  rng_t r = {name_seed("mx_inplace")};
  for (int fn = 0; fn < 2; fn++)
    for (size_t nb = 1; nb <= MX_MAXB; nb += (nb < 3 * WD ? 1 : 11)) {
      mx_batch B;
      mx_make(&B, &r, nb, fn == 0, 1);
      if (fn == 1) /* c[j]: n of them */
        for (size_t b = 0; b < nb; b++)
          B.ev[b] = B.n[b];
      size_t last = nb - 1;
      double *a = mx_alloc(&B, last, B.sa, B.ea, &r, 1);
      double *v = mx_alloc(&B, last, B.sv, B.ev, &r, 1);
      size_t ea = last * (size_t)B.sa + (size_t)B.ea[last];
      size_t ev = last * (size_t)B.sv + (size_t)B.ev[last];
      double *want = malloc((ea + 1) * sizeof(double));
      double *wantv = malloc((ev + 1) * sizeof(double));
      double *a2 = malloc((ea + 1) * sizeof(double));
      double *v2 = malloc((ev + 1) * sizeof(double));
      memcpy(want, a, ea * sizeof(double));
      memcpy(wantv, v, ev * sizeof(double));
      memcpy(a2, a, ea * sizeof(double));
      memcpy(v2, v, ev * sizeof(double));
      for (size_t b = 0; b < nb; b++) {
        if (fn == 0)
          mx_backsub(B.n[b], want + b * B.sa, B.ld[b], wantv + b * B.sv);
        else
          mx_scale(B.m[b], B.n[b], want + b * B.sa, B.ld[b], wantv + b * B.sv);
      }
      for (int pass = 0; pass < 2; pass++) {
        memcpy(a, a2, ea * sizeof(double));
        memcpy(v, v2, ev * sizeof(double));
        double *da = mx_alloc(&B, last, B.sa, B.ea, &r, 0);
        double *dv = mx_alloc(&B, last, B.sv, B.ev, &r, 0);
        if (fn == 0 && pass == 0)
          mx_backsub_batched(nb, B.n, a, B.sa, B.ld, v, B.sv);
        else if (fn == 0)
          mx_backsub_grad(nb, B.n, a, B.sa, B.ld, v, B.sv, da, B.sa, dv, B.sv);
        else if (pass == 0)
          mx_scale_batched(nb, B.m, B.n, a, B.sa, B.ld, v, B.sv);
        else
          mx_scale_grad(nb, B.m, B.n, a, B.sa, B.ld, v, B.sv, da, B.sa, dv,
                        B.sv);
        for (size_t k = 0; k < ea; k++)
          if (!mx_same(a[k], want[k])) {
            print_error("%s pass %d: a[%zu] %a, scalar %a\n",
                        fn ? "mx_scale" : "mx_backsub", pass, k, a[k], want[k]);
            fail();
          }
        for (size_t k = 0; k < ev; k++)
          if (!mx_same(v[k], wantv[k])) {
            print_error("%s pass %d: v[%zu] %a, scalar %a\n",
                        fn ? "mx_scale" : "mx_backsub", pass, k, v[k],
                        wantv[k]);
            fail();
          }
      }
      free(want);
      free(wantv);
      free(a2);
      free(v2);
      gp_reset();
    }
}
