/* Small shared tables read at per-lane indices (bd_tgather: the table in
 * registers and a permute where the vectors have room, simd.h): a
 * piecewise-linear interpolation by binary search over a file-scope table
 * of 11 knots (a divergent while loop), a float table of 20 and one of 32
 * (the most one permute reaches), a 2-D table, a table of 40 doubles (past
 * the permute: the gather), a read under a branch whose index is out of
 * the table in the lanes that skip it, and a BD_UNIFORM array of declared
 * extent ending at a guard page. NAME_batched bit for bit against the
 * scalar functions, gradients against central differences. */
#include "grad_util.h"

#include <stdint.h>

#include "../common/test_filter.h"

static const double KN[11] = {0.0,  0.05, 0.15, 0.3,  0.4, 0.5,
                              0.55, 0.7,  0.8,  0.95, 1.0};
static const double VA[11] = {1.0, 1.5, 0.5, -0.25, 2.0, 3.0,
                              2.5, 1.0, 0.0, -1.0,  0.5};
static const float F20[20] = {1,  -2, 3,   -4, 5,    0.5f, 7,  8.25f, 9,  10,
                              11, 12, -13, 14, 1.5f, 16,   17, 18,    19, 20};
static const float F32[32] = {0.5f, 1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                              11,   12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
                              22,   23, 24, 25, 26, 27, 28, 29, 30, -31};
static const double M34[3][4] = {
    {1.0, 2.0, 3.0, 4.0}, {-1.0, 0.5, 0.25, 8.0}, {3.0, -2.0, 1.5, 0.75}};
static const double L40[40] = {1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
                               11, 12, 13, 14, 15, 16, 17, 18, 19, 20,
                               21, 22, 23, 24, 25, 26, 27, 28, 29, 30,
                               31, 32, 33, 34, 35, 36, 37, 38, 39, 40};

/* Piecewise-linear interpolation between knots found by bisection. */
BATCHDIFF double interp(double t) {
  int lo = 0, hi = 10;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (KN[mid] > t)
      hi = mid;
    else
      lo = mid;
  }
  double u = (t - KN[lo]) / (KN[hi] - KN[lo]);
  return VA[lo] * (1.0 - u) + VA[hi] * u;
}

/* Float tables in 32-bit lanes, 20 and 32 elements. */
BATCHDIFF float ftab(float x) {
  int k = (int)(x * 19.0f);
  k = k < 0 ? 0 : k > 19 ? 19 : k;
  int j = (int)(x * 31.0f);
  j = j < 0 ? 0 : j > 31 ? 31 : j;
  return F20[k] * x + F20[19 - k] + F32[j] * x * x;
}

/* A 2-D table, a table past the permute's reach, and a read only where
 * x > 0.5: elsewhere the index is far outside the table. */
BATCHDIFF double mixed(double x, double y) {
  int r = (int)(x * 3.0), c = (int)(y * 4.0);
  r = r < 0 ? 0 : r > 2 ? 2 : r;
  c = c < 0 ? 0 : c > 3 ? 3 : c;
  double s = M34[r][c] * x * y + L40[(int)(y * 39.0) & 31] * y;
  int far = (int)(x * 1e6) - 400000;
  if (x > 0.5)
    s += KN[far % 11] * x;
  return s;
}

/* A BD_UNIFORM array of declared extent. */
BATCHDIFF double weights(BD_UNIFORM const double w[12], double x) {
  int k = (int)(x * 12.0);
  k = k < 0 ? 0 : k > 11 ? 11 : k;
  return w[k] * x * x + w[11 - k];
}

/* d f / d x by central differences. */
#define CENTRAL(f, x, h) (((f)((x) + (h)) - (f)((x) - (h))) / (2 * (h)))

static double mixed_y;
static double mixed_x(double x) { return mixed(x, mixed_y); }
static double mixed_x0;
static double mixed_of_y(double y) { return mixed(mixed_x0, y); }
static const double *weights_w;
static double weights_x(double x) { return weights(weights_w, x); }

/* Away from the pieces' ends (where the derivative jumps) by more than h. */
static int near_end(double v, double scale, double h) {
  double f = v * scale;
  return fabs(f - floor(f + 0.5)) < 2 * h * scale;
}

static void t_tables(void **state) {
  (void)state;
  rng_t rng = {name_seed("small_tables")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *t = gp_alloc(n * 8), *x = gp_alloc(n * 8), *y = gp_alloc(n * 8);
    float *fx = gp_alloc(n * 4), *fr = gp_alloc(n * 4);
    double *r1 = gp_alloc(n * 8), *r2 = gp_alloc(n * 8), *r3 = gp_alloc(n * 8);
    double *g1 = gp_alloc(n * 8), *gx = gp_alloc(n * 8), *gy = gp_alloc(n * 8);
    double *g3 = gp_alloc(n * 8), *dw = gp_alloc(12 * 8);
    double *w = gp_alloc(12 * 8); /* ends at a guard page */
    for (int i = 0; i < 12; i++)
      w[i] = rng_range(&rng, -2, 2), dw[i] = 0.0;
    for (size_t e = 0; e < n; e++) {
      t[e] = rng_range(&rng, -0.1, 1.1);
      x[e] = rng_range(&rng, 0, 1);
      y[e] = rng_range(&rng, 0, 1);
      fx[e] = (float)rng_range(&rng, -0.1, 1.1);
      g1[e] = gx[e] = gy[e] = g3[e] = 0.0;
    }
    gp_seal(t), gp_seal(x), gp_seal(y), gp_seal(fx), gp_seal(w);
    interp_batched(n, t, r1);
    ftab_batched(n, fx, fr);
    mixed_batched(n, x, y, r2);
    weights_batched(n, w, x, r3);
    interp_grad(n, t, NULL, NULL, g1);
    mixed_grad(n, x, y, NULL, NULL, gx, gy);
    weights_grad(n, w, x, NULL, NULL, dw, g3);
    double dwant[12] = {0};
    for (size_t e = 0; e < n; e++) {
      double v1 = interp(t[e]), v2 = mixed(x[e], y[e]);
      double v3 = weights(w, x[e]);
      float v4 = ftab(fx[e]);
      const double h = 1e-7;
      int bad = !same_bits_or_nan(&r1[e], &v1, 8, 1) ||
                !same_bits_or_nan(&r2[e], &v2, 8, 1) ||
                !same_bits_or_nan(&r3[e], &v3, 8, 1) ||
                !same_bits_or_nan(&fr[e], &v4, 4, 1);
      int knot = 0;
      for (int k = 0; k < 11; k++)
        knot |= fabs(t[e] - KN[k]) < 2 * h;
      if (!knot)
        bad |= !close_to(g1[e], CENTRAL(interp, t[e], h), 1e-6);
      mixed_y = y[e], mixed_x0 = x[e];
      if (!near_end(x[e], 3.0, h) && !near_end(x[e], 1e6, h) &&
          fabs(x[e] - 0.5) > 2 * h)
        bad |= !close_to(gx[e], CENTRAL(mixed_x, x[e], h), 1e-6);
      if (!near_end(y[e], 4.0, h) && !near_end(y[e], 39.0, h))
        bad |= !close_to(gy[e], CENTRAL(mixed_of_y, y[e], h), 1e-6);
      weights_w = w;
      if (!near_end(x[e], 12.0, h))
        bad |= !close_to(g3[e], CENTRAL(weights_x, x[e], h), 1e-6);
      int k = (int)(x[e] * 12.0);
      k = k < 0 ? 0 : k > 11 ? 11 : k;
      dwant[k] += x[e] * x[e];
      dwant[11 - k] += 1.0;
      if (bad) {
        print_error("n=%zu e=%zu: interp %a/%a mixed %a/%a weights %a/%a "
                    "ftab %a/%a d %a %a %a %a\n",
                    n, e, r1[e], v1, r2[e], v2, r3[e], v3, (double)fr[e],
                    (double)v4, g1[e], gx[e], gy[e], g3[e]);
        fail();
      }
    }
    for (int i = 0; i < 12; i++)
      if (!close_to(dw[i], dwant[i], 1e-12)) {
        print_error("n=%zu: d_w[%d] %a, want %a\n", n, i, dw[i], dwant[i]);
        fail();
      }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_tables),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_small_tables", tests, NULL, NULL);
}
