/* Local arrays of row pointers (docs/row-pointers.md): Gauss-
 * Jordan elimination and an LU determinant pivoting by exchanging row
 * pointers into a local matrix (`double *row[3]; row[i] = a[i]; tmp =
 * row[c]; row[c] = row[p]; row[p] = tmp; row[r][k] -= f * row[c][k];`), an
 * initializer list of rows, pointers into an array parameter exchanged at a
 * per-example index, a plain row pointer `double *p = a[i]`, and a pointer
 * to the rows of a local matrix, `double (*r)[4] = a`.
 * NAME_batched against the scalar function bit for bit, NAME_grad against
 * central differences, n = 0 .. 37 examples. */
#include "exec_util.h"

#include "../common/test_filter.h"

/* Solves m x = b (3 x 3, partial pivoting); returns x0 + 2 x1 + 3 x2. */
BATCHDIFF double gj3(const double m[9], const double b[3]) {
  double a[3][4];
  double *row[3];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++)
      a[i][j] = m[3 * i + j];
    a[i][3] = b[i];
    row[i] = a[i];
  }
  for (int c = 0; c < 3; c++) {
    int p = c;
    for (int r = c + 1; r < 3; r++)
      if (fabs(row[r][c]) > fabs(row[p][c]))
        p = r;
    double *tmp = row[c];
    row[c] = row[p];
    row[p] = tmp;
    for (int r = 0; r < 3; r++) {
      if (r == c)
        continue;
      double f = row[r][c] / row[c][c];
      for (int k = c; k < 4; k++)
        row[r][k] -= f * row[c][k];
    }
  }
  double s = 0.0;
  for (int i = 0; i < 3; i++)
    s += (i + 1) * (row[i][3] / row[i][i]);
  return s;
}

/* The determinant of a 4 x 4 matrix by LU with row pointers. */
BATCHDIFF double det4(const double m[16]) {
  double a[4][4];
  for (int i = 0; i < 16; i++)
    a[i / 4][i % 4] = m[i];
  double *row[4] = {a[0], a[1], a[2], a[3]};
  double det = 1.0;
  for (int c = 0; c < 4; c++) {
    int p = c;
    for (int r = c + 1; r < 4; r++)
      if (fabs(row[r][c]) > fabs(row[p][c]))
        p = r;
    if (p != c) {
      double *t = row[p];
      row[p] = row[c];
      row[c] = t;
      det = -det;
    }
    det *= row[c][c];
    for (int r = c + 1; r < 4; r++) {
      double f = row[r][c] / row[c][c];
      for (int k = c + 1; k < 4; k++)
        row[r][k] -= f * row[c][k];
    }
  }
  return det;
}

/* Pointers into an array parameter, exchanged at a per-example index. */
BATCHDIFF double pick(const double m[12], int k) {
  const double *r[3];
  for (int i = 0; i < 3; i++)
    r[i] = m + 4 * i;
  const double *t = r[0];
  r[0] = r[k % 3];
  r[k % 3] = t;
  return r[0][1] + 2.0 * r[1][2] * r[2][3] - r[k % 3][0];
}

/* A plain row pointer into a local matrix. */
BATCHDIFF double rowsum(const double m[6], int i) {
  double a[2][3];
  for (int j = 0; j < 6; j++)
    a[j / 3][j % 3] = m[j] * m[j];
  double *p = a[i % 2];
  return p[0] + 2.0 * p[1] + 3.0 * p[2];
}

/* Gaussian elimination through a pointer to the rows of a local matrix,
   `double (*r)[4] = a`, exchanging rows element by element. */
BATCHDIFF double ge3(const double m[9], const double b[3]) {
  double a[3][4];
  double(*r)[4] = a;
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++)
      r[i][j] = m[3 * i + j];
    r[i][3] = b[i];
  }
  for (int c = 0; c < 3; c++) {
    int p = c;
    for (int i = c + 1; i < 3; i++)
      if (fabs(r[i][c]) > fabs(r[p][c]))
        p = i;
    for (int j = 0; j < 4; j++) {
      double t = r[c][j];
      r[c][j] = r[p][j];
      r[p][j] = t;
    }
    for (int i = c + 1; i < 3; i++) {
      double f = r[i][c] / r[c][c];
      for (int j = c; j < 4; j++)
        r[i][j] -= f * r[c][j];
    }
  }
  double *last = r[2];
  double x2 = last[3] / last[2];
  double x1 = (r[1][3] - r[1][2] * x2) / r[1][1];
  double x0 = (r[0][3] - r[0][1] * x1 - r[0][2] * x2) / (*r)[0];
  return x0 + 2.0 * x1 + 3.0 * x2;
}

static void grad_check(const char *name, size_t n, size_t b, int i, double g,
                       double fd) {
  if (!(fabs(g - fd) <= 1e-5 * (1.0 + fabs(fd))))
    fail_msg("%s n=%zu lane %zu [%d]: gradient %a, differences %a", name, n, b,
             i, g, fd);
}

static void check_bits(const char *name, size_t n, size_t b, double got,
                       double want) {
  if (memcmp(&got, &want, sizeof want) != 0)
    fail_msg("%s n=%zu lane %zu: %a, scalar %a", name, n, b, got, want);
}

typedef double (*solve_fn)(const double *, const double *);
typedef void (*solve_batched_fn)(size_t, const double *, ptrdiff_t,
                                 const double *, ptrdiff_t, double *);
typedef void (*solve_grad_fn)(size_t, const double *, ptrdiff_t, const double *,
                              ptrdiff_t, double *, const double *, double *,
                              ptrdiff_t, double *, ptrdiff_t);

/* gj3 or ge3: values bit for bit, gradients vs central differences. */
static void check_solve(const char *name, solve_fn f, solve_batched_fn fb,
                        solve_grad_fn fg) {
  rng_t r = {name_seed(name)};
  for (size_t n = 0; n <= 37; n++) {
    double *m = gp_alloc((n * 9 + 1) * 8), *bv = gp_alloc((n * 3 + 1) * 8);
    double *dm = gp_alloc((n * 9 + 1) * 8), *db = gp_alloc((n * 3 + 1) * 8);
    double *ret = gp_alloc((n + 1) * 8);
    for (size_t i = 0; i < n * 9; i++)
      m[i] = -2.0 + 4.0 * rng_unit(&r), dm[i] = 0.0;
    for (size_t i = 0; i < n * 3; i++)
      bv[i] = -2.0 + 4.0 * rng_unit(&r), db[i] = 0.0;
    fb(n, m, 9, bv, 3, ret);
    fg(n, m, 9, bv, 3, NULL, NULL, dm, 9, db, 3);
    for (size_t b = 0; b < n; b++) {
      double *me = m + 9 * b, *be = bv + 3 * b, h = 1e-7;
      double want = f(me, be);
      check_bits(name, n, b, ret[b], want);
      if (fabs(want) > 1e3)
        continue; /* near-singular: differences are noise */
      for (int i = 0; i < 9; i++) {
        double x0 = me[i];
        me[i] = x0 + h;
        double fp = f(me, be);
        me[i] = x0 - h;
        double fm = f(me, be);
        me[i] = x0;
        grad_check(name, n, b, i, dm[9 * b + i], (fp - fm) / (2 * h));
      }
      for (int i = 0; i < 3; i++) {
        double x0 = be[i];
        be[i] = x0 + h;
        double fp = f(me, be);
        be[i] = x0 - h;
        double fm = f(me, be);
        be[i] = x0;
        grad_check(name, n, b, 9 + i, db[3 * b + i], (fp - fm) / (2 * h));
      }
    }
    gp_reset();
  }
}

static void test_gj3(void **state) {
  (void)state;
  check_solve("gj3", gj3, gj3_batched, gj3_grad);
}

static void test_ge3(void **state) {
  (void)state;
  check_solve("ge3", ge3, ge3_batched, ge3_grad);
}

static void test_det4(void **state) {
  (void)state;
  rng_t r = {name_seed("det4")};
  for (size_t n = 0; n <= 37; n++) {
    double *m = gp_alloc((n * 16 + 1) * 8), *dm = gp_alloc((n * 16 + 1) * 8);
    double *ret = gp_alloc((n + 1) * 8);
    for (size_t i = 0; i < n * 16; i++)
      m[i] = -2.0 + 4.0 * rng_unit(&r), dm[i] = 0.0;
    det4_batched(n, m, 16, ret);
    det4_grad(n, m, 16, NULL, NULL, dm, 16);
    for (size_t b = 0; b < n; b++) {
      double *me = m + 16 * b, h = 1e-6;
      check_bits("det4", n, b, ret[b], det4(me));
      for (int i = 0; i < 16; i++) {
        double x0 = me[i];
        me[i] = x0 + h;
        double fp = det4(me);
        me[i] = x0 - h;
        double fm = det4(me);
        me[i] = x0;
        grad_check("det4", n, b, i, dm[16 * b + i], (fp - fm) / (2 * h));
      }
    }
    gp_reset();
  }
}

static void test_pick_rowsum(void **state) {
  (void)state;
  rng_t r = {name_seed("pick")};
  for (size_t n = 0; n <= 37; n++) {
    double *m = gp_alloc((n * 12 + 1) * 8), *dm = gp_alloc((n * 12 + 1) * 8);
    double *ret = gp_alloc((n + 1) * 8);
    int *k = gp_alloc((n + 1) * sizeof *k);
    for (size_t i = 0; i < n * 12; i++)
      m[i] = -2.0 + 4.0 * rng_unit(&r), dm[i] = 0.0;
    for (size_t b = 0; b < n; b++)
      k[b] = (int)rng_below(&r, 7);
    pick_batched(n, m, 12, k, ret);
    pick_grad(n, m, 12, k, NULL, NULL, dm, 12);
    for (size_t b = 0; b < n; b++) {
      double *me = m + 12 * b, h = 1e-6;
      check_bits("pick", n, b, ret[b], pick(me, k[b]));
      for (int i = 0; i < 12; i++) {
        double x0 = me[i];
        me[i] = x0 + h;
        double fp = pick(me, k[b]);
        me[i] = x0 - h;
        double fm = pick(me, k[b]);
        me[i] = x0;
        grad_check("pick", n, b, i, dm[12 * b + i], (fp - fm) / (2 * h));
      }
    }
    for (size_t i = 0; i < n * 12; i++)
      dm[i] = 0.0;
    rowsum_batched(n, m, 12, k, ret);
    rowsum_grad(n, m, 12, k, NULL, NULL, dm, 12);
    for (size_t b = 0; b < n; b++) {
      double *me = m + 12 * b, h = 1e-6;
      check_bits("rowsum", n, b, ret[b], rowsum(me, k[b]));
      for (int i = 0; i < 6; i++) {
        double x0 = me[i];
        me[i] = x0 + h;
        double fp = rowsum(me, k[b]);
        me[i] = x0 - h;
        double fm = rowsum(me, k[b]);
        me[i] = x0;
        grad_check("rowsum", n, b, i, dm[12 * b + i], (fp - fm) / (2 * h));
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_gj3),
      cmocka_unit_test(test_ge3),
      cmocka_unit_test(test_det4),
      cmocka_unit_test(test_pick_rowsum),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_row_ptrs", tests, NULL, NULL);
}
