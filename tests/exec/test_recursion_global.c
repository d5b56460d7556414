/* Recursion in a function that writes a global (docs/calls.md,
 * "Recursion"; docs/globals.md, "File-scope data"): each example's
 * recursive call is made with the global as that example left it and the
 * example's variable reads back what the call left, so the global is one
 * value per example as in the scalar loop:
 *   - lg, the shape of cephes' lgam (gamma.c): `lsign = 1;` at entry, for
 *     x < -6 the reflection `w = lg(-x)` (a recursive call that sets lsign
 *     itself), then lsign = +-1, but on the pole path, which returns
 *     leaving what the recursive call left; a recurrence to [2, 3) and a
 *     Stirling sum (a test function, not a good log gamma);
 *   - gam, which calls lg and reads lsign (the sign of Gamma, as cephes'
 *     beta reads sgngam): lg inlined, its recursion through lg_grad;
 *   - rdepth, which reads after its recursive call the value that call
 *     left in the global (depth = depth + 1: the recursion's depth);
 *     rdepth_n, the same without `depth = 0;` before the call (no path to
 *     it writes the global, every path through the function does: what
 *     the call left is read back); and rdepth_b, rdepth under batch only
 *     (its recursive call made on the scalar function).
 * For every n: values against the scalar loop (within 1e-13: log and sin
 * are the runtime's), gradients against closed forms of the scalar
 * program's derivative (seeds and NULL), and the global after the call:
 * the value the last example left. 1 and 2 threads give the same bits. */
#include "exec_util.h"

#include "../common/test_filter.h"

#include <batchdiff/parallel.h>

#include <math.h>
#include <string.h>

#define LPI 1.14472988584940017414   /* log(pi) */
#define LS2PI 0.91893853320467274178 /* log(sqrt(2 pi)) */

int lsign;
int depth;

/* Stirling's sum for x >= 2 (a few terms). */
static double stir(double x) {
  double r = 1.0 / x;
  return (x - 0.5) * log(x) - x + LS2PI + r * (1.0 / 12 - r * r / 360);
}

BATCHDIFF double lg(double x) {
  double p, q, u, w, z;
  int i;
  lsign = 1;
  if (x < -6.0) {
    q = -x;
    w = lg(q); /* sets lsign */
    p = floor(q);
    if (p == q)
      return INFINITY; /* lsign: what lg(q) left */
    i = p;
    if ((i & 1) == 0)
      lsign = -1;
    else
      lsign = 1;
    z = q - p;
    if (z > 0.5) {
      p += 1.0;
      z = p - q;
    }
    z = q * sin(3.14159265358979323846 * z);
    return LPI - log(z) - w;
  }
  if (x < 2.0) {
    z = 1.0;
    u = x;
    while (u < 2.0) {
      if (u == 0.0)
        return INFINITY;
      z /= u;
      u += 1.0;
    }
    if (z < 0.0) {
      lsign = -1;
      z = -z;
    }
    return log(z) + stir(u);
  }
  return stir(x);
}

BATCHDIFF double gam(double x) {
  double y = lg(x);
  return lsign * exp(y);
}

BATCHDIFF double rdepth(double x, int k) {
  depth = 0;
  if (k <= 0) {
    depth = 1;
    return x;
  }
  double y = rdepth(x * 0.5, k - 1); /* sets depth */
  depth = depth + 1;
  return sin(y) + x * depth;
}

/* The global written after the recursive call only (and on the path
 * without it): the value the call left is read back. */
BATCHDIFF double rdepth_n(double x, int k) {
  if (k <= 0) {
    depth = 1;
    return x;
  }
  double y = rdepth_n(x * 0.5, k - 1); /* sets depth */
  depth = depth + 1;
  return sin(y) + x * depth;
}

/* Under batch only: the recursive call is made on the scalar function. */
__attribute__((batch)) double rdepth_b(double x, int k) {
  depth = 0;
  if (k <= 0) {
    depth = 1;
    return x;
  }
  double y = rdepth_b(x * 0.5, k - 1); /* sets depth */
  depth = depth + 1;
  return sin(y) + x * depth;
}

/* ---- closed forms ---------------------------------------------------- */

static double d_stir(double x) {
  double r = 1.0 / x;
  return log(x) + (x - 0.5) * r - 1.0 - r * r / 12 + r * r * r * r / 120;
}
static double d_lg(double x) {
  if (x < -6.0) {
    double q = -x, p = floor(q), zf = q - p, s = 1.0;
    if (zf > 0.5)
      zf = p + 1.0 - q, s = -1.0; /* dzf/dq */
    double a = 3.14159265358979323846 * zf;
    double z = q * sin(a);
    double dzdq = sin(a) + q * cos(a) * 3.14159265358979323846 * s;
    /* d/dx = -(dz/dx) / z - dw/dx, with dq/dx = -1 */
    return dzdq / z + d_lg(q);
  }
  if (x < 2.0) {
    double d = 0.0, u = x;
    while (u < 2.0)
      d -= 1.0 / u, u += 1.0;
    return d + d_stir(u);
  }
  return d_stir(x);
}
static double d_gam(double x) { return gam(x) * d_lg(x); }
static double d_rdepth(double x, int k) {
  if (k <= 0)
    return 1.0;
  return cos(rdepth(x * 0.5, k - 1)) * 0.5 * d_rdepth(x * 0.5, k - 1) + (k + 1);
}

/* ---- checks ---------------------------------------------------------- */

static double s_lg(double x, int k) { return (void)k, lg(x); }
static double s_gam(double x, int k) { return (void)k, gam(x); }
static double ds_lg(double x, int k) { return (void)k, d_lg(x); }
static double ds_gam(double x, int k) { return (void)k, d_gam(x); }
static void b_lg(size_t n, const double *x, const int *k, double *r) {
  (void)k, lg_batched(n, x, r);
}
static void b_gam(size_t n, const double *x, const int *k, double *r) {
  (void)k, gam_batched(n, x, r);
}
static void g_lg(size_t n, const double *x, const int *k, double *r,
                 const double *dr, double *dx) {
  (void)k, lg_grad(n, x, r, dr, dx);
}
static void g_gam(size_t n, const double *x, const int *k, double *r,
                  const double *dr, double *dx) {
  (void)k, gam_grad(n, x, r, dr, dx);
}

typedef double (*fn)(double, int);
typedef void (*bat)(size_t, const double *, const int *, double *);
typedef void (*grad)(size_t, const double *, const int *, double *,
                     const double *, double *);

struct fcase {
  const char *name;
  fn f, d;
  bat b;
  grad g;
  int *global; /* the global the function leaves */
  double lo, hi;
  int kmax;
};

static const size_t ns[] = {0, 1, WD - 1, WD, WD + 1, 2 * WF + 3, 100, 1003};
#define NNS (sizeof ns / sizeof ns[0])

/* x: mostly in [lo, hi], some negative integers (poles: the path that
 * leaves the recursive call's sign), some within 1e-3 of one. */
static double pick(rng_t *r, const struct fcase *c) {
  int w = rng_below(r, 10);
  if (c->kmax == 0 && w == 0)
    return -(double)(7 + rng_below(r, 20));
  if (c->kmax == 0 && w == 1)
    return -(double)(7 + rng_below(r, 20)) + rng_range(r, -1e-3, 1e-3);
  return rng_range(r, c->lo, c->hi);
}

static void check(const struct fcase *c) {
  rng_t rng = {name_seed(c->name)};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *dr = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8), *dx = gp_alloc(n * 8), *dx1 = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      x[e] = pick(&rng, c);
      k[e] = rng_below(&rng, c->kmax + 1);
      dr[e] = rng_range(&rng, 0.5, 2.0);
    }
    gp_seal(x), gp_seal(k), gp_seal(dr);
    /* The global after the call: what the last example left (unchanged
     * for n = 0). */
    int want = 777;
    if (n) {
      (void)c->f(x[n - 1], k[n - 1]);
      want = *c->global;
    }
    *c->global = 777;
    c->b(n, x, k, r);
    same_result(c->name, n, *c->global, want, 0);
    *c->global = 777;
    memset(dx, 0, n * 8);
    memset(dx1, 0, n * 8);
    c->g(n, x, k, r2, dr, dx);
    same_result(c->name, n, *c->global, want, 0);
    c->g(n, x, k, NULL, NULL, dx1);
    for (size_t e = 0; e < n; e++) {
      double s = c->f(x[e], k[e]), d = c->d(x[e], k[e]);
      if (!close_nan_inf(r[e], s, 1e-13) || !close_nan_inf(r2[e], s, 1e-13)) {
        print_error("%s example %zu (x = %.17g): %.17g and %.17g, want %.17g\n",
                    c->name, e, x[e], r[e], r2[e], s);
        fail();
      }
      if (isinf(s))
        continue; /* a pole: the derivative is the program's, not checked */
      same_result(c->name, e, dx1[e], d, 1e-9);
      same_result(c->name, e, dx[e], dr[e] * d, 1e-9);
    }
    gp_reset();
  }
}

static const struct fcase cases[] = {
    {"lg", s_lg, ds_lg, b_lg, g_lg, &lsign, -30, 30, 0},
    {"gam", s_gam, ds_gam, b_gam, g_gam, &lsign, -20, 20, 0},
    {"rdepth", rdepth, d_rdepth, rdepth_batched, rdepth_grad, &depth, -4, 4, 9},
    {"rdepth_n", rdepth_n, d_rdepth, rdepth_n_batched, rdepth_n_grad, &depth,
     -4, 4, 9},
};

static void t_lg(void **state) { (void)state, check(&cases[0]); }
static void t_gam(void **state) { (void)state, check(&cases[1]); }
static void t_rdepth(void **state) { (void)state, check(&cases[2]); }
static void t_rdepth_n(void **state) { (void)state, check(&cases[3]); }

static void t_batch_only(void **state) {
  (void)state;
  rng_t rng = {name_seed("rdepth_b")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++)
      x[e] = rng_range(&rng, -4, 4), k[e] = rng_below(&rng, 10);
    gp_seal(x), gp_seal(k);
    int want = 777;
    if (n) {
      (void)rdepth_b(x[n - 1], k[n - 1]);
      want = depth;
    }
    depth = 777;
    rdepth_b_batched(n, x, k, r);
    same_result("rdepth_b: depth", n, depth, want, 0);
    for (size_t e = 0; e < n; e++)
      same_result("rdepth_b", e, r[e], rdepth_b(x[e], k[e]), 1e-13);
    gp_reset();
  }
}

/* The sign per example, as gam reads it: negative x between poles. */
static void t_signs(void **state) {
  (void)state;
  double x[8] = {-6.5, -7.5, -8.5, -9.5, 2.5, -0.5, -1.5, -30.25}, r[8];
  gam_batched(8, x, r);
  for (size_t e = 0; e < 8; e++)
    if ((r[e] < 0) != (gam(x[e]) < 0)) {
      print_error("gam(%g): sign %g, want %g\n", x[e], r[e], gam(x[e]));
      fail();
    }
}

/* 1 and 2 threads: the same bits (the function runs on the calling
 * thread: its recursive calls write the global). */
static void t_threads(void **state) {
  (void)state;
  enum { N = 70000 };
  rng_t rng = {name_seed("threads")};
  double *x = malloc(N * 8), *r1 = malloc(N * 8), *r2 = malloc(N * 8);
  double *d1 = calloc(N, 8), *d2 = calloc(N, 8);
  for (size_t e = 0; e < N; e++)
    x[e] = rng_range(&rng, -40, 40);
  bd_set_num_threads(1);
  gam_grad(N, x, r1, NULL, d1);
  bd_set_num_threads(2);
  gam_grad(N, x, r2, NULL, d2);
  bd_set_num_threads(0);
  if (memcmp(r1, r2, N * 8) || memcmp(d1, d2, N * 8)) {
    print_error("gam_grad: 1 and 2 threads differ\n");
    fail();
  }
  for (size_t e = 0; e < N; e++)
    if (!close_nan_inf(r1[e], gam(x[e]), 1e-13)) {
      print_error("gam_grad example %zu: %.17g, want %.17g\n", e, r1[e],
                  gam(x[e]));
      fail();
    }
  free(x), free(r1), free(r2), free(d1), free(d2);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_lg),         cmocka_unit_test(t_gam),
      cmocka_unit_test(t_rdepth),     cmocka_unit_test(t_rdepth_n),
      cmocka_unit_test(t_batch_only), cmocka_unit_test(t_signs),
      cmocka_unit_test(t_threads)};
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_recursion_global", tests, NULL,
                                     NULL);
}
