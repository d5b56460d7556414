/* Extents inferred through calls of helpers (docs/abi.md, "Array
 * parameters"): a pointer parameter passed to a static helper of the file
 * that indexes it in a loop of its own, with no BD_EXTENT:
 *   - gp_like: rows of a flattened n x d matrix, `dot(x + (size_t)i * d, x +
 *     (size_t)i * d, (size_t)d)` under `i < n` (n x d), ragged (n and d per
 *     example), strided and BD_POINTERS with each example's n * d elements
 *     ending at a guard page (a read past them faults); float too;
 *   - rows_axpy: an output array written by a helper, `axpy(y + i * d, a, x
 *     + i * d, d)`;
 *   - nest: a helper calling a helper calling a helper (sumrows -> sq ->
 *     dot), rows in the middle one;
 *   - tail7: a constant offset and a constant count, `wsum(x + 3, 4)`
 *     (static 7); pts: rows of 3, `norm3(x + 3 * i)` (3 n).
 * NAME_batched against the scalar function bit for bit (gp_like and
 * gp_like_f within a few ULPs: the generated code's exp is the runtime's,
 * within 1 ULP, docs/abi.md "Accuracy"; their layouts and NAME_grad's ret
 * bit for bit against each other); NAME_grad against Richardson central
 * differences of the scalar function (exec_fd.h) or closed forms.
 * Before, each was "cannot infer the extent of 'x' ...: it is used as a
 * pointer here". */
#include "exec_fd.h"
#include "exec_util.h"

#include "../common/test_filter.h"

static double dot(const double *a, const double *b, size_t n) {
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

BATCHDIFF double gp_like(const double *x, int n, int d, BD_UNIFORM double ell) {
  double acc = 0;
  for (int i = 0; i < n; i++) {
    double q = dot(x + (size_t)i * d, x + (size_t)i * d, (size_t)d);
    acc += exp(-q / (2 * ell * ell));
  }
  return acc;
}

BATCHDIFF double gp_like_p(BD_POINTERS const double *x, int n, int d,
                           BD_UNIFORM double ell) {
  return gp_like(x, n, d, ell);
}

static float dotf(const float *a, const float *b, int n) {
  float s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}

BATCHDIFF float gp_like_f(const float *x, int n, int d, float ell) {
  float acc = 0;
  for (int i = 0; i < n; i++)
    acc += expf(-dotf(&x[i * d], x + i * d, d) / (2 * ell * ell));
  return acc;
}

static void axpy(double *y, double a, const double *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}

BATCHDIFF void rows_axpy(double *y, const double *x, int n, int d, double a) {
  for (int i = 0; i < n; i++)
    axpy(y + i * d, a / (i + 1), x + i * d, d);
}

static double sq(const double *a, int m) { return dot(a, a, (size_t)m); }

static double sumrows(const double *m, int r, int c) {
  double s = 0;
  for (int i = 0; i < r; i++)
    s += 1 / (1 + sq(m + i * c, c));
  return s;
}

BATCHDIFF double nest(const double *x, int n, int d) {
  return sumrows(x, n, d);
}

static double wsum(const double *a, int m) {
  double s = 0;
  for (int i = 0; i < m; i++)
    s += (i + 1) * a[i] * a[i];
  return s;
}

BATCHDIFF double tail7(const double *x) {
  return x[0] * wsum(x + 3, 4) + wsum(x, 2);
}

static double norm3(const double *p) {
  return sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
}

BATCHDIFF double pts(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += norm3(x + 3 * i) * (i + 1);
  return s;
}

#define NB 37 /* examples: several full vectors and a tail */
#define MAXN 5
#define MAXD 4
#define S (MAXN * MAXD) /* the strided layout's stride */

static int same_d(double a, double b) { return !memcmp(&a, &b, sizeof a); }
static int same_f(float a, float b) { return !memcmp(&a, &b, sizeof a); }

/* Example b's n (0..MAXN) and d (1..MAXD), its n * d values strided at S
 * and, for BD_POINTERS, in a block of its own ending at a guard page. */
typedef struct {
  int n[NB], d[NB];
  double *x;
  const double *xp[NB];
} rows;

static void make_rows(rows *R, rng_t *r) {
  R->x = gp_alloc(NB * S * sizeof(double));
  for (int b = 0; b < NB; b++) {
    R->n[b] = b == 5 ? 0 : rng_below(r, MAXN + 1);
    R->d[b] = 1 + rng_below(r, MAXD);
    int k = R->n[b] * R->d[b];
    double *own = gp_alloc((k ? k : 1) * sizeof(double));
    own += k ? 0 : 1; /* none: the guard page itself */
    for (int i = 0; i < S; i++)
      R->x[b * S + i] = rng_range(r, -1.5, 1.5);
    memcpy(own, R->x + b * S, k * sizeof(double));
    R->xp[b] = own;
  }
}

/* One scalar function of one element of an example's array, for the
 * differences: the element to move, and the function at that example. */
typedef struct {
  double *at;
  double (*f)(const void *);
  const void *ctx;
} moved;

static double move(double v, const void *p) {
  const moved *m = p;
  double keep = *m->at;
  *m->at = v;
  double r = m->f(m->ctx);
  *m->at = keep;
  return r;
}

typedef struct {
  double *x;
  int n, d;
  double ell;
} gp_ctx;

static double gp_at(const void *p) {
  const gp_ctx *c = p;
  return gp_like(c->x, c->n, c->d, c->ell);
}

static void t_gp_like(void **state) {
  (void)state;
  rng_t r = {0x6e71ULL};
  rows R;
  make_rows(&R, &r);
  double ell = 0.9, got_s[NB], got_p[NB], ret[NB];
  gp_like_batched(NB, R.x, S, R.n, R.d, ell, got_s);
  gp_like_p_batched(NB, R.xp, R.n, R.d, ell, got_p);
  double *dx = gp_alloc(NB * S * sizeof(double)), dell = 0;
  memset(dx, 0, NB * S * sizeof(double));
  gp_like_grad(NB, R.x, S, R.n, R.d, ell, ret, NULL, dx, S, &dell);
  fd_count c = {0, 64};
  double want_dell = 0;
  for (int b = 0; b < NB; b++) {
    double want = gp_like(R.x + b * S, R.n[b], R.d[b], ell);
    if (fabs(want - got_s[b]) > 1e-14 * fabs(want) ||
        !same_d(got_s[b], got_p[b]) || !same_d(got_s[b], ret[b]))
      fail_msg("gp_like example %d (n %d, d %d): %a, strided %a, pointers %a, "
               "grad's ret %a",
               b, R.n[b], R.d[b], want, got_s[b], got_p[b], ret[b]);
    gp_ctx g = {R.x + b * S, R.n[b], R.d[b], ell};
    for (int i = 0; i < S; i++) {
      moved m = {R.x + b * S + i, gp_at, &g};
      if (i < R.n[b] * R.d[b])
        fd_check(&c, "gp_like / x", move, &m, R.x[b * S + i], dx[b * S + i]);
      else if (dx[b * S + i] != 0)
        fail_msg("d gp_like / d x[%d] example %d (n %d, d %d) past the "
                 "extent: %g",
                 i, b, R.n[b], R.d[b], dx[b * S + i]);
    }
    double h = 1e-5;
    want_dell +=
        (gp_like(g.x, g.n, g.d, ell + h) - gp_like(g.x, g.n, g.d, ell - h)) /
        (2 * h);
  }
  if (fabs(dell - want_dell) > 1e-6 * (1 + fabs(want_dell)))
    fail_msg("d gp_like / d ell: %.17g, differences %.17g", dell, want_dell);
  fd_expect(&c, "gp_like", 200);
  gp_reset();
}

static void t_gp_like_f(void **state) {
  (void)state;
  rng_t r = {0x6e72ULL};
  float *x = gp_alloc(NB * S * sizeof(float)), ell[NB], got[NB], ret[NB];
  float *dx = gp_alloc(NB * S * sizeof(float)), dell[NB];
  int n[NB], d[NB];
  for (int b = 0; b < NB; b++) {
    n[b] = rng_below(&r, MAXN + 1);
    d[b] = 1 + rng_below(&r, MAXD);
    ell[b] = (float)rng_range(&r, 0.7, 1.3);
    for (int i = 0; i < S; i++)
      x[b * S + i] = (float)rng_range(&r, -1.5, 1.5);
  }
  memset(dx, 0, NB * S * sizeof(float));
  memset(dell, 0, sizeof dell);
  gp_like_f_batched(NB, x, S, n, d, ell, got);
  gp_like_f_grad(NB, x, S, n, d, ell, ret, NULL, dx, S, dell);
  for (int b = 0; b < NB; b++) {
    float *xb = x + b * S;
    float want = gp_like_f(xb, n[b], d[b], ell[b]);
    if (fabsf(want - got[b]) > 8 * FLT_EPSILON * fabsf(want) ||
        !same_f(got[b], ret[b]))
      fail_msg("gp_like_f example %d (n %d, d %d): %a, batched %a, grad's %a",
               b, n[b], d[b], want, got[b], ret[b]);
    /* The derivatives in closed form (double): -q'/(2 ell^2) e^(-q/(2
     * ell^2)) per row, q = |row|^2. */
    double want_dell = 0;
    for (int i = 0; i < n[b]; i++) {
      double q = 0, e2 = 2.0 * ell[b] * ell[b];
      for (int j = 0; j < d[b]; j++)
        q += (double)xb[i * d[b] + j] * xb[i * d[b] + j];
      double e = exp(-q / e2);
      want_dell += e * 2 * q / (e2 * ell[b]);
      for (int j = 0; j < d[b]; j++) {
        double want_d = -e * 2 * xb[i * d[b] + j] / e2;
        if (fabs(dx[b * S + i * d[b] + j] - want_d) > 1e-5 * (1 + fabs(want_d)))
          fail_msg("d gp_like_f / d x[%d][%d] example %d: %g, want %g", i, j, b,
                   dx[b * S + i * d[b] + j], want_d);
      }
    }
    for (int k = n[b] * d[b]; k < S; k++)
      if (dx[b * S + k] != 0)
        fail_msg("d gp_like_f / d x[%d] example %d past the extent: %g", k, b,
                 dx[b * S + k]);
    if (fabs(dell[b] - want_dell) > 1e-5 * (1 + fabs(want_dell)))
      fail_msg("d gp_like_f / d ell example %d: %g, want %g", b, dell[b],
               want_dell);
  }
  gp_reset();
}

/* rows_axpy: y_out[i][j] = y[i][j] + a / (i + 1) x[i][j]; with cotangents
 * w: d_y = w, d_x[i][j] = w a / (i + 1), d_a = sum w x / (i + 1). */
static void t_rows_axpy(void **state) {
  (void)state;
  rng_t r = {0x6e73ULL};
  rows R;
  make_rows(&R, &r);
  double *y = gp_alloc(NB * S * sizeof(double)), y0[NB * S], a[NB];
  double *dy = gp_alloc(NB * S * sizeof(double)), w[NB * S];
  double *dx = gp_alloc(NB * S * sizeof(double)), da[NB];
  for (int k = 0; k < NB * S; k++)
    y0[k] = rng_range(&r, -1, 1), w[k] = rng_range(&r, -1, 1);
  for (int b = 0; b < NB; b++)
    a[b] = rng_range(&r, -2, 2);
  memcpy(y, y0, sizeof y0);
  rows_axpy_batched(NB, y, S, R.x, S, R.n, R.d, a);
  for (int b = 0; b < NB; b++) {
    double want[S];
    memcpy(want, y0 + b * S, sizeof want);
    rows_axpy(want, R.x + b * S, R.n[b], R.d[b], a[b]);
    for (int k = 0; k < S; k++)
      if (!same_d(want[k], y[b * S + k]))
        fail_msg("rows_axpy example %d (n %d, d %d) y[%d]: %a, batched %a", b,
                 R.n[b], R.d[b], k, want[k], y[b * S + k]);
  }
  memcpy(y, y0, sizeof y0);
  memcpy(dy, w, sizeof w);
  memset(dx, 0, NB * S * sizeof(double));
  memset(da, 0, sizeof da);
  rows_axpy_grad(NB, y, S, R.x, S, R.n, R.d, a, dy, S, dx, S, da);
  for (int b = 0; b < NB; b++) {
    double want_da = 0;
    for (int k = 0; k < S; k++) {
      int i = k / (R.d[b] ? R.d[b] : 1), in = k < R.n[b] * R.d[b];
      double xk = R.x[b * S + k];
      double want_dx = in ? w[b * S + k] * (a[b] / (i + 1)) : 0;
      want_da += in ? w[b * S + k] * xk / (i + 1) : 0;
      if (dy[b * S + k] != w[b * S + k])
        fail_msg("d rows_axpy / d y[%d] example %d: %g, want %g", k, b,
                 dy[b * S + k], w[b * S + k]);
      if (fabs(dx[b * S + k] - want_dx) > 1e-12 * (1 + fabs(want_dx)))
        fail_msg("d rows_axpy / d x[%d] example %d: %g, want %g", k, b,
                 dx[b * S + k], want_dx);
    }
    if (fabs(da[b] - want_da) > 1e-12 * (1 + fabs(want_da)))
      fail_msg("d rows_axpy / d a example %d: %g, want %g", b, da[b], want_da);
  }
  gp_reset();
}

typedef struct {
  double *x;
  int n, d;
} nd_ctx;

static double nest_at(const void *p) {
  const nd_ctx *c = p;
  return nest(c->x, c->n, c->d);
}

static void t_nest(void **state) {
  (void)state;
  rng_t r = {0x6e74ULL};
  rows R;
  make_rows(&R, &r);
  double got[NB], *dx = gp_alloc(NB * S * sizeof(double));
  memset(dx, 0, NB * S * sizeof(double));
  nest_batched(NB, R.x, S, R.n, R.d, got);
  nest_grad(NB, R.x, S, R.n, R.d, NULL, NULL, dx, S);
  fd_count c = {0, 64};
  for (int b = 0; b < NB; b++) {
    double want = nest(R.x + b * S, R.n[b], R.d[b]);
    if (!same_d(want, got[b]))
      fail_msg("nest example %d (n %d, d %d): %a, batched %a", b, R.n[b],
               R.d[b], want, got[b]);
    nd_ctx g = {R.x + b * S, R.n[b], R.d[b]};
    for (int i = 0; i < S; i++) {
      moved m = {R.x + b * S + i, nest_at, &g};
      if (i < R.n[b] * R.d[b])
        fd_check(&c, "nest / x", move, &m, R.x[b * S + i], dx[b * S + i]);
      else if (dx[b * S + i] != 0)
        fail_msg("d nest / d x[%d] example %d past the extent: %g", i, b,
                 dx[b * S + i]);
    }
  }
  fd_expect(&c, "nest", 160);
  gp_reset();
}

static double tail7_at(const void *p) { return tail7(((const nd_ctx *)p)->x); }
static double pts_at(const void *p) {
  const nd_ctx *c = p;
  return pts(c->x, c->n);
}

/* tail7 (7 elements per example) and pts (3 n): strided, and tail7 with a
 * stride of exactly 7 and the last example's 7 ending at a guard page. */
static void t_constant_rows(void **state) {
  (void)state;
  rng_t r = {0x6e75ULL};
  enum { P = 3 * MAXN };
  double *x7 = gp_alloc(NB * 7 * sizeof(double)), *d7 = gp_alloc(NB * 7 * 8);
  double *xp = gp_alloc(NB * P * sizeof(double)), *dp = gp_alloc(NB * P * 8);
  double got7[NB], gotp[NB];
  int n[NB];
  for (int b = 0; b < NB; b++) {
    n[b] = rng_below(&r, MAXN + 1);
    for (int i = 0; i < 7; i++)
      x7[b * 7 + i] = rng_range(&r, -2, 2);
    for (int i = 0; i < P; i++)
      xp[b * P + i] = rng_range(&r, -2, 2);
  }
  memset(d7, 0, NB * 7 * sizeof(double));
  memset(dp, 0, NB * P * sizeof(double));
  tail7_batched(NB, x7, 7, got7);
  tail7_grad(NB, x7, 7, NULL, NULL, d7, 7);
  pts_batched(NB, xp, P, n, gotp);
  pts_grad(NB, xp, P, n, NULL, NULL, dp, P);
  fd_count c = {0, 64};
  for (int b = 0; b < NB; b++) {
    double want7 = tail7(x7 + b * 7), wantp = pts(xp + b * P, n[b]);
    if (!same_d(want7, got7[b]) || !same_d(wantp, gotp[b]))
      fail_msg("example %d: tail7 %a, batched %a; pts (n %d) %a, batched %a", b,
               want7, got7[b], n[b], wantp, gotp[b]);
    nd_ctx g7 = {x7 + b * 7, 0, 0}, gp = {xp + b * P, n[b], 3};
    for (int i = 0; i < 7; i++) {
      moved m = {x7 + b * 7 + i, tail7_at, &g7};
      fd_check(&c, "tail7 / x", move, &m, x7[b * 7 + i], d7[b * 7 + i]);
    }
    for (int i = 0; i < P; i++) {
      moved m = {xp + b * P + i, pts_at, &gp};
      if (i < 3 * n[b])
        fd_check(&c, "pts / x", move, &m, xp[b * P + i], dp[b * P + i]);
      else if (dp[b * P + i] != 0)
        fail_msg("d pts / d x[%d] example %d past the extent: %g", i, b,
                 dp[b * P + i]);
    }
  }
  fd_expect(&c, "tail7, pts", 450);
  gp_reset();
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_gp_like),       cmocka_unit_test(t_gp_like_f),
      cmocka_unit_test(t_rows_axpy),     cmocka_unit_test(t_nest),
      cmocka_unit_test(t_constant_rows),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_extent_helpers", tests, NULL, NULL);
}
