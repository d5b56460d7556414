/* Arrays of three dimensions: a file-scope tricubic coefficient table
 * `static const double C[4][4][4]`, a static local table, local arrays
 * `double T[2][3][4]` (nested initializers, per-example trip counts, memcpy
 * of the whole array) and array parameters `const double c[2][3][4]`,
 * `const double c[n][2][3]` (ragged, BD_PACKED): flat and row-major inside
 * (c[p][i][j] is element (p * R + i) * C + j), elements at computed
 * indices, planes and rows passed to helpers.
 *   - NAME_batched bit for bit against the scalar function for every n of
 *     test_ns, inputs right before a guard page (BD_PACKED: a guard page
 *     after every example's last element);
 *   - NAME_grad against central differences, and the 3-D parameter's
 *     d_c bit for bit the hand-flattened form's (`const double c[24]`). */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"

static const double C3[4][4][4] = {
    {{-0.352, -0.698, 0.302, -0.855},
     {0.072, -0.269, -0.884, 0.015},
     {-0.925, -0.133, -0.860, -0.819},
     {-0.151, 0.654, -0.752, -0.554}},
    {{0.255, 0.895, 0.154, -0.207},
     {0.953, -0.907, 0.717, -0.421},
     {-0.711, -0.764, -0.383, 0.632},
     {-0.639, 0.163, 0.278, -0.255}},
    {{0.095, -0.874, -0.881, -0.588},
     {0.361, -0.145, -0.372, 0.171},
     {-0.094, -0.400, 0.589, 0.398},
     {-0.512, 0.149, 0.050, 0.750}},
    {{0.459, -0.424, 0.960, -0.764}, {-0.164, 0.514}, {-0.922}}};

static double horner4(const double c[4], double t) {
  return ((c[3] * t + c[2]) * t + c[1]) * t + c[0];
}
static double plane_eval(const double p[4][4], double u, double v) {
  double r[4];
  for (int i = 0; i < 4; i++)
    r[i] = horner4(p[i], v);
  return horner4(r, u);
}

/* sum C[i][j][k] t^i y^j z^k, planes to a helper, plus an element at
 * indices computed from x's cell. */
BATCHDIFF double tricubic(double x, double y, double z) {
  double fl = floor(x), t = x - fl;
  int cell = (int)fl & 3;
  double r[4];
  for (int i = 0; i < 4; i++)
    r[i] = plane_eval(C3[i], y, z);
  return horner4(r, t) + C3[cell][cell ^ 1][(cell + 2) & 3] * t * y;
}

static double plane_sum(const double p[3][4], double w) {
  double s = 0.0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      s = s * w + p[i][j];
  return s;
}

/* A local 3-D array: nested initializer (the rest zero), updated n times
 * (per-example trip counts: masked writes), copied whole, planes and rows
 * to helpers, elements at computed indices. */
BATCHDIFF double local3(double a, double b, int n) {
  double T[2][3][4] = {{{a, b}, {b * a}}, {{1.0}, {a, a, a, a}, {0.5 * b}}};
  for (int t = 0; t < n; t++)
    for (int p = 0; p < 2; p++)
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
          T[p][i][j] = 0.5 * T[p][i][j] + b * T[1 - p][(i + 1) % 3][3 - j];
  double U[2][3][4];
  memcpy(U, T, sizeof U);
  U[1][n % 3][(n + 1) & 3] += a;
  int k = n % 3;
  return plane_sum(T[1], 0.5) + T[n & 1][k][(n + 1) & 3] * a +
         horner4(U[0][2], a) + plane_sum(U[n & 1], b);
}

/* A static local table of three dimensions, at computed indices. */
BATCHDIFF double slocal(double x, int i) {
  static const double W[2][2][3] = {{{1, 2, 3}, {4, 5, 6}},
                                    {{7, 8, 9}, {10, 11, 12}}};
  return W[i & 1][(i >> 1) & 1][i % 3] * x + W[1][0][2] * x * x;
}

/* A 3-D parameter, its planes to a helper, and the same flattened by
 * hand (the reference for d_c). */
BATCHDIFF double pcube(const double c[2][3][4], double x) {
  double s = 0.0;
  for (int p = 0; p < 2; p++)
    s += plane_sum(c[p], x) * x;
  return s + c[1][2][3] * x * x + horner4(c[0][1], x);
}
static double plane_sum_flat(const double *p, double w) {
  double s = 0.0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      s = s * w + p[i * 4 + j];
  return s;
}
BATCHDIFF double pcube_flat(const double c[24], double x) {
  double s = 0.0;
  for (int p = 0; p < 2; p++)
    s += plane_sum_flat(c + 12 * p, x) * x;
  return s + c[23] * x * x + horner4(c + 4, x);
}

/* Ragged planes: n planes of 2 x 3 per example. */
BATCHDIFF double pn(int n, BD_PACKED const double c[n][2][3], double x) {
  double s = 0.0;
  for (int p = 0; p < n; p++)
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 3; j++)
        s = s * x + c[p][i][j] * c[p][1 - i][2 - j];
  return s;
}

#include "ragged_util.h"

static int same_v(double got, double want) {
  return same_bits_or_nan(&got, &want, sizeof got, 1);
}
static void t_batched(void **state) {
  (void)state;
  rng_t rng = {name_seed("local3d_batched")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *z = gp_alloc(n * 8);
    double *c = gp_alloc(n * 24 * 8);
    int *k = gp_alloc(n * sizeof(int)), *ix = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -6.0, 6.0);
      y[e] = gen_d_mod(&rng);
      z[e] = gen_d_mod(&rng);
      k[e] = rng_below(&rng, 7);
      ix[e] = rng_below(&rng, 1000);
      for (int j = 0; j < 24; j++)
        c[24 * e + j] = gen_d(&rng);
    }
    gp_seal(x), gp_seal(y), gp_seal(z), gp_seal(c), gp_seal(k), gp_seal(ix);
    double *o1 = gp_alloc(n * 8), *o2 = gp_alloc(n * 8);
    double *o3 = gp_alloc(n * 8), *o4 = gp_alloc(n * 8);
    double *o5 = gp_alloc(n * 8);
    tricubic_batched(n, x, y, z, o1);
    local3_batched(n, y, z, k, o2);
    slocal_batched(n, x, ix, o3);
    pcube_batched(n, c, 24, x, o4);
    pcube_flat_batched(n, c, 24, x, o5);
    for (size_t e = 0; e < n; e++) {
      double w1 = tricubic(x[e], y[e], z[e]), w2 = local3(y[e], z[e], k[e]);
      double w3 = slocal(x[e], ix[e]);
      double w4 = pcube((const double(*)[3][4])(c + 24 * e), x[e]);
      if (!same_v(o1[e], w1) || !same_v(o2[e], w2) || !same_v(o3[e], w3) ||
          !same_v(o4[e], w4) || !same_v(o5[e], w4)) {
        print_error("n=%zu b=%zu: tricubic %a/%a local3 %a/%a slocal %a/%a "
                    "pcube %a/%a pcube_flat %a\n",
                    n, e, o1[e], w1, o2[e], w2, o3[e], w3, o4[e], w4, o5[e]);
        fail();
      }
    }
    gp_reset();
  }
}

static void t_grad(void **state) {
  (void)state;
  rng_t rng = {name_seed("local3d_grad")};
  const double h = 1e-6;
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *z = gp_alloc(n * 8);
    double *a = gp_alloc(n * 8), *b = gp_alloc(n * 8);
    double *c = gp_alloc(n * 24 * 8), *dc = gp_alloc(n * 24 * 8);
    double *dcf = gp_alloc(n * 24 * 8);
    double *dx = gp_alloc(n * 8), *dy = gp_alloc(n * 8), *dz = gp_alloc(n * 8);
    double *da = gp_alloc(n * 8), *db = gp_alloc(n * 8);
    double *px = gp_alloc(n * 8), *pxf = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      /* away from the cell boundaries (the kinks of floor) */
      x[e] = (double)rng_below(&rng, 12) - 6.0 + rng_range(&rng, 0.1, 0.9);
      y[e] = rng_range(&rng, -1.5, 1.5);
      z[e] = rng_range(&rng, -1.5, 1.5);
      a[e] = rng_range(&rng, -1.0, 1.0);
      b[e] = rng_range(&rng, -0.9, 0.9);
      k[e] = rng_below(&rng, 6);
      dx[e] = dy[e] = dz[e] = da[e] = db[e] = px[e] = pxf[e] = 0.0;
      for (int j = 0; j < 24; j++) {
        c[24 * e + j] = rng_range(&rng, -1.0, 1.0);
        dc[24 * e + j] = dcf[24 * e + j] = 0.0;
      }
    }
    tricubic_grad(n, x, y, z, NULL, NULL, dx, dy, dz);
    local3_grad(n, a, b, k, NULL, NULL, da, db);
    /* (pcube at y: |y| <= 1.5 keeps the differences accurate) */
    pcube_grad(n, c, 24, y, NULL, NULL, dc, 24, px);
    pcube_flat_grad(n, c, 24, y, NULL, NULL, dcf, 24, pxf);
    for (size_t e = 0; e < n; e++) {
      double X = x[e], Y = y[e], Z = z[e], A = a[e], B = b[e];
      double fx = (tricubic(X + h, Y, Z) - tricubic(X - h, Y, Z)) / (2 * h);
      double fy = (tricubic(X, Y + h, Z) - tricubic(X, Y - h, Z)) / (2 * h);
      double fz = (tricubic(X, Y, Z + h) - tricubic(X, Y, Z - h)) / (2 * h);
      double fa = (local3(A + h, B, k[e]) - local3(A - h, B, k[e])) / (2 * h);
      double fb = (local3(A, B + h, k[e]) - local3(A, B - h, k[e])) / (2 * h);
      const double(*ce)[3][4] = (const double(*)[3][4])(c + 24 * e);
      double fp = (pcube(ce, Y + h) - pcube(ce, Y - h)) / (2 * h);
      if (!close_to(dx[e], fx, 1e-6) || !close_to(dy[e], fy, 1e-6) ||
          !close_to(dz[e], fz, 1e-6) || !close_to(da[e], fa, 1e-6) ||
          !close_to(db[e], fb, 1e-6) || !close_to(px[e], fp, 1e-6) ||
          !same_v(px[e], pxf[e])) {
        print_error("n=%zu b=%zu: tricubic d %g %g %g fd %g %g %g; local3 d "
                    "%g %g fd %g %g; pcube dx %g fd %g flat %g\n",
                    n, e, dx[e], dy[e], dz[e], fx, fy, fz, da[e], db[e], fa, fb,
                    px[e], fp, pxf[e]);
        fail();
      }
      for (int j = 0; j < 24; j++) {
        double *v = c + 24 * e + j, v0 = *v;
        *v = v0 + h;
        double up = pcube(ce, Y);
        *v = v0 - h;
        double dn = pcube(ce, Y);
        *v = v0;
        double f = (up - dn) / (2 * h);
        if (!close_to(dc[24 * e + j], f, 1e-6) ||
            !same_v(dc[24 * e + j], dcf[24 * e + j])) {
          print_error("pcube_grad n=%zu b=%zu c[%d]: %.17g fd %.17g flat "
                      "%.17g\n",
                      n, e, j, dc[24 * e + j], f, dcf[24 * e + j]);
          fail();
        }
      }
    }
    gp_reset();
  }
}

/* Ragged planes, BD_PACKED, a guard page after every example. */
static void t_ragged(void **state) {
  (void)state;
  rng_t r = {name_seed("local3d_ragged")};
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k];
    int *cnt = calloc(n + 1, sizeof(int)), *len = calloc(n + 1, sizeof(int));
    gen_lens(&r, n, cnt, 12);
    for (size_t b = 0; b < n; b++)
      len[b] = 6 * cnt[b];
    pk_t X, G;
    pk_make(&X, n, len, 1);
    pk_make(&G, n, len, 1);
    fill(&X, n, len, &r);
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < len[b]; i++)
        AT(&G, b, i) = 0.0;
    double *xs = calloc(n + 1, 8), *got = calloc(n + 1, 8);
    double *dxs = calloc(n + 1, 8);
    for (size_t b = 0; b < n; b++)
      xs[b] = rng_range(&r, -0.9, 0.9);
    pn_batched(n, cnt, X.base, X.off, xs, got);
    pn_grad(n, cnt, X.base, X.off, xs, NULL, NULL, G.base, dxs);
    for (size_t b = 0; b < n; b++) {
      double *ex = &AT(&X, b, 0);
      EXPECT_SAME(got[b], pn(cnt[b], (const double(*)[2][3])ex, xs[b]),
                  "pn_batched n=%zu b=%zu", n, b);
      if (b >= 9)
        continue;
      double h = 1e-6;
      for (int i = 0; i < len[b]; i++) {
        double v0 = ex[i];
        ex[i] = v0 + h;
        double up = pn(cnt[b], (const double(*)[2][3])ex, xs[b]);
        ex[i] = v0 - h;
        double dn = pn(cnt[b], (const double(*)[2][3])ex, xs[b]);
        ex[i] = v0;
        double f = (up - dn) / (2 * h);
        if (!close_to(AT(&G, b, i), f, 1e-6)) {
          print_error("pn_grad n=%zu b=%zu i=%d: %.17g fd %.17g\n", n, b, i,
                      AT(&G, b, i), f);
          fail();
        }
      }
    }
    pk_check_gaps(&G, n, len, "pn_grad d_c");
    pk_free(&X), pk_free(&G);
    free(cnt), free(len), free(xs), free(got), free(dxs);
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_batched),
      cmocka_unit_test(t_grad),
      cmocka_unit_test(t_ragged),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
