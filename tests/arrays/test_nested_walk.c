/* Pointer walks in nested loops, as matrix code writes them: a row pointer
 * stepped once per row, `row += 4` or `A += c` (c an integer parameter),
 * read as row[j] under `j < 4` / `j < c`; `*p++` in an inner loop; and the
 * same walks over a local array and a file-scope table (docs/subset.md).
 * Flat indices A[i * c + j] of the same r x c matrices, and row pointers
 * A + i * c into them (no walk).
 * Extents: 4 x r, r x c, 3 x n.
 *   - NAME_batched bit for bit the scalar function (and the declared
 *     forms), BD_PACKED with a guard page after every example's last
 *     element for the ragged r x c matrices;
 *   - NAME_grad bit for bit the declared forms', and the residual's
 *     gradient against its closed form (d A_ij = 2 r_i v_j, d v_j = sum_i
 *     2 r_i A_ij) and central differences. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"

/* sum_i (A_i . v - b_i)^2 over r rows of 4. */
BATCHDIFF double rs_decl(int r, const double A[r][4], const double v[4],
                         BD_UNIFORM double b) {
  double s = 0.0;
  for (int i = 0; i < r; i++) {
    double t = -b;
    for (int j = 0; j < 4; j++)
      t += A[i][j] * v[j];
    s += t * t;
  }
  return s;
}
BATCHDIFF double rs_row(const double *A, const double v[4], int r,
                        BD_UNIFORM double b) {
  const double *row = A;
  double s = 0.0;
  for (int i = 0; i < r; i++) {
    double t = -b;
    for (int j = 0; j < 4; j++)
      t += row[j] * v[j];
    s += t * t;
    row += 4;
  }
  return s;
}

/* r x c, ragged, the parameter stepped itself by c. */
BATCHDIFF double rs_rc(BD_PACKED const double *A, BD_PACKED const double *v,
                       int r, int c, BD_UNIFORM double b) {
  double s = 0.0;
  for (int i = 0; i < r; i++) {
    double t = -b;
    for (int j = 0; j < c; j++)
      t += A[j] * v[j];
    s += t * t;
    A += c;
  }
  return s;
}

/* The same r x c matrix indexed flat, A[i * c + j] (no walk). */
BATCHDIFF double rs_flat(BD_PACKED const double *A, BD_PACKED const double *v,
                         int r, int c, BD_UNIFORM double b) {
  double s = 0.0;
  for (int i = 0; i < r; i++) {
    double t = -b;
    for (int j = 0; j < c; j++)
      t += A[i * c + j] * v[j];
    s += t * t;
  }
  return s;
}
/* Square, the terms and factors the other way round: A[j + n * i]. */
BATCHDIFF double rs_square(BD_PACKED const double *A, BD_PACKED const double *v,
                           int n, BD_UNIFORM double b) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double t = -b;
    for (int j = 0; j < n; j++)
      t += A[j + n * i] * v[j];
    s += t * t;
  }
  return s;
}

/* Row pointers into the flat matrix: `A + i * c` and `&A[c * i]`. */
BATCHDIFF double rs_rowptr(BD_PACKED const double *A, BD_PACKED const double *v,
                           int r, int c, BD_UNIFORM double b) {
  double s = 0.0;
  for (int i = 0; i < r; i++) {
    const double *row = A + i * c;
    double t = -b;
    for (int j = 0; j < c; j++)
      t += row[j] * v[j];
    s += t * t;
  }
  return s;
}
BATCHDIFF double rs_rowaddr(BD_PACKED const double *A,
                            BD_PACKED const double *v, int r, int c,
                            BD_UNIFORM double b) {
  double s = 0.0;
  for (int i = 0; i < r; i++) {
    const double *row = &A[c * i];
    double t = -b;
    for (int j = 0; j < c; j++)
      t += row[j] * v[j];
    s += t * t;
  }
  return s;
}

/* `*p++` in an inner loop: products of triples. */
BATCHDIFF double tp_decl(int n, const double p[3 * n]) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double t = 1.0;
    for (int j = 0; j < 3; j++)
      t *= p[3 * i + j];
    s = 0.5 * s + t;
  }
  return s;
}
BATCHDIFF double tp_walk(const double *p, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double t = 1.0;
    for (int j = 0; j < 3; j++)
      t *= *p++;
    s = 0.5 * s + t;
  }
  return s;
}

/* Row pointers over a local array and a file-scope table. */
static const double TB[3][4] = {
    {0.5, -1.0, 2.0, 0.25}, {1.5, 0.75, -0.5, 1.0}, {-2.0, 0.125, 1.0, 3.0}};
BATCHDIFF double rs_local(const double v[4], double a) {
  double M[12];
  for (int k = 0; k < 12; k++)
    M[k] = a * (double)(k - 5) + v[k & 3];
  const double *row = M, *trow = TB[0];
  double s = 0.0;
  for (int i = 0; i < 3; i++) {
    double t = 0.0;
    for (int j = 0; j < 4; j++)
      t += row[j] * v[j] + trow[j] * a;
    s += t * t;
    row += 4;
    trow += 4;
  }
  const double *p = &TB[0][0];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      s += *p++ * v[j];
  return s;
}

#include "ragged_util.h"

static void t_rows(void **state) {
  (void)state;
  rng_t rg = {name_seed("nested rows")};
  const double b = 0.375;
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k], st = 4 * 20;
    int *r = calloc(n + 1, sizeof(int));
    gen_lens(&rg, n, r, 20);
    double *A = calloc(n * st + 1, 8), *v = calloc(n * 4 + 1, 8);
    double *gA0 = calloc(n * st + 1, 8), *gA = calloc(n * st + 1, 8);
    double *gv0 = calloc(n * 4 + 1, 8), *gv = calloc(n * 4 + 1, 8);
    double *want = calloc(n + 1, 8), *got = calloc(n + 1, 8);
    double db0 = 0.0, db = 0.0;
    for (size_t e = 0; e < n * st; e++)
      A[e] = rng_range(&rg, -1.0, 1.0);
    for (size_t e = 0; e < n * 4; e++)
      v[e] = rng_range(&rg, -1.0, 1.0);
    rs_decl_batched(n, r, A, (ptrdiff_t)st, v, 4, b, want);
    rs_row_batched(n, A, (ptrdiff_t)st, v, 4, r, b, got);
    for (size_t e = 0; e < n; e++) {
      EXPECT_SAME(want[e],
                  rs_decl(r[e], (const double(*)[4])(A + e * st), v + 4 * e, b),
                  "rs_decl_batched n=%zu b=%zu", n, e);
      EXPECT_SAME(got[e], want[e], "rs_row_batched n=%zu b=%zu", n, e);
    }
    rs_decl_grad(n, r, A, (ptrdiff_t)st, v, 4, b, NULL, NULL, gA0,
                 (ptrdiff_t)st, gv0, 4, &db0);
    rs_row_grad(n, A, (ptrdiff_t)st, v, 4, r, b, NULL, NULL, gA, (ptrdiff_t)st,
                gv, 4, &db);
    for (size_t e = 0; e < n * st; e++)
      EXPECT_SAME(gA[e], gA0[e], "rs_row_grad d_A n=%zu element %zu", n, e);
    for (size_t e = 0; e < n * 4; e++)
      EXPECT_SAME(gv[e], gv0[e], "rs_row_grad d_v n=%zu element %zu", n, e);
    EXPECT_SAME(db, db0, "rs_row_grad d_b n=%zu", n);
    free(r), free(A), free(v), free(gA0), free(gA), free(gv0), free(gv);
    free(want), free(got);
  }
}

/* Ragged r x c matrices and c-vectors, packed, guard pages. */
static void t_rc(void **state) {
  (void)state;
  rng_t rg = {name_seed("nested rc")};
  const double b = -0.25;
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k];
    int *r = calloc(n + 1, sizeof(int)), *c = calloc(n + 1, sizeof(int));
    int *la = calloc(n + 1, sizeof(int));
    gen_lens(&rg, n, r, 12);
    gen_lens(&rg, n, c, 9);
    for (size_t e = 0; e < n; e++)
      la[e] = r[e] * c[e];
    pk_t A, V, GA, GV;
    pk_make(&A, n, la, 1), pk_make(&V, n, c, 1);
    pk_make(&GA, n, la, 1), pk_make(&GV, n, c, 1);
    fill(&A, n, la, &rg), fill(&V, n, c, &rg);
    for (size_t e = 0; e < n; e++) {
      for (int i = 0; i < la[e]; i++)
        AT(&GA, e, i) = 0.0;
      for (int i = 0; i < c[e]; i++)
        AT(&GV, e, i) = 0.0;
    }
    double *got = calloc(n + 1, 8), db = 0.0, dbs = 0.0;
    rs_rc_batched(n, A.base, A.off, V.base, V.off, r, c, b, got);
    rs_rc_grad(n, A.base, A.off, V.base, V.off, r, c, b, NULL, NULL, GA.base,
               GV.base, &db);
    for (size_t e = 0; e < n; e++) {
      const double *a = &AT(&A, e, 0), *v = &AT(&V, e, 0);
      EXPECT_SAME(got[e], rs_rc(a, v, r[e], c[e], b),
                  "rs_rc_batched n=%zu b=%zu", n, e);
      /* The closed form: residuals t_i, d A_ij = 2 t_i v_j, d v_j = sum_i
       * 2 t_i A_ij, d b = -sum_i 2 t_i. */
      for (int j = 0; j < c[e]; j++) {
        double dv = 0.0;
        for (int i = 0; i < r[e]; i++) {
          double t = -b;
          for (int l = 0; l < c[e]; l++)
            t += a[i * c[e] + l] * v[l];
          if (!close_to(AT(&GA, e, i * c[e] + j), 2 * t * v[j], 1e-12)) {
            print_error("rs_rc_grad d_A n=%zu b=%zu (%d,%d): %g want %g\n", n,
                        e, i, j, AT(&GA, e, i * c[e] + j), 2 * t * v[j]);
            fail();
          }
          dv += 2 * t * a[i * c[e] + j];
        }
        if (!close_to(AT(&GV, e, j), dv, 1e-12)) {
          print_error("rs_rc_grad d_v n=%zu b=%zu j=%d: %g want %g\n", n, e, j,
                      AT(&GV, e, j), dv);
          fail();
        }
      }
      for (int i = 0; i < r[e]; i++) {
        double t = -b;
        for (int l = 0; l < c[e]; l++)
          t += a[i * c[e] + l] * v[l];
        dbs -= 2 * t;
      }
    }
    if (!close_to(db, dbs, 1e-10)) {
      print_error("rs_rc_grad d_b n=%zu: %g want %g\n", n, db, dbs);
      fail();
    }
    pk_check_gaps(&GA, n, la, "rs_rc_grad d_A");
    pk_check_gaps(&GV, n, c, "rs_rc_grad d_v");
    pk_free(&A), pk_free(&V), pk_free(&GA), pk_free(&GV);
    free(r), free(c), free(la), free(got);
  }
}

/* rs_flat, rs_square, rs_rowptr and rs_rowaddr against rs_rc (the same
 * arithmetic): batched and gradients bit for bit, guard pages after every
 * example's last element (square: r = c). */
typedef void (*flat_batched)(size_t, const double *, const size_t *,
                             const double *, const size_t *, const int *,
                             const int *, double, double *);
typedef void (*flat_grad)(size_t, const double *, const size_t *,
                          const double *, const size_t *, const int *,
                          const int *, double, double *, const double *,
                          double *, double *, double *);
typedef double (*flat_scalar)(const double *, const double *, int, int, double);
/* rs_square's signature is (A, v, n, b): adapters with r = c = n. */
static void sq_batched(size_t n, const double *A, const size_t *ao,
                       const double *v, const size_t *vo, const int *r,
                       const int *c, double b, double *ret) {
  (void)c;
  rs_square_batched(n, A, ao, v, vo, r, b, ret);
}
static void sq_grad(size_t n, const double *A, const size_t *ao,
                    const double *v, const size_t *vo, const int *r,
                    const int *c, double b, double *ret, const double *dret,
                    double *dA, double *dv, double *db) {
  (void)c;
  rs_square_grad(n, A, ao, v, vo, r, b, ret, dret, dA, dv, db);
}
static double sq_scalar(const double *A, const double *v, int r, int c,
                        double b) {
  (void)c;
  return rs_square(A, v, r, b);
}
static const struct {
  const char *name;
  flat_batched fb;
  flat_grad fg;
  flat_scalar fs;
  int square;
} flat_fns[] = {
    {"rs_flat", rs_flat_batched, rs_flat_grad, rs_flat, 0},
    {"rs_square", sq_batched, sq_grad, sq_scalar, 1},
    {"rs_rowptr", rs_rowptr_batched, rs_rowptr_grad, rs_rowptr, 0},
    {"rs_rowaddr", rs_rowaddr_batched, rs_rowaddr_grad, rs_rowaddr, 0},
};

static void t_flat(void **state) {
  (void)state;
  rng_t rg = {name_seed("nested flat")};
  const double b = 0.625;
  for (size_t f = 0; f < sizeof flat_fns / sizeof flat_fns[0]; f++)
    for (size_t k = 0; k < N_NS; k++) {
      size_t n = ns[k];
      const char *fn = flat_fns[f].name;
      int *r = calloc(n + 1, sizeof(int)), *c = calloc(n + 1, sizeof(int));
      int *la = calloc(n + 1, sizeof(int));
      gen_lens(&rg, n, r, 11);
      if (flat_fns[f].square)
        memcpy(c, r, n * sizeof(int));
      else
        gen_lens(&rg, n, c, 7);
      for (size_t e = 0; e < n; e++)
        la[e] = r[e] * c[e];
      pk_t A, V, GA0, GV0, GA, GV;
      pk_make(&A, n, la, 1), pk_make(&V, n, c, 1);
      pk_make(&GA0, n, la, 1), pk_make(&GV0, n, c, 1);
      pk_make(&GA, n, la, 1), pk_make(&GV, n, c, 1);
      fill(&A, n, la, &rg), fill(&V, n, c, &rg);
      for (size_t e = 0; e < n; e++) {
        for (int i = 0; i < la[e]; i++)
          AT(&GA0, e, i) = AT(&GA, e, i) = 0.0;
        for (int i = 0; i < c[e]; i++)
          AT(&GV0, e, i) = AT(&GV, e, i) = 0.0;
      }
      double *want = calloc(n + 1, 8), *got = calloc(n + 1, 8);
      double db0 = 0.0, db = 0.0;
      rs_rc_batched(n, A.base, A.off, V.base, V.off, r, c, b, want);
      rs_rc_grad(n, A.base, A.off, V.base, V.off, r, c, b, NULL, NULL, GA0.base,
                 GV0.base, &db0);
      flat_fns[f].fb(n, A.base, A.off, V.base, V.off, r, c, b, got);
      flat_fns[f].fg(n, A.base, A.off, V.base, V.off, r, c, b, NULL, NULL,
                     GA.base, GV.base, &db);
      for (size_t e = 0; e < n; e++) {
        const double *a = &AT(&A, e, 0), *v = &AT(&V, e, 0);
        EXPECT_SAME(flat_fns[f].fs(a, v, r[e], c[e], b),
                    rs_rc(a, v, r[e], c[e], b), "%s scalar n=%zu b=%zu", fn, n,
                    e);
        EXPECT_SAME(got[e], want[e], "%s_batched n=%zu b=%zu", fn, n, e);
        for (int i = 0; i < la[e]; i++)
          EXPECT_SAME(AT(&GA, e, i), AT(&GA0, e, i),
                      "%s_grad d_A n=%zu b=%zu i=%d", fn, n, e, i);
        for (int i = 0; i < c[e]; i++)
          EXPECT_SAME(AT(&GV, e, i), AT(&GV0, e, i),
                      "%s_grad d_v n=%zu b=%zu i=%d", fn, n, e, i);
      }
      EXPECT_SAME(db, db0, "%s_grad d_b n=%zu", fn, n);
      pk_check_gaps(&GA, n, la, "flat grad d_A");
      pk_check_gaps(&GV, n, c, "flat grad d_v");
      pk_free(&A), pk_free(&V), pk_free(&GA0), pk_free(&GV0);
      pk_free(&GA), pk_free(&GV);
      free(r), free(c), free(la), free(want), free(got);
    }
}

static void t_inner(void **state) {
  (void)state;
  rng_t rg = {name_seed("nested inner")};
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k], st = 3 * 25;
    int *cnt = calloc(n + 1, sizeof(int));
    gen_lens(&rg, n, cnt, 25);
    double *p = calloc(n * st + 1, 8), *g0 = calloc(n * st + 1, 8);
    double *g = calloc(n * st + 1, 8), *want = calloc(n + 1, 8);
    double *got = calloc(n + 1, 8);
    for (size_t e = 0; e < n * st; e++)
      p[e] = rng_range(&rg, -1.5, 1.5);
    tp_decl_batched(n, cnt, p, (ptrdiff_t)st, want);
    tp_walk_batched(n, p, (ptrdiff_t)st, cnt, got);
    for (size_t e = 0; e < n; e++) {
      EXPECT_SAME(want[e], tp_walk(p + e * st, cnt[e]),
                  "tp_decl_batched n=%zu b=%zu", n, e);
      EXPECT_SAME(got[e], want[e], "tp_walk_batched n=%zu b=%zu", n, e);
    }
    tp_decl_grad(n, cnt, p, (ptrdiff_t)st, NULL, NULL, g0, (ptrdiff_t)st);
    tp_walk_grad(n, p, (ptrdiff_t)st, cnt, NULL, NULL, g, (ptrdiff_t)st);
    for (size_t e = 0; e < n * st; e++)
      EXPECT_SAME(g[e], g0[e], "tp_walk_grad d_p n=%zu element %zu", n, e);
    for (size_t e = 0; e < n && e < 6; e++)
      for (int i = 0; i < 3 * cnt[e]; i++) {
        double *x = p + e * st + i, x0 = *x, h = 1e-6;
        *x = x0 + h;
        double up = tp_walk(p + e * st, cnt[e]);
        *x = x0 - h;
        double dn = tp_walk(p + e * st, cnt[e]);
        *x = x0;
        if (!close_to(g[e * st + (size_t)i], (up - dn) / (2 * h), 1e-6)) {
          print_error("tp_walk_grad n=%zu b=%zu i=%d: %g fd %g\n", n, e, i,
                      g[e * st + (size_t)i], (up - dn) / (2 * h));
          fail();
        }
      }
    free(cnt), free(p), free(g0), free(g), free(want), free(got);
  }
}

static void t_local(void **state) {
  (void)state;
  rng_t rg = {name_seed("nested local")};
  for (size_t k = 0; k < N_NS; k++) {
    size_t n = ns[k];
    double *v = calloc(n * 4 + 1, 8), *a = calloc(n + 1, 8);
    double *got = calloc(n + 1, 8), *gv = calloc(n * 4 + 1, 8);
    double *ga = calloc(n + 1, 8);
    for (size_t e = 0; e < n; e++) {
      a[e] = rng_range(&rg, -1.0, 1.0);
      for (int j = 0; j < 4; j++)
        v[4 * e + j] = rng_range(&rg, -1.0, 1.0);
    }
    rs_local_batched(n, v, 4, a, got);
    rs_local_grad(n, v, 4, a, NULL, NULL, gv, 4, ga);
    for (size_t e = 0; e < n; e++) {
      double *ve = v + 4 * e, h = 1e-6;
      EXPECT_SAME(got[e], rs_local(ve, a[e]), "rs_local_batched n=%zu b=%zu", n,
                  e);
      double fa = (rs_local(ve, a[e] + h) - rs_local(ve, a[e] - h)) / (2 * h);
      if (!close_to(ga[e], fa, 1e-6)) {
        print_error("rs_local_grad d_a n=%zu b=%zu: %g fd %g\n", n, e, ga[e],
                    fa);
        fail();
      }
      for (int j = 0; j < 4; j++) {
        double x0 = ve[j];
        ve[j] = x0 + h;
        double up = rs_local(ve, a[e]);
        ve[j] = x0 - h;
        double dn = rs_local(ve, a[e]);
        ve[j] = x0;
        if (!close_to(gv[4 * e + j], (up - dn) / (2 * h), 1e-6)) {
          print_error("rs_local_grad d_v n=%zu b=%zu j=%d: %g fd %g\n", n, e, j,
                      gv[4 * e + j], (up - dn) / (2 * h));
          fail();
        }
      }
    }
    free(v), free(a), free(got), free(gv), free(ga);
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_rows),  cmocka_unit_test(t_rc),
      cmocka_unit_test(t_flat),  cmocka_unit_test(t_inner),
      cmocka_unit_test(t_local),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
