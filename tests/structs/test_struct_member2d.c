/* Two-dimensional array members of structs (issue 11 part 3): `double
 * m[2][3]` inside a record is flat, row-major (m[i][j] is element i * 3 + j,
 * rows m[i] passed to helpers), in struct parameters by value, struct
 * return values, arrays of records and locals with nested brace
 * initializers.
 *   - NAME_batched bit for bit against the scalar function (n of test_ns,
 *     records ending at a guard page);
 *   - NAME_grad against central finite differences per element, NAME_jvp
 *     against grad·t, NAME_hvp against central differences of NAME_grad;
 *   - a returned record with a 2-D member bit for bit, its gradient
 *     against finite differences. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"

typedef struct {
  double m[2][3];
  double b;
} aff;

static inline double dot3(const double *r, const double *v) {
  return r[0] * v[0] + r[1] * v[1] + r[2] * v[2];
}
__attribute__((batch, diff, diff(forward), diff(hvp))) double f(aff a,
                                                                double x) {
  double v[3] = {x, x * x, 1.0};
  double s = 0;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++)
      s += a.m[i][j] * v[j] * (i + 1);
  return s + dot3(a.m[1], v) * a.b * a.m[0][2];
}
__attribute__((batch, diff)) aff g(double x, double y) {
  aff o = {{{x, y, x * y}, {1.0, x - y, 2.0}}, x};
  o.m[1][0] = y * y;
  return o;
}
__attribute__((batch, diff)) double h(const aff *p, int n) {
  double s = 0;
  for (int k = 0; k < n; k++)
    s += p[k].m[1][2] * p[k].m[0][k % 3] + dot3(p[k].m[0], p[k].m[1]);
  return s;
}

static double *el(aff *a, int j) { return j < 6 ? &a->m[j / 3][j % 3] : &a->b; }
static aff gen_aff(rng_t *r) {
  aff a;
  for (int j = 0; j < 7; j++)
    *el(&a, j) = rng_range(r, -2, 2);
  return a;
}

static void t_f(void **state) {
  (void)state;
  rng_t rng = {name_seed("member2d_f")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    aff *a = gp_alloc(n * sizeof(aff) + 1), *da = gp_alloc(n * sizeof(aff) + 1);
    aff *ta = gp_alloc(n * sizeof(aff) + 1),
        *ha = gp_alloc(n * sizeof(aff) + 1);
    aff *d2 = gp_alloc(n * sizeof(aff) + 1);
    double *x = gp_alloc(n * 8 + 1), *r = gp_alloc(n * 8 + 1);
    double *dx = gp_alloc(n * 8 + 1), *tx = gp_alloc(n * 8 + 1);
    double *hx = gp_alloc(n * 8 + 1), *jr = gp_alloc(n * 8 + 1);
    double *jd = gp_alloc(n * 8 + 1), *dx2 = gp_alloc(n * 8 + 1);
    for (size_t b = 0; b < n; b++) {
      a[b] = gen_aff(&rng);
      ta[b] = gen_aff(&rng);
      x[b] = rng_range(&rng, -2, 2);
      tx[b] = rng_range(&rng, -1, 1);
      memset(&da[b], 0, sizeof(aff));
      memset(&ha[b], 0, sizeof(aff));
      memset(&d2[b], 0, sizeof(aff));
      dx[b] = hx[b] = dx2[b] = 0.0;
    }
    f_batched(n, a, x, r);
    f_grad(n, a, x, NULL, NULL, da, dx);
    f_jvp(n, a, x, ta, tx, jr, jd);
    f_hvp(n, a, x, ta, tx, NULL, NULL, d2, dx2, ha, hx);
    for (size_t b = 0; b < n; b++) {
      double want = f(a[b], x[b]);
      if (memcmp(&r[b], &want, 8) || memcmp(&jr[b], &want, 8) ||
          memcmp(&d2[b], &da[b], sizeof(aff)) || memcmp(&dx2[b], &dx[b], 8)) {
        print_error("f n=%zu b=%zu: %.17g want %.17g\n", n, b, r[b], want);
        fail();
      }
      double dot = dx[b] * tx[b];
      for (int j = 0; j <= 7; j++) {
        aff p = a[b], m = a[b];
        double xp = x[b], xm = x[b], h = 1e-6;
        if (j < 7) {
          *el(&p, j) += h;
          *el(&m, j) -= h;
        } else {
          xp += h;
          xm -= h;
        }
        double fd = (f(p, xp) - f(m, xm)) / (2 * h);
        double g = j < 7 ? *el(&da[b], j) : dx[b];
        if (!close_to(g, fd, 1e-6)) {
          print_error("f_grad n=%zu b=%zu arg %d: %.17g fd %.17g\n", n, b, j, g,
                      fd);
          fail();
        }
        if (j < 7)
          dot += g * *el(&ta[b], j);
      }
      if (!close_to(jd[b], dot, 1e-12)) {
        print_error("f_jvp n=%zu b=%zu: %.17g want %.17g\n", n, b, jd[b], dot);
        fail();
      }
      /* H·v: central differences of the gradient along (ta, tx). */
      aff p = a[b], m = a[b], gp, gm;
      double h = 1e-6, gxp = 0, gxm = 0;
      for (int j = 0; j < 7; j++) {
        *el(&p, j) += h * *el(&ta[b], j);
        *el(&m, j) -= h * *el(&ta[b], j);
      }
      double xp = x[b] + h * tx[b], xm = x[b] - h * tx[b];
      memset(&gp, 0, sizeof gp);
      memset(&gm, 0, sizeof gm);
      f_grad(1, &p, &xp, NULL, NULL, &gp, &gxp);
      f_grad(1, &m, &xm, NULL, NULL, &gm, &gxm);
      for (int j = 0; j <= 7; j++) {
        double fd = j < 7 ? (*el(&gp, j) - *el(&gm, j)) / (2 * h)
                          : (gxp - gxm) / (2 * h);
        double got = j < 7 ? *el(&ha[b], j) : hx[b];
        if (!close_to(got, fd, 1e-6)) {
          print_error("f_hvp n=%zu b=%zu arg %d: %.17g fd %.17g\n", n, b, j,
                      got, fd);
          fail();
        }
      }
    }
    gp_reset();
  }
}

static void t_g_h(void **state) {
  (void)state;
  rng_t rng = {name_seed("member2d_gh")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *x = gp_alloc(n * 8 + 1), *y = gp_alloc(n * 8 + 1);
    double *dx = gp_alloc(n * 8 + 1), *dy = gp_alloc(n * 8 + 1);
    aff *o = gp_alloc(n * sizeof(aff) + 1), *s = gp_alloc(n * sizeof(aff) + 1);
    for (size_t b = 0; b < n; b++) {
      x[b] = rng_range(&rng, -2, 2);
      y[b] = rng_range(&rng, -2, 2);
      s[b] = gen_aff(&rng);
      dx[b] = dy[b] = 0.0;
    }
    g_batched(n, x, y, o);
    for (size_t b = 0; b < n; b++) {
      aff w = g(x[b], y[b]);
      if (memcmp(&o[b], &w, sizeof w)) {
        print_error("g n=%zu b=%zu differs\n", n, b);
        fail();
      }
    }
    g_grad(n, x, y, NULL, s, dx, dy);
    for (size_t b = 0; b < n; b++)
      for (int j = 0; j < 2; j++) {
        double h = 1e-6, xp = x[b] + (j == 0) * h, xm = x[b] - (j == 0) * h;
        double yp = y[b] + (j == 1) * h, ym = y[b] - (j == 1) * h, fd = 0;
        aff up = g(xp, yp), dn = g(xm, ym);
        for (int k = 0; k < 7; k++)
          fd += *el(&s[b], k) * (*el(&up, k) - *el(&dn, k)) / (2 * h);
        if (!close_to(j ? dy[b] : dx[b], fd, 1e-6)) {
          print_error("g_grad n=%zu b=%zu arg %d: %.17g fd %.17g\n", n, b, j,
                      j ? dy[b] : dx[b], fd);
          fail();
        }
      }
    /* h: arrays of records with the 2-D member, ragged. */
    int *len = gp_alloc(n * sizeof(int) + 1);
    aff *p = gp_alloc(n * 5 * sizeof(aff) + 1);
    aff *dp = gp_alloc(n * 5 * sizeof(aff) + 1);
    double *r = gp_alloc(n * 8 + 1);
    for (size_t b = 0; b < n; b++) {
      len[b] = rng_below(&rng, 6);
      for (int k = 0; k < 5; k++) {
        p[b * 5 + k] = gen_aff(&rng);
        memset(&dp[b * 5 + k], 0, sizeof(aff));
      }
    }
    h_batched(n, p, 5, len, r);
    h_grad(n, p, 5, len, NULL, NULL, dp, 5);
    for (size_t b = 0; b < n; b++) {
      double want = h(p + b * 5, len[b]);
      if (memcmp(&r[b], &want, 8)) {
        print_error("h n=%zu b=%zu: %.17g want %.17g\n", n, b, r[b], want);
        fail();
      }
      for (int k = 0; k < 5; k++)
        for (int j = 0; j < 7; j++) {
          aff q[5];
          memcpy(q, p + b * 5, sizeof q);
          double e = *el(&q[k], j), hh = 1e-6;
          *el(&q[k], j) = e + hh;
          double up = h(q, len[b]);
          *el(&q[k], j) = e - hh;
          double fd = (up - h(q, len[b])) / (2 * hh);
          if (!close_to(*el(&dp[b * 5 + k], j), fd, 1e-6)) {
            print_error("h_grad n=%zu b=%zu record %d el %d: %.17g fd %.17g\n",
                        n, b, k, j, *el(&dp[b * 5 + k], j), fd);
            fail();
          }
        }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_f),
      cmocka_unit_test(t_g_h),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
