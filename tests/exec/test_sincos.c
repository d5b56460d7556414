/* GNU sincos(x, &s, &c) and sincosf: lowered as sin(x) and cos(x), stored
 * sin first (as glibc does), so batched and differentiated like them
 * (before: a call per example whose outputs carried no derivative, an
 * error in a diff function). Each function below is checked against a
 * twin written with sin and cos, bit for bit (values and gradients), and
 * against the scalar function to 4 ULPs (glibc's sincos is its sin and
 * cos). Out-pointers: locals, array elements, a helper's pointer
 * parameters, the input itself. n = 0 .. 67 and 4099 examples. */
#define _GNU_SOURCE
#include "exec_util.h"

#include "../common/test_filter.h"

static void polar(double r, double t, double *px, double *py) {
  double s, c;
  sincos(t, &s, &c);
  *px = r * c;
  *py = r * s;
}

BATCHDIFF double sc_rot(double x, double y, double th) {
  double s, c, p[2];
  sincos(th, &s, &c);
  polar(x, th * 0.5, &p[0], &p[1]);
  sincos(x, &x, &p[1]); /* x is read before it is overwritten */
  return c * x - s * y + p[0] * p[1];
}

BATCHDIFF double sc_rot_twin(double x, double y, double th) {
  double s = sin(th), c = cos(th);
  double p0 = x * cos(th * 0.5);
  double p1 = cos(x);
  x = sin(x);
  return c * x - s * y + p0 * p1;
}

BATCHDIFF float sc_f(float a, float b) {
  float s, c;
  sincosf(a * b, &s, &c);
  return s * s - c + b;
}

BATCHDIFF float sc_f_twin(float a, float b) {
  float s = sinf(a * b), c = cosf(a * b);
  return s * s - c + b;
}

#define SAME(what, n, got, want, sz)                                           \
  do {                                                                         \
    for (size_t e_ = 0; e_ < (n); e_++)                                        \
      if (memcmp(&(got)[e_], &(want)[e_], (sz)) != 0) {                        \
        print_error("%s e=%zu: %a, want %a\n", what, e_, (double)(got)[e_],    \
                    (double)(want)[e_]);                                       \
        fail();                                                                \
      }                                                                        \
  } while (0)

static void t_sincos(void **state) {
  (void)state;
  rng_t rng = {name_seed("sincos")};
  size_t sizes[] = {0, 1, 7, 8, 9, 16, 17, 67, 4099};
  for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
    size_t n = sizes[si];
    double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *th = gp_alloc(n * 8);
    double *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8), *dr = gp_alloc(n * 8);
    double *d[3], *d2[3];
    float *a = gp_alloc(n * 4), *b = gp_alloc(n * 4), *rf = gp_alloc(n * 4),
          *rf2 = gp_alloc(n * 4), *drf = gp_alloc(n * 4);
    float *df[2], *df2[2];
    for (int k = 0; k < 3; k++)
      d[k] = gp_alloc(n * 8), d2[k] = gp_alloc(n * 8);
    for (int k = 0; k < 2; k++)
      df[k] = gp_alloc(n * 4), df2[k] = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -4.0, 4.0);
      y[e] = rng_range(&rng, -4.0, 4.0);
      /* large arguments too: the range reduction's slow path */
      th[e] = e % 5 == 4 ? rng_range(&rng, -1e6, 1e6) : rng_range(&rng, -7, 7);
      dr[e] = rng_range(&rng, 0.5, 2.0);
      a[e] = (float)rng_range(&rng, -3.0, 3.0);
      b[e] = (float)rng_range(&rng, -3.0, 3.0);
      drf[e] = (float)rng_range(&rng, 0.5, 2.0);
    }
    gp_seal(x), gp_seal(y), gp_seal(th), gp_seal(dr);
    gp_seal(a), gp_seal(b), gp_seal(drf);
    sc_rot_batched(n, x, y, th, r);
    sc_rot_twin_batched(n, x, y, th, r2);
    SAME("sc_rot_batched vs twin", n, r, r2, 8);
    for (size_t e = 0; e < n; e++) {
      double want = sc_rot(x[e], y[e], th[e]);
      if (ulp_dist_d(r[e], want) > 4 &&
          fabs(r[e] - want) > 1e-15 * (fabs(x[e]) + fabs(y[e]) + 1)) {
        print_error("sc_rot e=%zu: %a, scalar %a\n", e, r[e], want);
        fail();
      }
    }
    for (int k = 0; k < 3; k++)
      memset(d[k], 0, n * 8), memset(d2[k], 0, n * 8);
    sc_rot_grad(n, x, y, th, r, dr, d[0], d[1], d[2]);
    sc_rot_twin_grad(n, x, y, th, r2, dr, d2[0], d2[1], d2[2]);
    SAME("sc_rot_grad", n, r, r2, 8);
    for (int k = 0; k < 3; k++)
      SAME("sc_rot_grad d", n, d[k], d2[k], 8);
    for (size_t e = 0; e < n; e++) {
      /* d/dx: c cos(x) + cos(t/2) cos(x) - x cos(t/2) sin(x) */
      double c = cos(th[e]), h = cos(th[e] * 0.5);
      double gx = dr[e] * (c * cos(x[e]) + h * cos(x[e]) - x[e] * h * sin(x[e]));
      if (fabs(d[0][e] - gx) > 1e-12 * (fabs(gx) + 1.0)) {
        print_error("sc_rot_grad d_x e=%zu: %a, want %a\n", e, d[0][e], gx);
        fail();
      }
    }
    sc_f_batched(n, a, b, rf);
    sc_f_twin_batched(n, a, b, rf2);
    SAME("sc_f_batched vs twin", n, rf, rf2, 4);
    for (int k = 0; k < 2; k++)
      memset(df[k], 0, n * 4), memset(df2[k], 0, n * 4);
    sc_f_grad(n, a, b, rf, drf, df[0], df[1]);
    sc_f_twin_grad(n, a, b, rf2, drf, df2[0], df2[1]);
    for (int k = 0; k < 2; k++)
      SAME("sc_f_grad d", n, df[k], df2[k], 4);
    for (size_t e = 0; e < n; e++) {
      float want = sc_f(a[e], b[e]);
      if (ulp_dist_f(rf[e], want) > 4 && fabsf(rf[e] - want) > 1e-6f) {
        print_error("sc_f e=%zu: %a, scalar %a\n", e, rf[e], want);
        fail();
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(t_sincos)};
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_sincos", tests, NULL, NULL);
}
