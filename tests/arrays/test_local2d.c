/* Two-dimensional local arrays (`double A[3][3]`, issue 11 part 2): flat,
 * row-major inside the generated code (A[i][j] is element i * C + j),
 * initialised from nested brace lists, indexed by constants and loop
 * variables, rows passed to helpers (`B[i]`, `*A`) and the whole array too
 * (`const double m[3][3]`).
 *   - NAME_batched bit for bit against the scalar function for every n of
 *     test_ns, inputs right before a guard page, per-example loop counts
 *     (masked writes into the local array), memset/memcpy of whole
 *     arrays;
 *   - NAME_grad against central differences, NAME_jvp against grad·t. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"

static double rowdot(const double *r, const double *v) {
  return r[0] * v[0] + r[1] * v[1] + r[2] * v[2];
}
static double trace(const double m[3][3]) {
  return m[0][0] + m[1][1] + m[2][2];
}

__attribute__((batch, diff, diff(forward))) double quad(const double x[3],
                                                        double s) {
  double A[3][3] = {{s, 1.0, 0.0}, {1.0, 2.0 * s}, {0.5, 0.0, s * s}};
  double B[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      B[i][j] = 0.0;
      for (int k = 0; k < 3; k++)
        B[i][j] += A[i][k] * A[j][k];
    }
  double y[3];
  for (int i = 0; i < 3; i++)
    y[i] = rowdot(B[i], x);
  return rowdot(y, x) + trace(B) * (*A)[1];
}

/* Per-example trip counts: rows of a 4x4 state updated n times. */
BATCHDIFF double power(double a, double b, int n) {
  double M[4][4] = {{0}};
  for (int i = 0; i < 4; i++)
    M[i][i] = 1.0;
  for (int t = 0; t < n; t++)
    for (int i = 0; i < 4; i++) {
      double r0 = M[i][0];
      M[i][0] = a * M[i][0] - b * M[i][1];
      M[i][1] = b * r0 + a * M[i][1];
      M[i][3] += M[i][2] * a;
    }
  double s = 0.0;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      s += M[i][j] * (double)(i + 2 * j);
  return s;
}

/* Whole two-dimensional arrays through memset/memcpy (their elements,
 * flat and row-major), and a memmove across a row boundary. */
BATCHDIFF double mcopy(double a, double b, int n) {
  double M[3][3], P[3][3];
  memset(M, 0, sizeof M);
  for (int i = 0; i < 3; i++)
    M[i][i] = a;
  M[0][2] = b;
  for (int t = 0; t < n; t++) {
    memcpy(P, M, sizeof P);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++)
        M[i][j] = 0.5 * P[i][j] + b * P[j][i];
  }
  memmove(&M[0][2], M, 4 * sizeof M[0][0]);
  double s = 0.0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      s += M[i][j] * (double)(i + 2 * j + 1);
  return s;
}

BATCHDIFF float det2f(float a, float b, float c) {
  float m[2][2] = {{a, b}, {b, c}};
  return m[0][0] * m[1][1] - m[0][1] * m[1][0];
}

static int same(double got, double want) {
  return same_bits_or_nan(&got, &want, sizeof got, 1);
}
static void t_batched(void **state) {
  (void)state;
  rng_t rng = {name_seed("local2d_batched")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *x = gp_alloc(n * 3 * 8), *s = gp_alloc(n * 8);
    double *a = gp_alloc(n * 8), *b = gp_alloc(n * 8);
    float *fa = gp_alloc(n * 4), *fb = gp_alloc(n * 4), *fc = gp_alloc(n * 4);
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      for (int j = 0; j < 3; j++)
        x[3 * e + j] = gen_d(&rng);
      s[e] = gen_d(&rng);
      a[e] = gen_d_mod(&rng);
      b[e] = gen_d_mod(&rng);
      fa[e] = gen_f(&rng);
      fb[e] = gen_f(&rng);
      fc[e] = gen_f(&rng);
      k[e] = rng_below(&rng, 6);
    }
    gp_seal(x);
    double *o1 = gp_alloc(n * 8), *o2 = gp_alloc(n * 8);
    double *o4 = gp_alloc(n * 8);
    float *o3 = gp_alloc(n * 4);
    quad_batched(n, x, 3, s, o1);
    power_batched(n, a, b, k, o2);
    det2f_batched(n, fa, fb, fc, o3);
    mcopy_batched(n, a, b, k, o4);
    for (size_t e = 0; e < n; e++) {
      float w3 = det2f(fa[e], fb[e], fc[e]);
      if (!same(o4[e], mcopy(a[e], b[e], k[e]))) {
        print_error("n=%zu b=%zu: mcopy %.17g want %.17g\n", n, e, o4[e],
                    mcopy(a[e], b[e], k[e]));
        fail();
      }
      if (!same(o1[e], quad(x + 3 * e, s[e])) ||
          !same(o2[e], power(a[e], b[e], k[e])) ||
          !same_bits_or_nan(&o3[e], &w3, sizeof w3, 1)) {
        print_error("n=%zu b=%zu: quad %.17g want %.17g, power %.17g want "
                    "%.17g\n",
                    n, e, o1[e], quad(x + 3 * e, s[e]), o2[e],
                    power(a[e], b[e], k[e]));
        fail();
      }
    }
    gp_reset();
  }
}

static void t_grad(void **state) {
  (void)state;
  rng_t rng = {name_seed("local2d_grad")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *x = gp_alloc(n * 3 * 8), *s = gp_alloc(n * 8);
    double *dx = gp_alloc(n * 3 * 8), *dsv = gp_alloc(n * 8);
    double *tx = gp_alloc(n * 3 * 8), *ts = gp_alloc(n * 8);
    double *jr = gp_alloc(n * 8), *jd = gp_alloc(n * 8);
    double *a = gp_alloc(n * 8), *b = gp_alloc(n * 8);
    double *da = gp_alloc(n * 8), *db = gp_alloc(n * 8);
    double *ma = gp_alloc(n * 8), *mb = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      for (int j = 0; j < 3; j++) {
        x[3 * e + j] = rng_range(&rng, -2, 2);
        tx[3 * e + j] = rng_range(&rng, -1, 1);
        dx[3 * e + j] = 0.0;
      }
      s[e] = rng_range(&rng, -2, 2);
      ts[e] = rng_range(&rng, -1, 1);
      a[e] = rng_range(&rng, 0.5, 1.1);
      b[e] = rng_range(&rng, -0.5, 0.5);
      dsv[e] = da[e] = db[e] = ma[e] = mb[e] = 0.0;
      k[e] = rng_below(&rng, 6);
    }
    quad_grad(n, x, 3, s, NULL, NULL, dx, 3, dsv);
    quad_jvp(n, x, 3, s, tx, 3, ts, jr, jd);
    power_grad(n, a, b, k, NULL, NULL, da, db);
    mcopy_grad(n, a, b, k, NULL, NULL, ma, mb);
    double h = 1e-6;
    for (size_t e = 0; e < n; e++) {
      double *xe = x + 3 * e, dot = 0.0;
      for (int j = 0; j < 3; j++) {
        double v = xe[j];
        xe[j] = v + h;
        double up = quad(xe, s[e]);
        xe[j] = v - h;
        double dn = quad(xe, s[e]);
        xe[j] = v;
        double f = (up - dn) / (2 * h);
        if (!close_to(dx[3 * e + j], f, 1e-6)) {
          print_error("quad_grad n=%zu b=%zu x[%d] %.17g fd %.17g\n", n, e, j,
                      dx[3 * e + j], f);
          fail();
        }
        dot += f * tx[3 * e + j];
      }
      double fs = (quad(xe, s[e] + h) - quad(xe, s[e] - h)) / (2 * h);
      dot += fs * ts[e];
      double fa =
          (power(a[e] + h, b[e], k[e]) - power(a[e] - h, b[e], k[e])) / (2 * h);
      double fb =
          (power(a[e], b[e] + h, k[e]) - power(a[e], b[e] - h, k[e])) / (2 * h);
      double ga =
          (mcopy(a[e] + h, b[e], k[e]) - mcopy(a[e] - h, b[e], k[e])) / (2 * h);
      double gb =
          (mcopy(a[e], b[e] + h, k[e]) - mcopy(a[e], b[e] - h, k[e])) / (2 * h);
      if (!close_to(ma[e], ga, 1e-6) || !close_to(mb[e], gb, 1e-6)) {
        print_error("mcopy_grad n=%zu b=%zu: da %.17g fd %.17g, db %.17g fd "
                    "%.17g\n",
                    n, e, ma[e], ga, mb[e], gb);
        fail();
      }
      if (!close_to(dsv[e], fs, 1e-6) || !close_to(jd[e], dot, 1e-6) ||
          !same(jr[e], quad(xe, s[e])) || !close_to(da[e], fa, 1e-6) ||
          !close_to(db[e], fb, 1e-6)) {
        print_error("n=%zu b=%zu: ds %.17g fd %.17g, jvp %.17g want %.17g, "
                    "da %.17g fd %.17g, db %.17g fd %.17g\n",
                    n, e, dsv[e], fs, jd[e], dot, da[e], fa, db[e], fb);
        fail();
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_batched),
      cmocka_unit_test(t_grad),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
