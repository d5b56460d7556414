/* Pointers and arrays in the legacy numeric-C style (issue 13): helpers
 * that take arrays (a local coefficient table, an array parameter passed
 * whole, `a + k` and `&a[k]` sub-arrays), pointer locals walking arrays
 * (`*p++`, `p += k`, `p[i]`, `*(p + i)`, `p - q`, `p < end`, `p != q`, a
 * `?:` between offsets into one array), memset/memcpy/memmove of constant
 * sizes, pointer out-parameters (`*s = ...`), `&local` passed to
 * a helper that writes through it, and helpers writing into array
 * arguments (out-arrays, overwrites that must kill adjoints).
 *
 * Every case, for every batch size of arr_ns and several seeds:
 *   - NAME_batched against a loop over NAME, bit for bit (no libm calls);
 *   - NAME_grad's ret equals NAME_batched's;
 *   - shadows against forward mode (hand-written dual-number copies):
 *     scalar and input-array shadows are incremented (pre-filled S0 + the
 *     gradient), written arrays' shadows hold the cotangent of the final
 *     value on entry and the gradient w.r.t. the initial value on exit;
 *   - central finite differences of NAME agree with forward mode;
 *   - extents inferred from constant loop ranges (wstencil, wrange);
 *   - every array example has stride extent + 1: the gap element holds a
 *     NaN sentinel that must stay unchanged (and would poison a result if
 *     read), and the last example ends at a PROT_NONE guard page. */
#include "arrays_util.h"

#include "../common/dual.h"
#include "../common/test_filter.h"

/* ---- the functions ------------------------------------------------------- */

/* Horner's rule over n + 1 coefficients, highest first (polevl-like). */
static inline double horner(double x, const double *coef, int n) {
  const double *p = coef;
  double ans = *p++;
  int i = n;
  do
    ans = ans * x + *p++;
  while (--i);
  return ans;
}
/* Sine and cosine-like polynomials into out-parameters. */
static inline void sincosp(double x, double *s, double *c) {
  double x2 = x * x;
  *s = x * (1.0 - x2 * (1.0 / 6.0 - x2 / 120.0));
  c[0] = 1.0 - x2 * (0.5 - x2 / 24.0);
}
/* Splits x into a fraction (returned) and an integral-like part in *ip. */
static inline double splitp(double x, double *ip) {
  double k = x > 0.0 ? 0.5 * x : 0.25 * x;
  *ip = k * k;
  return x - k;
}
/* Writes n values through a walking pointer; returns their sum. */
static inline double fillp(double *out, const double *in, int n, double k) {
  double acc = 0.0;
  for (int i = 0; i < n; i++) {
    *out++ = in[i] * k;
    acc += *(in + i);
  }
  return acc;
}
/* y[0..n) = a * y + x, after y[0] is overwritten with a constant. */
static inline void axpyc(double *y, const double *x, double a, int n) {
  y[0] = 0.5;
  for (int i = 0; i < n; i++)
    y[i] = a * y[i] + x[i];
}

BATCHDIFF double wcheb(double x) {
  double c[5] = {0.25, -1.5, 2.0, 0.75, -0.5};
  return horner(x, c, 4) + horner(x, &c[2], 2);
}
BATCHDIFF double wpoly(double x, const double coef[static 6]) {
  return horner(x, coef, 5) - horner(x, coef + 1, 3) * horner(x, &coef[3], 2);
}
BATCHDIFF void wsincos(double x, double *s, double *c) { sincosp(x, s, c); }
BATCHDIFF double wsplit(double x, double y) {
  double ip, jp;
  double f = splitp(x, &ip);
  double g = splitp(y * f, &jp);
  return f * ip + g * jp;
}
BATCHDIFF double wfill(double x, double a, double y[4]) {
  double t[3] = {x, a, x * a};
  double s = fillp(y, t, 3, a);
  s += fillp(y + 3, &t[1], 1, x);
  return s * y[3];
}
BATCHDIFF double wwalk(double x, double y) {
  double t[8];
  double *q = t;
  q[0] = x;
  q[1] = y;
  q += 2;
  *q++ = x * y;
  *q = x - y;
  double *r = &t[1];
  for (int i = 0; i < 3; i++)
    r[i + 3] = *(r + i) * 0.5 + x;
  const double *e = x > y ? t + 2 : t + 5;
  double s = *e * (double)(e - t);
  double *w = t;
  double acc = 0.0;
  while (w - t < 7)
    acc = acc * y + *w++;
  return s + acc;
}
/* Pointer comparisons (same array): a walk to an end pointer chosen per
 * example, a walk down with != and >=, and one over an array parameter. */
BATCHDIFF double wcmp(double x, double y) {
  double t[6] = {x, y, x * y, x - y, 0.5 * x, y * y};
  const double *end = x > y ? t + 6 : t + 3;
  double acc = 0.0;
  for (const double *p = t; p < end; p++)
    acc = acc * y + *p;
  const double *q = t + 5;
  while (q != t && *q > 0.0)
    --q;
  return acc + (double)(q - t) + (q >= t + 2 ? *q : 0.0);
}
BATCHDIFF double wend(double x, const double a[5]) {
  double s = 0.0;
  const double *p = a + 5;
  while (p > a)
    s = s * x + *--p;
  return s;
}
/* wend through a copy in an array whose size clang folds (a VLA in C). */
BATCHDIFF double wvla(double x, const double a[5]) {
  const int n = 5;
  double c[n];
  memcpy(c, a, sizeof c);
  double s = 0.0;
  for (const double *p = c + n; p != c;)
    s = s * x + *--p;
  return s;
}
/* memset/memcpy/memmove with constant sizes: element copies. */
BATCHDIFF double wmem(double x, const double a[4]) {
  double t[6];
  memset(t, 0, sizeof t);
  memcpy(t + 1, a, 4 * sizeof(double));
  t[0] = x;
  memmove(t + 2, t, 3 * sizeof t[0]);
  double s = 0.0;
  for (int i = 0; i < 6; i++)
    s = s * x + t[i];
  return s;
}
BATCHDIFF void wmove(double x, double y[3]) {
  memmove(y + 1, y, 2 * sizeof *y);
  y[0] = x * y[1];
}
BATCHDIFF void winout(double y[3], const double x[3], double a) {
  axpyc(y, x, a, 3);
  y[2] *= y[1];
}

/* Extents from constant loop ranges (issue 13 section 3): a has 7
 * elements (a[i + 1] with i < 4, a[2 * k] with k <= 3), y has 3. */
BATCHDIFF double wstencil(double x, const double *a) {
  double s = 0.0;
  for (int i = 1; i < 4; i++)
    s = s * x + (a[i - 1] - 2.0 * a[i] + a[i + 1]);
  for (int k = 3; k >= 0; k--)
    s += a[2 * k] * x;
  return s;
}
BATCHDIFF void wrange(double *y, double x) {
  for (int i = 0; i <= 2; i++)
    y[i] = y[i] * x + (double)i;
  y[1] = x;
}

/* ---- dual-number copies -------------------------------------------------- */

static dual d_horner(dual x, const dual *coef, int n) {
  const dual *p = coef;
  dual ans = *p++;
  int i = n;
  do
    ans = dadd(dmul(ans, x), *p++);
  while (--i);
  return ans;
}
static void d_sincosp(dual x, dual *s, dual *c) {
  dual x2 = dmul(x, x);
  *s = dmul(
      x, dsub(dc(1.0), dmul(x2, dsub(dc(1.0 / 6.0), dscale(x2, 1.0 / 120.0)))));
  *c = dsub(dc(1.0), dmul(x2, dsub(dc(0.5), dscale(x2, 1.0 / 24.0))));
}
static dual d_splitp(dual x, dual *ip) {
  dual k = x.v > 0.0 ? dscale(x, 0.5) : dscale(x, 0.25);
  *ip = dmul(k, k);
  return dsub(x, k);
}
static dual d_fillp(dual *out, const dual *in, int n, dual k) {
  dual acc = dc(0.0);
  for (int i = 0; i < n; i++) {
    out[i] = dmul(in[i], k);
    acc = dadd(acc, in[i]);
  }
  return acc;
}

/* Each case: NS varying double scalars, then arrays A[j] of extent ext[j]
 * (kind IN: read only; kind W: written, maybe read). In the dual form,
 * arrays are updated in place and the return value (if any) is *ret. */
enum { IN, W };
typedef struct {
  const char *name;
  int ns, na, ext[2], kind[2], has_ret;
  void (*scalar)(const double *s, double *const *a, double *ret);
  void (*dualf)(const dual *s, dual *const *a, dual *ret);
  void (*batched)(size_t n, double *const *S, double *const *A,
                  const ptrdiff_t *st, double *ret);
  void (*grad)(size_t n, double *const *S, double *const *A,
               const ptrdiff_t *st, double *ret, const double *dret,
               double *const *dS, double *const *dA);
} pcase;

static void s_wcheb(const double *s, double *const *a, double *ret) {
  (void)a;
  *ret = wcheb(s[0]);
}
static void du_wcheb(const dual *s, dual *const *a, dual *ret) {
  (void)a;
  dual c[5] = {dc(0.25), dc(-1.5), dc(2.0), dc(0.75), dc(-0.5)};
  *ret = dadd(d_horner(s[0], c, 4), d_horner(s[0], &c[2], 2));
}
static void b_wcheb(size_t n, double *const *S, double *const *A,
                    const ptrdiff_t *st, double *ret) {
  (void)A, (void)st;
  wcheb_batched(n, S[0], ret);
}
static void g_wcheb(size_t n, double *const *S, double *const *A,
                    const ptrdiff_t *st, double *ret, const double *dret,
                    double *const *dS, double *const *dA) {
  (void)A, (void)st, (void)dA;
  wcheb_grad(n, S[0], ret, dret, dS[0]);
}

static void s_wpoly(const double *s, double *const *a, double *ret) {
  *ret = wpoly(s[0], a[0]);
}
static void du_wpoly(const dual *s, dual *const *a, dual *ret) {
  *ret = dsub(d_horner(s[0], a[0], 5),
              dmul(d_horner(s[0], a[0] + 1, 3), d_horner(s[0], &a[0][3], 2)));
}
static void b_wpoly(size_t n, double *const *S, double *const *A,
                    const ptrdiff_t *st, double *ret) {
  wpoly_batched(n, S[0], A[0], st[0], ret);
}
static void g_wpoly(size_t n, double *const *S, double *const *A,
                    const ptrdiff_t *st, double *ret, const double *dret,
                    double *const *dS, double *const *dA) {
  wpoly_grad(n, S[0], A[0], st[0], ret, dret, dS[0], dA[0], st[0]);
}

static void s_wsincos(const double *s, double *const *a, double *ret) {
  (void)ret;
  wsincos(s[0], a[0], a[1]);
}
static void du_wsincos(const dual *s, dual *const *a, dual *ret) {
  (void)ret;
  d_sincosp(s[0], a[0], a[1]);
}
static void b_wsincos(size_t n, double *const *S, double *const *A,
                      const ptrdiff_t *st, double *ret) {
  (void)ret;
  wsincos_batched(n, S[0], A[0], st[0], A[1], st[1]);
}
static void g_wsincos(size_t n, double *const *S, double *const *A,
                      const ptrdiff_t *st, double *ret, const double *dret,
                      double *const *dS, double *const *dA) {
  (void)ret, (void)dret;
  wsincos_grad(n, S[0], A[0], st[0], A[1], st[1], dS[0], dA[0], st[0], dA[1],
               st[1]);
}

static void s_wsplit(const double *s, double *const *a, double *ret) {
  (void)a;
  *ret = wsplit(s[0], s[1]);
}
static void du_wsplit(const dual *s, dual *const *a, dual *ret) {
  (void)a;
  dual ip, jp;
  dual f = d_splitp(s[0], &ip);
  dual g = d_splitp(dmul(s[1], f), &jp);
  *ret = dadd(dmul(f, ip), dmul(g, jp));
}
static void b_wsplit(size_t n, double *const *S, double *const *A,
                     const ptrdiff_t *st, double *ret) {
  (void)A, (void)st;
  wsplit_batched(n, S[0], S[1], ret);
}
static void g_wsplit(size_t n, double *const *S, double *const *A,
                     const ptrdiff_t *st, double *ret, const double *dret,
                     double *const *dS, double *const *dA) {
  (void)A, (void)st, (void)dA;
  wsplit_grad(n, S[0], S[1], ret, dret, dS[0], dS[1]);
}

static void s_wfill(const double *s, double *const *a, double *ret) {
  *ret = wfill(s[0], s[1], a[0]);
}
static void du_wfill(const dual *s, dual *const *a, dual *ret) {
  dual x = s[0], al = s[1], *y = a[0];
  dual t[3] = {x, al, dmul(x, al)};
  dual sum = d_fillp(y, t, 3, al);
  sum = dadd(sum, d_fillp(y + 3, &t[1], 1, x));
  *ret = dmul(sum, y[3]);
}
static void b_wfill(size_t n, double *const *S, double *const *A,
                    const ptrdiff_t *st, double *ret) {
  wfill_batched(n, S[0], S[1], A[0], st[0], ret);
}
static void g_wfill(size_t n, double *const *S, double *const *A,
                    const ptrdiff_t *st, double *ret, const double *dret,
                    double *const *dS, double *const *dA) {
  wfill_grad(n, S[0], S[1], A[0], st[0], ret, dret, dS[0], dS[1], dA[0], st[0]);
}

static void s_wwalk(const double *s, double *const *a, double *ret) {
  (void)a;
  *ret = wwalk(s[0], s[1]);
}
static void du_wwalk(const dual *s, dual *const *a, dual *ret) {
  (void)a;
  dual x = s[0], y = s[1], t[8];
  t[0] = x, t[1] = y, t[2] = dmul(x, y), t[3] = dsub(x, y);
  for (int i = 0; i < 3; i++)
    t[1 + i + 3] = dadd(dscale(t[1 + i], 0.5), x);
  int e = x.v > y.v ? 2 : 5;
  dual sum = dscale(t[e], (double)e);
  dual acc = dc(0.0);
  for (int w = 0; w < 7; w++)
    acc = dadd(dmul(acc, y), t[w]);
  *ret = dadd(sum, acc);
}
static void b_wwalk(size_t n, double *const *S, double *const *A,
                    const ptrdiff_t *st, double *ret) {
  (void)A, (void)st;
  wwalk_batched(n, S[0], S[1], ret);
}
static void g_wwalk(size_t n, double *const *S, double *const *A,
                    const ptrdiff_t *st, double *ret, const double *dret,
                    double *const *dS, double *const *dA) {
  (void)A, (void)st, (void)dA;
  wwalk_grad(n, S[0], S[1], ret, dret, dS[0], dS[1]);
}

static void s_wcmp(const double *s, double *const *a, double *ret) {
  (void)a;
  *ret = wcmp(s[0], s[1]);
}
static void du_wcmp(const dual *s, dual *const *a, dual *ret) {
  (void)a;
  dual x = s[0], y = s[1];
  dual t[6] = {x, y, dmul(x, y), dsub(x, y), dscale(x, 0.5), dmul(y, y)};
  int e = x.v > y.v ? 6 : 3;
  dual acc = dc(0.0);
  for (int i = 0; i < e; i++)
    acc = dadd(dmul(acc, y), t[i]);
  int k = 5;
  while (k != 0 && t[k].v > 0.0)
    --k;
  *ret = dadd(dadd(acc, dc((double)k)), k >= 2 ? t[k] : dc(0.0));
}
static void b_wcmp(size_t n, double *const *S, double *const *A,
                   const ptrdiff_t *st, double *ret) {
  (void)A, (void)st;
  wcmp_batched(n, S[0], S[1], ret);
}
static void g_wcmp(size_t n, double *const *S, double *const *A,
                   const ptrdiff_t *st, double *ret, const double *dret,
                   double *const *dS, double *const *dA) {
  (void)A, (void)st, (void)dA;
  wcmp_grad(n, S[0], S[1], ret, dret, dS[0], dS[1]);
}

static void s_wend(const double *s, double *const *a, double *ret) {
  *ret = wend(s[0], a[0]);
}
static void du_wend(const dual *s, dual *const *a, dual *ret) {
  dual acc = dc(0.0);
  for (int i = 4; i >= 0; i--)
    acc = dadd(dmul(acc, s[0]), a[0][i]);
  *ret = acc;
}
static void b_wend(size_t n, double *const *S, double *const *A,
                   const ptrdiff_t *st, double *ret) {
  wend_batched(n, S[0], A[0], st[0], ret);
}
static void g_wend(size_t n, double *const *S, double *const *A,
                   const ptrdiff_t *st, double *ret, const double *dret,
                   double *const *dS, double *const *dA) {
  wend_grad(n, S[0], A[0], st[0], ret, dret, dS[0], dA[0], st[0]);
}

static void s_wvla(const double *s, double *const *a, double *ret) {
  *ret = wvla(s[0], a[0]);
}
static void b_wvla(size_t n, double *const *S, double *const *A,
                   const ptrdiff_t *st, double *ret) {
  wvla_batched(n, S[0], A[0], st[0], ret);
}
static void g_wvla(size_t n, double *const *S, double *const *A,
                   const ptrdiff_t *st, double *ret, const double *dret,
                   double *const *dS, double *const *dA) {
  wvla_grad(n, S[0], A[0], st[0], ret, dret, dS[0], dA[0], st[0]);
}

static void s_wmem(const double *s, double *const *a, double *ret) {
  *ret = wmem(s[0], a[0]);
}
static void du_wmem(const dual *s, dual *const *a, dual *ret) {
  dual x = s[0], t[6] = {x, a[0][0], x, a[0][0], a[0][1], dc(0.0)};
  dual acc = dc(0.0);
  for (int i = 0; i < 6; i++)
    acc = dadd(dmul(acc, x), t[i]);
  *ret = acc;
}
static void b_wmem(size_t n, double *const *S, double *const *A,
                   const ptrdiff_t *st, double *ret) {
  wmem_batched(n, S[0], A[0], st[0], ret);
}
static void g_wmem(size_t n, double *const *S, double *const *A,
                   const ptrdiff_t *st, double *ret, const double *dret,
                   double *const *dS, double *const *dA) {
  wmem_grad(n, S[0], A[0], st[0], ret, dret, dS[0], dA[0], st[0]);
}

static void s_wmove(const double *s, double *const *a, double *ret) {
  (void)ret;
  wmove(s[0], a[0]);
}
static void du_wmove(const dual *s, dual *const *a, dual *ret) {
  (void)ret;
  dual y0 = a[0][0], y1 = a[0][1];
  a[0][2] = y1;
  a[0][1] = y0;
  a[0][0] = dmul(s[0], y0);
}
static void b_wmove(size_t n, double *const *S, double *const *A,
                    const ptrdiff_t *st, double *ret) {
  (void)ret;
  wmove_batched(n, S[0], A[0], st[0]);
}
static void g_wmove(size_t n, double *const *S, double *const *A,
                    const ptrdiff_t *st, double *ret, const double *dret,
                    double *const *dS, double *const *dA) {
  (void)ret, (void)dret;
  wmove_grad(n, S[0], A[0], st[0], dS[0], dA[0], st[0]);
}

static void s_winout(const double *s, double *const *a, double *ret) {
  (void)ret;
  winout(a[0], a[1], s[0]);
}
static void du_winout(const dual *s, dual *const *a, dual *ret) {
  (void)ret;
  dual *y = a[0], *x = a[1];
  y[0] = dc(0.5);
  for (int i = 0; i < 3; i++)
    y[i] = dadd(dmul(s[0], y[i]), x[i]);
  y[2] = dmul(y[2], y[1]);
}
static void b_winout(size_t n, double *const *S, double *const *A,
                     const ptrdiff_t *st, double *ret) {
  (void)ret;
  winout_batched(n, A[0], st[0], A[1], st[1], S[0]);
}
static void g_winout(size_t n, double *const *S, double *const *A,
                     const ptrdiff_t *st, double *ret, const double *dret,
                     double *const *dS, double *const *dA) {
  (void)ret, (void)dret;
  winout_grad(n, A[0], st[0], A[1], st[1], S[0], dA[0], st[0], dA[1], st[1],
              dS[0]);
}

static void s_wstencil(const double *s, double *const *a, double *ret) {
  *ret = wstencil(s[0], a[0]);
}
static void du_wstencil(const dual *s, dual *const *a, dual *ret) {
  dual x = s[0], r = dc(0.0);
  const dual *A = a[0];
  for (int i = 1; i < 4; i++)
    r = dadd(dmul(r, x), dadd(dsub(A[i - 1], dscale(A[i], 2.0)), A[i + 1]));
  for (int k = 3; k >= 0; k--)
    r = dadd(r, dmul(A[2 * k], x));
  *ret = r;
}
static void b_wstencil(size_t n, double *const *S, double *const *A,
                       const ptrdiff_t *st, double *ret) {
  wstencil_batched(n, S[0], A[0], st[0], ret);
}
static void g_wstencil(size_t n, double *const *S, double *const *A,
                       const ptrdiff_t *st, double *ret, const double *dret,
                       double *const *dS, double *const *dA) {
  wstencil_grad(n, S[0], A[0], st[0], ret, dret, dS[0], dA[0], st[0]);
}

static void s_wrange(const double *s, double *const *a, double *ret) {
  (void)ret;
  wrange(a[0], s[0]);
}
static void du_wrange(const dual *s, dual *const *a, dual *ret) {
  (void)ret;
  dual *y = a[0];
  for (int i = 0; i <= 2; i++)
    y[i] = dadd(dmul(y[i], s[0]), dc((double)i));
  y[1] = s[0];
}
static void b_wrange(size_t n, double *const *S, double *const *A,
                     const ptrdiff_t *st, double *ret) {
  (void)ret;
  wrange_batched(n, A[0], st[0], S[0]);
}
static void g_wrange(size_t n, double *const *S, double *const *A,
                     const ptrdiff_t *st, double *ret, const double *dret,
                     double *const *dS, double *const *dA) {
  (void)ret, (void)dret;
  wrange_grad(n, A[0], st[0], S[0], dA[0], st[0], dS[0]);
}

static const pcase cases[] = {
    {"wcheb", 1, 0, {0}, {0}, 1, s_wcheb, du_wcheb, b_wcheb, g_wcheb},
    {"wpoly", 1, 1, {6}, {IN}, 1, s_wpoly, du_wpoly, b_wpoly, g_wpoly},
    {"wsincos",
     1,
     2,
     {1, 1},
     {W, W},
     0,
     s_wsincos,
     du_wsincos,
     b_wsincos,
     g_wsincos},
    {"wsplit", 2, 0, {0}, {0}, 1, s_wsplit, du_wsplit, b_wsplit, g_wsplit},
    {"wfill", 2, 1, {4}, {W}, 1, s_wfill, du_wfill, b_wfill, g_wfill},
    {"wwalk", 2, 0, {0}, {0}, 1, s_wwalk, du_wwalk, b_wwalk, g_wwalk},
    {"wcmp", 2, 0, {0}, {0}, 1, s_wcmp, du_wcmp, b_wcmp, g_wcmp},
    {"wend", 1, 1, {5}, {IN}, 1, s_wend, du_wend, b_wend, g_wend},
    {"wvla", 1, 1, {5}, {IN}, 1, s_wvla, du_wend, b_wvla, g_wvla},
    {"wmem", 1, 1, {4}, {IN}, 1, s_wmem, du_wmem, b_wmem, g_wmem},
    {"wmove", 1, 1, {3}, {W}, 0, s_wmove, du_wmove, b_wmove, g_wmove},
    {"winout",
     1,
     2,
     {3, 3},
     {W, IN},
     0,
     s_winout,
     du_winout,
     b_winout,
     g_winout},
};
#define N_CASES (sizeof cases / sizeof cases[0])

/* ---- the harness --------------------------------------------------------- */

#define MAXNB 100
#define MAXE 8
static const double SENT = NAN; /* poisons a result if read */

/* One example's inputs (scalars, array initial values), packed. */
typedef struct {
  double s[2];
  double a[2][MAXE];
} ex_t;

/* The objective seed * ret + sum cot . (final written arrays), by forward
 * mode with input k seeded (k: scalar j, or 2 + 8 * j + i for a[j][i];
 * -1 for none). */
static dual objective(const pcase *c, const ex_t *e, double seed,
                      const double cot[2][MAXE], int k) {
  dual s[2], a[2][MAXE], r = dc(0.0);
  dual *ap[2] = {a[0], a[1]};
  for (int j = 0; j < c->ns; j++)
    s[j] = (dual){e->s[j], k == j};
  for (int j = 0; j < c->na; j++)
    for (int i = 0; i < c->ext[j]; i++)
      a[j][i] = (dual){e->a[j][i], k == 2 + 8 * j + i};
  c->dualf(s, ap, &r);
  dual L = dscale(r, c->has_ret ? seed : 0.0);
  for (int j = 0; j < c->na; j++)
    if (c->kind[j] == W)
      for (int i = 0; i < c->ext[j]; i++)
        L = dadd(L, dscale(a[j][i], cot[j][i]));
  return L;
}
/* The same objective through the scalar C function. */
static double objective_c(const pcase *c, const ex_t *e, double seed,
                          const double cot[2][MAXE]) {
  double a[2][MAXE], r = 0.0;
  double *ap[2] = {a[0], a[1]};
  memcpy(a, e->a, sizeof a);
  c->scalar(e->s, ap, &r);
  double L = c->has_ret ? seed * r : 0.0;
  for (int j = 0; j < c->na; j++)
    if (c->kind[j] == W)
      for (int i = 0; i < c->ext[j]; i++)
        L += cot[j][i] * a[j][i];
  return L;
}

static void check_fd(const pcase *c, const ex_t *e, double seed,
                     const double cot[2][MAXE], int k, double *slot) {
  double g = objective(c, e, seed, cot, k).d;
  double fd[2];
  for (int t = 0; t < 2; t++) {
    double h = t ? 1e-5 : 2e-6;
    ex_t p = *e, m = *e;
    *(slot - (double *)e + (double *)&p) += h;
    *(slot - (double *)e + (double *)&m) -= h;
    fd[t] = (objective_c(c, &p, seed, cot) - objective_c(c, &m, seed, cot)) /
            (2 * h);
  }
  if (!close_to(fd[0], fd[1], 1e-5))
    return; /* a kink between the two steps */
  if (!close_to(g, fd[0], 1e-6)) {
    print_error("%s: finite differences %.17g, forward mode %.17g (input %d)\n",
                c->name, fd[0], g, k);
    fail();
  }
}

static void run_case(const pcase *c, size_t nb, rng_t *rng, int rep) {
  static ex_t ex[MAXNB];
  static double cot[MAXNB][2][MAXE];
  double *S[2] = {0}, *dS[2] = {0}, *A[2] = {0}, *A2[2] = {0}, *dA[2] = {0};
  ptrdiff_t st[2] = {0};
  for (size_t b = 0; b < nb; b++) {
    for (int j = 0; j < c->ns; j++)
      ex[b].s[j] = rng_range(rng, -1.5, 1.5);
    for (int j = 0; j < c->na; j++)
      for (int i = 0; i < c->ext[j]; i++) {
        ex[b].a[j][i] = rng_range(rng, -1.5, 1.5);
        cot[b][j][i] = rng_range(rng, -2, 2);
      }
  }
  double *seed = gp_alloc(nb * sizeof(double));
  for (size_t b = 0; b < nb; b++)
    seed[b] = rep ? rng_range(rng, -2, 2) : 1.0;
  gp_seal(seed);
  for (int j = 0; j < c->ns; j++) {
    S[j] = gp_alloc(nb * sizeof(double));
    dS[j] = gp_alloc(nb * sizeof(double));
    for (size_t b = 0; b < nb; b++)
      S[j][b] = ex[b].s[j], dS[j][b] = 0.25 * (double)(b % 5);
    gp_seal(S[j]);
  }
  /* Arrays: stride ext + 1, the gap a NaN sentinel, the end a guard page.
   * A: for _batched, A2: for _grad (written arrays get written twice). */
  for (int j = 0; j < c->na; j++) {
    st[j] = c->ext[j] + 1;
    size_t len = nb ? (nb - 1) * (size_t)st[j] + (size_t)c->ext[j] : 0;
    A[j] = gp_alloc(len * sizeof(double));
    A2[j] = gp_alloc(len * sizeof(double));
    dA[j] = gp_alloc(len * sizeof(double));
    for (size_t o = 0; o < len; o++)
      A[j][o] = A2[j][o] = dA[j][o] = SENT;
    for (size_t b = 0; b < nb; b++)
      for (int i = 0; i < c->ext[j]; i++) {
        size_t o = b * (size_t)st[j] + (size_t)i;
        A[j][o] = A2[j][o] = ex[b].a[j][i];
        dA[j][o] = c->kind[j] == W ? cot[b][j][i] : 0.125 * (double)(i + 1);
      }
    if (c->kind[j] == IN) {
      gp_seal(A[j]);
      gp_seal(A2[j]);
    }
  }
  double *ret = gp_alloc(nb * sizeof(double));
  double *ret2 = gp_alloc(nb * sizeof(double));
  c->batched(nb, S, A, st, ret);
  c->grad(nb, S, A2, st, ret2, rep ? seed : NULL, dS, dA);

  for (size_t b = 0; b < nb; b++) {
    /* The scalar function on example b. */
    double a[2][MAXE], r = 0.0;
    double *ap[2] = {a[0], a[1]};
    memcpy(a, ex[b].a, sizeof a);
    c->scalar(ex[b].s, ap, &r);
    if (c->has_ret &&
        (!el_same(&ret[b], &r, K_D) || !el_same(&ret2[b], &r, K_D))) {
      print_error("%s n=%zu b=%zu: ret %.17g / grad's %.17g, scalar %.17g\n",
                  c->name, nb, b, ret[b], ret2[b], r);
      fail();
    }
    for (int j = 0; j < c->na; j++)
      for (int i = 0; i < c->ext[j]; i++) {
        size_t o = b * (size_t)st[j] + (size_t)i;
        if (!el_same(&A[j][o], &a[j][i], K_D) ||
            !el_same(&A2[j][o], &a[j][i], K_D)) {
          print_error("%s n=%zu b=%zu: array %d[%d] %.17g / %.17g, scalar "
                      "%.17g\n",
                      c->name, nb, b, j, i, A[j][o], A2[j][o], a[j][i]);
          fail();
        }
      }
    /* Gradients: forward mode per input, and finite differences. */
    for (int j = 0; j < c->ns; j++) {
      double g = objective(c, &ex[b], seed[b], cot[b], j).d;
      double want = 0.25 * (double)(b % 5) + g;
      if (!close_to(dS[j][b], want, 1e-12)) {
        print_error("%s n=%zu b=%zu: d_s%d %.17g, want %.17g\n", c->name, nb, b,
                    j, dS[j][b], want);
        fail();
      }
      check_fd(c, &ex[b], seed[b], cot[b], j, &ex[b].s[j]);
    }
    for (int j = 0; j < c->na; j++)
      for (int i = 0; i < c->ext[j]; i++) {
        size_t o = b * (size_t)st[j] + (size_t)i;
        double g = objective(c, &ex[b], seed[b], cot[b], 2 + 8 * j + i).d;
        double want = c->kind[j] == W ? g : 0.125 * (double)(i + 1) + g;
        if (!close_to(dA[j][o], want, 1e-12)) {
          print_error("%s n=%zu b=%zu: d_a%d[%d] %.17g, want %.17g\n", c->name,
                      nb, b, j, i, dA[j][o], want);
          fail();
        }
        check_fd(c, &ex[b], seed[b], cot[b], 2 + 8 * j + i, &ex[b].a[j][i]);
      }
  }
  /* The gap elements (past every example's extent) are untouched. */
  for (int j = 0; j < c->na; j++)
    for (size_t b = 0; b + 1 < nb; b++) {
      size_t o = b * (size_t)st[j] + (size_t)c->ext[j];
      if (!el_same(&A[j][o], &SENT, K_D) || !el_same(&A2[j][o], &SENT, K_D) ||
          !el_same(&dA[j][o], &SENT, K_D)) {
        print_error("%s n=%zu: element past example %zu's extent written\n",
                    c->name, nb, b);
        fail();
      }
    }
  gp_reset();
}

static void t_case(void **state) {
  const pcase *c = *state;
  rng_t rng = {name_seed(c->name)};
  for (size_t k = 0; k < N_ARR_NS; k++)
    for (int rep = 0; rep < 3; rep++)
      run_case(c, arr_ns[k], &rng, rep);
}

int main(int argc, char **argv) {
  struct CMUnitTest tests[N_CASES];
  for (size_t i = 0; i < N_CASES; i++)
    tests[i] = (struct CMUnitTest){cases[i].name, t_case, NULL, NULL,
                                   (void *)&cases[i]};
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
