/* Shapes of ERFA (the SOFA astrometry library, docs/found-code.md "ERFA
 * as found"), written for this test, not ERFA's code:
 * - es_prep: a scalar member of a written record parameter passed to a
 *   helper as its out-pointer (`pn(p, &a->em, a->eh)`, as eraApcs fills
 *   its eraASTROM), read and written through the pointer at offset 0, and
 *   an array member passed whole.
 * - es_members: array members of a written record at indices of each
 *   example's own.
 * - es_epv, es_rot, es_pick: static (and file-scope const) tables of
 *   pointers to coefficient tables, an entry chosen by a loop index (the
 *   same in every lane) or per example, walked with `*coeffs++`, as
 *   eraEpv00 sums its series; a short table ends at a guard page.
 *
 * NAME_batched bit for bit against the scalar function over many inputs
 * (lanes taking different branches), every buffer ending at a guard page;
 * NAME_grad against Richardson-extrapolated central differences
 * (exec_fd.h) and against NAME_jvp. */
#include "exec_fd.h"
#include "exec_util.h"

#include "../common/test_filter.h"

#include <stdint.h>
#include <sys/mman.h>

static void same(const char *what, size_t e, double got, double want) {
  if (memcmp(&got, &want, sizeof got)) {
    print_error("%s example %zu: %.17g, want %.17g\n", what, e, got, want);
    fail();
  }
}

static void near(const char *what, size_t e, double got, double want) {
  if (!close_to(got, want, 1e-12)) {
    print_error("%s example %zu: %.17g, want %.17g\n", what, e, got, want);
    fail();
  }
}

/* ---- a member of a written record as a helper's out-pointer ------------ */

typedef struct {
  double pmt;
  double eb[3];
  double eh[3];
  double em;
  double v[3];
  double bm1;
} es_astrom;
#define ES_DOUBLES 12

static double es_pm(const double p[3]) {
  return sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
}
static void es_zp(double p[3]) { p[0] = p[1] = p[2] = 0.0; }
static void es_sxp(double s, const double p[3], double u[3]) {
  int i;
  for (i = 0; i < 3; i++)
    u[i] = s * p[i];
}
/* modulus into *r, unit vector into u (a null vector: zeros) */
static void es_pn(const double p[3], double *r, double u[3]) {
  double w = es_pm(p);
  if (w == 0.0)
    es_zp(u);
  else
    es_sxp(1.0 / w, p, u);
  *r = w;
}
/* reads and writes through the pointer */
static void es_scale(double *r, double k) { r[0] = *r * k + 0.5; }

BATCHDIFF BD_JVP void es_prep(double date, double x, double y, int k,
                              es_astrom *a) {
  double ph[3], pb[3], w, v2;
  int i;
  a->pmt = date * 0.01;
  ph[0] = k & 1 ? 0.5 : x;
  ph[1] = k & 1 ? -0.25 : y * date;
  ph[2] = k & 1 ? 0.125 : (x < 0.0 ? 0.25 * date : x * y);
  for (i = 0; i < 3; i++)
    pb[i] = ph[i] + 0.5 * (i + 1) * y;
  es_pn(pb, &a->em, a->eb); /* an array member too */
  es_pn(ph, &a->em, a->eh); /* the same member again */
  es_scale(&a->em, date);
  double *m = &a->bm1; /* a local pointer to a member */
  *m = a->em * 2.0;
  v2 = 0.0;
  for (i = 0; i < 3; i++) {
    w = 1e-4 * (a->eb[i] - y * a->eh[i]);
    a->v[i] = w;
    v2 += w * w;
  }
  if (k & 2)
    es_scale(m, 1.0 - v2);
  else
    m[0] = sqrt(1.0 - v2) + a->em;
}

static void prep_all(double date, double x, double y, int k, double *out) {
  es_astrom a;
  memset(&a, 0, sizeof a);
  es_prep(date, x, y, k, &a);
  memcpy(out, &a, sizeof a);
}

/* the weighted sum of the outputs, as a function of input j */
typedef struct {
  double in[3];
  int k;
  const double *w;
  int j;
} prep_ctx;
static double prep_sum(double t, const void *p) {
  const prep_ctx *c = p;
  double in[3] = {c->in[0], c->in[1], c->in[2]}, out[ES_DOUBLES], s = 0.0;
  in[c->j] = t;
  prep_all(in[0], in[1], in[2], c->k, out);
  for (int m = 0; m < ES_DOUBLES; m++)
    s += c->w[m] * out[m];
  return s;
}

static void t_prep(void **state) {
  (void)state;
  _Static_assert(sizeof(es_astrom) == ES_DOUBLES * sizeof(double), "layout");
  rng_t rng = {0x2545F4914F6CDD1DULL};
  fd_count fc = {0, 256};
  for (size_t t = 0; t < N_TEST_NS; t++) {
    size_t n = test_ns[t];
    double *d = gp_alloc(n * 8), *x = gp_alloc(n * 8), *y = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    es_astrom *a = gp_alloc(n * sizeof *a), *da = gp_alloc(n * sizeof *a);
    es_astrom *ta = gp_alloc(n * sizeof *a);
    double *dd = gp_alloc(n * 8), *dx = gp_alloc(n * 8), *dy = gp_alloc(n * 8);
    double *td = gp_alloc(n * 8), *tx = gp_alloc(n * 8), *ty = gp_alloc(n * 8);
    double *wt = gp_alloc(n * sizeof *a);
    for (size_t e = 0; e < n; e++) {
      d[e] = rng_range(&rng, -3.0, 3.0);
      x[e] = rng_range(&rng, -2.0, 2.0);
      y[e] = rng_below(&rng, 8) ? rng_range(&rng, -2.0, 2.0) : 0.0;
      k[e] = rng_below(&rng, 4);
      if (k[e] == 0 && rng_below(&rng, 6) == 0)
        x[e] = 0.0; /* a null vector: the other branch of es_pn */
      for (int m = 0; m < ES_DOUBLES; m++)
        wt[e * ES_DOUBLES + m] = rng_range(&rng, -1.0, 1.0);
      dd[e] = dx[e] = dy[e] = 0.0;
    }
    gp_seal(d);
    gp_seal(x);
    gp_seal(y);
    gp_seal(k);
    memset(a, 0xA5, n * sizeof *a);
    es_prep_batched(n, d, x, y, k, a, 1);
    for (size_t e = 0; e < n; e++) {
      double want[ES_DOUBLES];
      prep_all(d[e], x[e], y[e], k[e], want);
      for (int m = 0; m < ES_DOUBLES; m++)
        same("es_prep", e * ES_DOUBLES + m, ((const double *)&a[e])[m],
             want[m]);
    }
    /* the gradient of sum(w * outputs) */
    memcpy(da, wt, n * sizeof *a);
    memset(a, 0, n * sizeof *a);
    es_prep_grad(n, d, x, y, k, a, 1, dd, dx, dy, da, 1);
    for (size_t e = 0; e < n; e++) {
      prep_ctx c = {{d[e], x[e], y[e]}, k[e], wt + e * ES_DOUBLES, 0};
      double g[3] = {dd[e], dx[e], dy[e]};
      /* (a null vector: the modulus sqrt(0) has no derivative, NaN in
         NAME_grad as in any AD of the scalar code) */
      if (k[e] == 0 && x[e] == 0.0)
        continue;
      for (c.j = 0; c.j < 3; c.j++)
        fd_check(&fc, "es_prep", prep_sum, &c, c.in[c.j], g[c.j]);
      for (int m = 0; m < ES_DOUBLES; m++) /* pure outputs: 0 on exit */
        assert_true(((const double *)&da[e])[m] == 0.0);
    }
    /* forward mode, one input at a time, against the gradient */
    for (int j = 0; j < 3; j++) {
      for (size_t e = 0; e < n; e++)
        td[e] = j == 0, tx[e] = j == 1, ty[e] = j == 2;
      memset(ta, 0, n * sizeof *ta);
      es_prep_jvp(n, d, x, y, k, a, 1, td, tx, ty, ta, 1);
      for (size_t e = 0; e < n; e++) {
        double s = 0.0, g = j == 0 ? dd[e] : j == 1 ? dx[e] : dy[e];
        if (k[e] == 0 && x[e] == 0.0)
          continue;
        for (int m = 0; m < ES_DOUBLES; m++)
          s += wt[e * ES_DOUBLES + m] * ((const double *)&ta[e])[m];
        near("es_prep jvp", e, s, g);
      }
    }
    gp_reset();
  }
  fd_expect(&fc, "es_prep", 2000);
}

/* ---- tables of pointers to coefficient tables (eraEpv00's shape) -------- */

/* Series in t of terms a cos(b + c t), t^1 a t cos(b + c t), one table per
 * coordinate, chosen through static tables of pointers by the loop index;
 * the velocity from the derivative, as eraEpv00 computes it. cos and sin
 * are rational stand-ins here, arithmetic only, so that NAME_batched is
 * bit for bit the scalar function (the vector cos and sin may differ from
 * the C library's by an ulp: docs/abi.md). */
static double es_cos(double p) { return 1.0 / (1.0 + p * p); }
static double es_sin(double p) { return p / (1.0 + p * p); }
#define ES_J2000 2451545.0
#define ES_JY 365.25
BATCHDIFF BD_JVP double es_epv(double date1, double date2, double pv[2][3]) {
  static const double t0x[] = {
      0.9998292878132e+00, 0.1753485171504e+01, 0.6283075850446e+01,
      0.8352579567414e-02, 0.1710344404582e+01, 0.1256615170089e+02,
      0.5611445335148e-02, 0.0000000000000e+00, 0.0000000000000e+00,
      0.1046664295572e-03, 0.1667225416770e+01, 0.1884922755134e+02};
  static const double t0y[] = {
      0.9998921098898e+00,  0.1826451977596e+00, 0.6283075850446e+01,
      -0.2442700893735e-01, 0.0000000000000e+00, 0.0000000000000e+00,
      0.8352929742915e-02,  0.1395277998680e+00, 0.1256615170089e+02};
  static const double t0z[] = {0.1020990837508e-02, 0.5385400575520e+00,
                               0.6283075850446e+01, 0.1210059890426e-03,
                               0.5128694698850e+00, 0.1256615170089e+02};
  static const double t1x[] = {0.1234046326004e-05, 0.0000000000000e+00,
                               0.0000000000000e+00, 0.5150068824701e-06,
                               0.6002664557501e+01, 0.1256615170089e+02};
  static const double t1y[] = {0.9303693127481e-03, 0.0000000000000e+00,
                               0.0000000000000e+00};
  static const double t1z[] = {
      0.2278290449966e-05, 0.3413716033863e+01, 0.6283075850446e+01,
      0.5429458209830e-07, 0.0000000000000e+00, 0.0000000000000e+00,
      0.1903240492525e-07, 0.3370592358297e+01, 0.1256615170089e+02};
  static const double *c0[] = {t0x, t0y, t0z}, *c1[] = {t1x, t1y, t1z};
  static const int n0[3] = {(int)(sizeof t0x / sizeof(double) / 3),
                            (int)(sizeof t0y / sizeof(double) / 3),
                            (int)(sizeof t0z / sizeof(double) / 3)},
                   n1[3] = {(int)(sizeof t1x / sizeof(double) / 3),
                            (int)(sizeof t1y / sizeof(double) / 3),
                            (int)(sizeof t1z / sizeof(double) / 3)};
  const double *coeffs;
  int i, j, nterms;
  double t, xyz, xyzd, a, b, c, p, ct, cp;
  t = ((date1 - ES_J2000) + date2) / ES_JY;
  for (i = 0; i < 3; i++) {
    xyz = 0.0;
    xyzd = 0.0;
    coeffs = c0[i];
    nterms = n0[i];
    for (j = 0; j < nterms; j++) {
      a = *coeffs++;
      b = *coeffs++;
      c = *coeffs++;
      p = b + c * t;
      xyz += a * es_cos(p);
      xyzd -= a * c * es_sin(p);
    }
    coeffs = c1[i];
    nterms = n1[i];
    for (j = 0; j < nterms; j++) {
      a = *coeffs++;
      b = *coeffs++;
      c = *coeffs++;
      ct = c * t;
      p = b + ct;
      cp = es_cos(p);
      xyz += a * t * cp;
      xyzd += a * (cp - ct * es_sin(p));
    }
    pv[0][i] = xyz;
    pv[1][i] = xyzd / ES_JY;
  }
  return fabs(t) <= 100.0 ? 0.0 : 1.0;
}

/* The same tables chosen per example (k), so lanes walk tables of
 * different lengths with different trip counts; a table of pointers with
 * offsets and a repeated table, at file scope, whose short table ends at a
 * guard page (laid out in assembly, as in test_table_choice.c). */
__asm__(".pushsection bd_es_tables, \"aw\"\n"
        ".balign 4096\n"
        ".skip 4072\n"
        "bd_es_short:\n"
        ".double 0.5, -1.5, 2.25\n"
        "bd_es_guard:\n"
        ".skip 4096\n"
        ".popsection\n");
/* (8-byte aligned, not the 16 the x86-64 ABI gives an array of 16 bytes or
 * more: ending at the guard page puts it at 8 mod 16.) */
extern const double ES_SHORT[3] __asm__("bd_es_short") __attribute__((aligned(8)));
extern char ES_GUARD[4096] __asm__("bd_es_guard");
static const double ES_LONG[8] = {1.0, 0.25, -0.5, 2.0, 0.125, -1.0, 0.75, 3.0};
static const double *const ES_PICK[5] = {ES_LONG, ES_SHORT, ES_LONG + 4,
                                         &ES_LONG[2], ES_SHORT + 1};
static const int ES_LEN[5] = {8, 3, 4, 6, 2};

BATCHDIFF BD_JVP double es_pick(double x, int k) {
  int m = k % 5;
  const double *c = ES_PICK[m], *end = c + ES_LEN[m];
  double s = 0.0;
  while (c < end)
    s = s * x + *c++;
  return s + ES_PICK[(k + 1) % 5][0] * x;
}

/* eraEpv00's loops with the coordinate rotated per example. */
BATCHDIFF BD_JVP double es_rot(double t, int k, double out[3]) {
  static const double ra[] = {0.5, 0.25, 1.5, -0.75, 1.0, 0.5};
  static const double rb[] = {1.25, -0.5, 2.0};
  static const double rc[] = {-0.3, 0.1, 1.0, 0.2, 0.4, 3.0, 0.7, 0.9, 0.5};
  static const double *r0[] = {ra, rb, rc}, *r1[] = {rc, ra + 3, rb};
  static const int q0[] = {2, 1, 3}, q1[] = {3, 1, 1};
  const double *coeffs;
  double s = 0.0;
  for (int i = 0; i < 3; i++) {
    int ii = (i + k) % 3, j;
    double xyz = 0.0;
    coeffs = r0[ii];
    for (j = 0; j < q0[ii]; j++) {
      double a = *coeffs++, b = *coeffs++, c = *coeffs++;
      xyz += a * es_cos(b + c * t);
    }
    coeffs = r1[ii];
    for (j = 0; j < q1[ii]; j++) {
      double a = *coeffs++, b = *coeffs++, c = *coeffs++;
      xyz += a * t * es_sin(b + c * t);
    }
    out[i] = xyz;
    s += xyz * xyz;
  }
  return s;
}

/* the weighted sum of es_epv's outputs and return value, in date2 */
static double epv_sum(double t, const void *p) {
  const double *c = p; /* date1, weights[7] */
  double pv[2][3];
  double r = es_epv(c[0], t, pv), s = c[7] * r;
  for (int m = 0; m < 6; m++)
    s += c[1 + m] * pv[m / 3][m % 3];
  return s;
}

static void t_epv(void **state) {
  (void)state;
  rng_t rng = {0x7A5B3C2D1E0F9081ULL};
  fd_count fc = {0, 256};
  for (size_t t = 0; t < N_TEST_NS; t++) {
    size_t n = test_ns[t];
    double *d1 = gp_alloc(n * 8), *d2 = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *pv = gp_alloc(n * 48), *dpv = gp_alloc(n * 48);
    double *tpv = gp_alloc(n * 48), *wt = gp_alloc(n * 48);
    double *g1 = gp_alloc(n * 8), *g2 = gp_alloc(n * 8), *dr = gp_alloc(n * 8);
    double *t1 = gp_alloc(n * 8), *t2 = gp_alloc(n * 8), *jr = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      /* dates around J2000, some beyond 100 years (the other return) */
      d1[e] = rng_below(&rng, 2) ? ES_J2000 : 2400000.5;
      d2[e] = rng_below(&rng, 10) ? rng_range(&rng, -30000.0, 30000.0)
                                  : rng_range(&rng, 40000.0, 60000.0);
      dr[e] = rng_range(&rng, -1.0, 1.0);
      for (int m = 0; m < 6; m++)
        wt[e * 6 + m] = rng_range(&rng, -1.0, 1.0);
      g1[e] = g2[e] = 0.0;
    }
    gp_seal(d1);
    gp_seal(d2);
    es_epv_batched(n, d1, d2, pv, 6, r);
    for (size_t e = 0; e < n; e++) {
      double want[2][3];
      same("es_epv", e, r[e], es_epv(d1[e], d2[e], want));
      for (int m = 0; m < 6; m++)
        same("es_epv pv", e * 6 + m, pv[e * 6 + m], want[m / 3][m % 3]);
    }
    memcpy(dpv, wt, n * 48);
    es_epv_grad(n, d1, d2, pv, 6, r, dr, g1, g2, dpv, 6);
    for (size_t e = 0; e < n; e++) {
      double c[8] = {d1[e]};
      memcpy(c + 1, wt + e * 6, 48);
      c[7] = dr[e];
      fd_check(&fc, "es_epv", epv_sum, c, d2[e], g2[e]);
      near("es_epv d_date1", e, g1[e], g2[e]);
    }
    for (size_t e = 0; e < n; e++)
      t1[e] = 0.0, t2[e] = 1.0;
    memset(tpv, 0, n * 48);
    es_epv_jvp(n, d1, d2, pv, 6, t1, t2, tpv, 6, r, jr);
    for (size_t e = 0; e < n; e++) {
      double s = dr[e] * jr[e];
      for (int m = 0; m < 6; m++)
        s += wt[e * 6 + m] * tpv[e * 6 + m];
      near("es_epv jvp", e, s, g2[e]);
    }
    gp_reset();
  }
  fd_expect(&fc, "es_epv", 900);
}

typedef struct {
  int k;
} pick_ctx;
static double pick_x(double x, const void *p) {
  return es_pick(x, ((const pick_ctx *)p)->k);
}

static void t_pick(void **state) {
  (void)state;
  rng_t rng = {0x1F83D9ABFB41BD6BULL};
  fd_count fc = {0, 64};
  assert_true(gp_ends_at(ES_SHORT + 3, ES_GUARD));
  assert_int_equal(mprotect(ES_GUARD, 4096, PROT_NONE), 0);
  for (size_t t = 0; t < N_TEST_NS; t++) {
    size_t n = test_ns[t];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *g = gp_alloc(n * 8);
    double *tx = gp_alloc(n * 8), *jr = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -2.0, 2.0);
      k[e] = rng_below(&rng, 1000);
      g[e] = 0.0, tx[e] = 1.0;
    }
    gp_seal(x);
    gp_seal(k);
    es_pick_batched(n, x, k, r);
    for (size_t e = 0; e < n; e++)
      same("es_pick", e, r[e], es_pick(x[e], k[e]));
    es_pick_grad(n, x, k, NULL, NULL, g);
    es_pick_jvp(n, x, k, tx, NULL, jr);
    for (size_t e = 0; e < n; e++) {
      pick_ctx c = {k[e]};
      fd_check(&fc, "es_pick", pick_x, &c, x[e], g[e]);
      near("es_pick jvp", e, jr[e], g[e]);
    }
    gp_reset();
  }
  assert_int_equal(mprotect(ES_GUARD, 4096, PROT_READ | PROT_WRITE), 0);
  fd_expect(&fc, "es_pick", 900);
}

static double rot_t(double t, const void *p) {
  double out[3];
  const double *c = p; /* k, weights[3], seed */
  double s = c[4] * es_rot(t, (int)c[0], out);
  for (int m = 0; m < 3; m++)
    s += c[1 + m] * out[m];
  return s;
}

static void t_rot(void **state) {
  (void)state;
  rng_t rng = {0x9C4F2B1A0E8D7C6BULL};
  fd_count fc = {0, 64};
  for (size_t t = 0; t < N_TEST_NS; t++) {
    size_t n = test_ns[t];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *g = gp_alloc(n * 8);
    double *o = gp_alloc(n * 24), *dout = gp_alloc(n * 24);
    double *wt = gp_alloc(n * 24), *dr = gp_alloc(n * 8);
    double *tx = gp_alloc(n * 8), *to = gp_alloc(n * 24), *jr = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -3.0, 3.0);
      k[e] = rng_below(&rng, 3);
      dr[e] = rng_range(&rng, -1.0, 1.0);
      for (int m = 0; m < 3; m++)
        wt[e * 3 + m] = rng_range(&rng, -1.0, 1.0);
      g[e] = 0.0, tx[e] = 1.0;
    }
    gp_seal(x);
    gp_seal(k);
    es_rot_batched(n, x, k, o, 3, r);
    for (size_t e = 0; e < n; e++) {
      double want[3];
      same("es_rot", e, r[e], es_rot(x[e], k[e], want));
      for (int m = 0; m < 3; m++)
        same("es_rot out", e * 3 + m, o[e * 3 + m], want[m]);
    }
    memcpy(dout, wt, n * 24);
    es_rot_grad(n, x, k, o, 3, r, dr, g, dout, 3);
    memset(to, 0, n * 24);
    es_rot_jvp(n, x, k, o, 3, tx, to, 3, NULL, jr);
    for (size_t e = 0; e < n; e++) {
      double c[5] = {(double)k[e], wt[e * 3], wt[e * 3 + 1], wt[e * 3 + 2],
                     dr[e]};
      fd_check(&fc, "es_rot", rot_t, c, x[e], g[e]);
      double s = dr[e] * jr[e];
      for (int m = 0; m < 3; m++)
        s += wt[e * 3 + m] * to[e * 3 + m];
      near("es_rot jvp", e, s, g[e]);
    }
    gp_reset();
  }
  fd_expect(&fc, "es_rot", 900);
}

/* ---- array members of a written record at a per-example index ---------- */

/* Each example writes and reads its record's array members at indices of
 * its own (k), as ERFA fills astrom->eb[i]: every access is at the address
 * the scalar function uses (the member's elements in the example's own
 * record; nothing checks an index against the member's extent, as C does
 * not), so the last record, at the guard page, takes no fault and the bits
 * are the scalar function's. */
BATCHDIFF void es_members(double x, int k, es_astrom *a) {
  int i;
  a->pmt = x;
  for (i = 0; i < 3; i++)
    a->eb[i] = a->eh[i] = a->v[i] = 0.0;
  a->em = a->bm1 = 0.0;
  a->eb[k % 3] = x * 3.0;
  a->v[(k + 1) % 3] += a->eb[k % 3] + 1.0;
  a->eh[k % 3] = x - 1.0;
  a->bm1 = a->eh[(k + 2) % 3] + a->em;
}

static void t_members(void **state) {
  (void)state;
  rng_t rng = {0x51AF2C88B3D1E407ULL};
  for (size_t t = 0; t < N_TEST_NS; t++) {
    size_t n = test_ns[t];
    double *x = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    es_astrom *a = gp_alloc(n * sizeof *a);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -3.0, 3.0);
      k[e] = rng_below(&rng, 12);
    }
    gp_seal(x);
    gp_seal(k);
    memset(a, 0xA5, n * sizeof *a);
    es_members_batched(n, x, k, a, 1);
    for (size_t e = 0; e < n; e++) {
      es_astrom w;
      memset(&w, 0xA5, sizeof w);
      es_members(x[e], k[e], &w);
      for (int m = 0; m < ES_DOUBLES; m++)
        same("es_members", e * ES_DOUBLES + m, ((const double *)&a[e])[m],
             ((const double *)&w)[m]);
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_prep), cmocka_unit_test(t_epv),
      cmocka_unit_test(t_pick), cmocka_unit_test(t_rot),
      cmocka_unit_test(t_members)};
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_erfa_shapes", tests, NULL, NULL);
}
