/* Pointers set to NULL by the function, into an array parameter, tested
 * again where an earlier test or every path says they are not NULL
 * (docs/subset.md, "A pointer local declared or assigned a null pointer"):
 * an array argument is an array, never NULL (CONTRACT section 4), so such
 * a test folds, as it reads the per-lane flag where the pointer may be NULL.
 *   - NAME_batched against the scalar function bit for bit (every n of
 *     exec_util.h, NaN and ties among the entries; every example's array
 *     ends at a guard page, so an access past it would fault);
 *   - NAME_grad against closed forms (the entry each example read). */
#include "exec_util.h"

#include "../common/test_filter.h"

/* A test of it under a test of it: the inner one in the refined state. */
BATCHDIFF double nc_nested(const double a[4], double x) {
  const double *c = NULL;
  if (x > 0)
    c = a + 1;
  if (c) {
    if (c != NULL)
      return c[1] * x;
  }
  return x;
}

/* Assigned into the array parameter on every path: the test folds. */
BATCHDIFF double nc_every(const double a[4], double x) {
  const double *c = NULL;
  if (x > 0)
    c = a;
  else
    c = &a[2];
  return c ? c[0] * x + c[1] : x;
}

/* A helper's pointer parameter set to NULL on some paths, then tested. */
static double nc_h(const double *p, double x) {
  if (x < 0)
    p = NULL;
  return p ? p[0] * x : x;
}
BATCHDIFF double nc_param(const double a[4], double x) {
  return nc_h(a + 1, x) + nc_h(a, -x);
}

/* The annotated function's own array parameter, set to NULL or moved. */
BATCHDIFF double nc_own(const double a[4], double x) {
  if (x > 1)
    a = NULL;
  else if (x < -1)
    a += 2;
  return a != NULL ? a[1] * x : -x;
}

/* A local that may be NULL passed to helpers that test it: once, and two
 * of them to one helper. */
static double nc_first(const double *p, double y) {
  return p ? p[0] * y : y * y;
}
BATCHDIFF double nc_pass(const double a[4], double x) {
  const double *c = NULL;
  for (int i = 0; i < 4; i++)
    if (a[i] > x) {
      c = &a[i];
      break;
    }
  return nc_first(c, x);
}
static double nc_pair(const double *p, const double *q) {
  return (p ? *p : 1.0) * (q != NULL ? *q : 2.0);
}
BATCHDIFF double nc_pass2(const double a[4], double x) {
  const double *c = NULL, *d = NULL;
  if (x > 0)
    c = a;
  if (x > 1 || x < -1)
    d = a + 3;
  return nc_pair(c, d) * x;
}

/* The same over a ragged BD_PACKED array of 0 to 6 entries: a lane where
 * c is NULL must not read through it (an empty array is a guard page). */
BATCHDIFF double nc_pass_packed(int n, BD_PACKED const double v[n], double t) {
  const double *c = NULL;
  for (int k = 0; k < n; k++)
    if (v[k] > t) {
      c = &v[k];
      break;
    }
  return nc_first(c, t);
}

/* Read by the loop's test before the first assignment, which is an entry
 * of a table of pointers, an element of a row, a '?:' of tables. */
static const double R0[3] = {1.5, -2.0, 0.25}, R1[3] = {-0.5, 3.0, 1.0},
                    R2[3] = {2.0, 0.5, -1.5};
static const double *const ptab[3] = {R0, R1, R2};
BATCHDIFF double nc_ptab(double x) {
  const double *best = NULL;
  for (int k = 0; k < 3; k++)
    if (!best || ptab[k][0] * x < best[0] * x)
      best = ptab[k];
  return best ? best[1] * x + best[2] : 0.0;
}
BATCHDIFF double nc_rows(const double m[3][3], double x) {
  const double *best = NULL;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      if (!best || m[i][j] * x < *best * x)
        best = &m[i][j];
  return best ? *best * x : 0.0;
}
BATCHDIFF double nc_lrows(double x, double y) {
  double t[2][2] = {{x, y}, {x * y, y - x}};
  const double *best = NULL;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      if (!best || t[i][j] > *best)
        best = &t[i][j];
  return best ? *best : 0.0;
}
static const double Q0[2] = {1.0, 2.0}, Q1[2] = {-1.0, 0.5};
BATCHDIFF double nc_choice(double x) {
  const double *c = NULL;
  for (int i = 0; i < 3; i++)
    if (!c || c[0] * x < x)
      c = x > i ? Q0 : Q1;
  return c ? c[1] * x : 0.0;
}

BITS1(nc_ptab, double, double, gen_d)
BITS2(nc_lrows, double, double, gen_d, double, gen_d)
BITS1(nc_choice, double, double, gen_d)

/* A NULL arm of '?:' in a declaration and an assignment: an if/else. */
static const double TT[3] = {0.5, -1.5, 2.0};
BATCHDIFF double nc_arm(double x) {
  const double *p = x > 0 ? TT : NULL;
  double y = p ? p[1] * x : x;
  p = x < -1 ? NULL : &TT[1];
  return y + (p != NULL ? p[1] * x : 0.0);
}
/* Over a ragged array: a lane with no entries must not read v[0]. */
BATCHDIFF double nc_arm_packed(int n, BD_PACKED const double v[n], double t) {
  const double *c = n > 0 ? v : NULL;
  return c ? c[0] * t : -t;
}

BITS1(nc_arm, double, double, gen_d)

typedef void (*arr_b)(size_t, const double *, ptrdiff_t, const double *,
                      double *);
typedef void (*arr_g)(size_t, const double *, ptrdiff_t, const double *,
                      double *, const double *, double *, ptrdiff_t, double *);
/* The closed-form gradient of example (a, x): d/da[4], d/dx. */
typedef void (*arr_d)(const double *a, double x, double *da, double *dx);

static void d_nested(const double *a, double x, double *da, double *dx) {
  if (x > 0)
    da[2] = x, *dx = a[2];
  else
    *dx = 1;
}
static void d_every(const double *a, double x, double *da, double *dx) {
  int k = x > 0 ? 0 : 2;
  da[k] = x, da[k + 1] = 1, *dx = a[k];
}

static void d_param(const double *a, double x, double *da, double *dx) {
  if (x > 0)
    da[1] = x, *dx = a[1] - 1;
  else if (x < 0)
    da[0] = -x, *dx = 1 - a[0];
  else
    da[1] = x, da[0] = -x, *dx = a[1] - a[0];
}
static void d_own(const double *a, double x, double *da, double *dx) {
  if (x > 1)
    *dx = -1;
  else {
    int k = x < -1 ? 3 : 1;
    da[k] = x, *dx = a[k];
  }
}
static void d_pass(const double *a, double x, double *da, double *dx) {
  for (int i = 0; i < 4; i++)
    if (a[i] > x) {
      da[i] = x, *dx = a[i];
      return;
    }
  *dx = 2 * x;
}
static void d_pass2(const double *a, double x, double *da, double *dx) {
  int on_c = x > 0, on_d = x > 1 || x < -1;
  double c = on_c ? a[0] : 1.0, d = on_d ? a[3] : 2.0;
  if (on_c)
    da[0] = d * x;
  if (on_d)
    da[3] = c * x;
  *dx = c * d;
}

static const struct {
  const char *name;
  arr_b b;
  arr_g g;
  double (*f)(const double *, double);
  arr_d d;
} arr_fns[] = {
    {"nc_nested", nc_nested_batched, nc_nested_grad, nc_nested, d_nested},
    {"nc_every", nc_every_batched, nc_every_grad, nc_every, d_every},
    {"nc_param", nc_param_batched, nc_param_grad, nc_param, d_param},
    {"nc_own", nc_own_batched, nc_own_grad, nc_own, d_own},
    {"nc_pass", nc_pass_batched, nc_pass_grad, nc_pass, d_pass},
    {"nc_pass2", nc_pass2_batched, nc_pass2_grad, nc_pass2, d_pass2},
};

static double gen_entry(rng_t *r) {
  static const double edge[] = {NAN, 0.0, -0.0, 1.0, -1.0, INFINITY, 0.5};
  if (rng_below(r, 6) == 0)
    return edge[rng_below(r, sizeof edge / sizeof edge[0])];
  return rng_range(r, -2.0, 2.0);
}
static double gen_x(rng_t *r) {
  if (rng_below(r, 8) == 0)
    return rng_below(r, 2) ? NAN : 0.0;
  return rng_range(r, -3.0, 3.0);
}

/* Each function of arr_fns: bits, then gradients (finite entries). */
static void t_arrays(void **state) {
  (void)state;
  for (size_t f = 0; f < sizeof arr_fns / sizeof arr_fns[0]; f++) {
    rng_t rng = {name_seed(arr_fns[f].name)};
    for (size_t ni = 0; ni < N_TEST_NS; ni++)
      for (int rep = 0; rep < 4; rep++) {
        size_t n = test_ns[ni];
        int fin = rep & 1; /* finite entries: gradients */
        double *a = gp_alloc(n * 4 * 8), *x = gp_alloc(n * 8);
        double *got = gp_alloc(n * 8), *s = gp_alloc(n * 8);
        double *ga = gp_alloc(n * 4 * 8), *gx = gp_alloc(n * 8);
        for (size_t e = 0; e < n; e++) {
          for (int i = 0; i < 4; i++)
            a[e * 4 + i] = fin ? rng_range(&rng, -2.0, 2.0) : gen_entry(&rng),
                      ga[e * 4 + i] = 0;
          x[e] = fin ? rng_range(&rng, -3.0, 3.0) : gen_x(&rng);
          s[e] = rng_range(&rng, -2.0, 2.0);
          gx[e] = 0;
        }
        gp_seal(a), gp_seal(x), gp_seal(s);
        arr_fns[f].b(n, a, 4, x, got);
        for (size_t e = 0; e < n; e++) {
          double want = arr_fns[f].f(a + e * 4, x[e]);
          if (!CMP_BITS(got[e], want)) {
            print_error("%s n=%zu e=%zu: %a, want %a\n", arr_fns[f].name, n, e,
                        got[e], want);
            fail();
          }
        }
        if (!fin) {
          gp_reset();
          continue;
        }
        arr_fns[f].g(n, a, 4, x, got, s, ga, 4, gx);
        for (size_t e = 0; e < n; e++) {
          double da[4] = {0}, dx = 0;
          arr_fns[f].d(a + e * 4, x[e], da, &dx);
          bool ok = close_to(gx[e], s[e] * dx, 1e-12);
          for (int i = 0; i < 4; i++)
            ok &= close_to(ga[e * 4 + i], s[e] * da[i], 1e-12);
          if (!ok) {
            print_error("%s_grad n=%zu e=%zu x=%.17g: d_x %.17g want %.17g\n",
                        arr_fns[f].name, n, e, x[e], gx[e], s[e] * dx);
            fail();
          }
        }
        gp_reset();
      }
  }
}

/* nc_pass_packed: each of the first 64 examples' entries end at a guard
 * page (an empty one: the page itself), one call each; the rest packed. */
static void t_packed(void **state) {
  (void)state;
  rng_t rng = {name_seed("nc_pass_packed")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    int *len = gp_alloc(n * sizeof(int));
    size_t *off = gp_alloc(n * sizeof(size_t));
    double *t = gp_alloc(n * 8), *got = gp_alloc(n * 8), *dt = gp_alloc(n * 8);
    size_t total = 0;
    for (size_t e = 0; e < n; e++) {
      len[e] = (int)rng_below(&rng, 7);
      total += (size_t)len[e];
      t[e] = rng_below(&rng, 8) ? rng_range(&rng, -1.0, 1.0) : NAN;
      dt[e] = 0;
    }
    double *base = gp_alloc(total * 8);
    const double **own = calloc(n + 1, sizeof *own);
    for (size_t e = 0, at = 0; e < n; at += (size_t)len[e], e++) {
      double *p = e < 64 ? gp_alloc((size_t)len[e] * 8) : base + at;
      own[e] = p;
      for (int k = 0; k < len[e]; k++)
        p[k] = base[at + (size_t)k] =
            rng_below(&rng, 6) ? rng_range(&rng, -1.0, 1.0) : NAN;
    }
    for (size_t e = 0, o = 0; e < n; e++)
      off[e] = o, o += (size_t)len[e];
    double *got2 = gp_alloc(n * 8), *dt2 = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      dt2[e] = 0;
    for (size_t e = 0; e < n && e < 64; e++) {
      size_t zero = 0;
      nc_pass_packed_batched(1, &len[e], own[e], &zero, &t[e], &got[e]);
      nc_pass_packed_grad(1, &len[e], own[e], &zero, &t[e], NULL, NULL, NULL,
                          &dt[e]);
      nc_arm_packed_batched(1, &len[e], own[e], &zero, &t[e], &got2[e]);
      nc_arm_packed_grad(1, &len[e], own[e], &zero, &t[e], NULL, NULL, NULL,
                         &dt2[e]);
    }
    if (n > 64) {
      nc_arm_packed_batched(n - 64, len + 64, base, off + 64, t + 64,
                            got2 + 64);
      nc_arm_packed_grad(n - 64, len + 64, base, off + 64, t + 64, NULL, NULL,
                         NULL, dt2 + 64);
    }
    for (size_t e = 0; e < n; e++) {
      double want = nc_arm_packed(len[e], own[e], t[e]);
      double d = len[e] > 0 ? own[e][0] : -1.0;
      if (!CMP_BITS(got2[e], want) || !CMP_BITS(dt2[e], d)) {
        print_error("nc_arm_packed n=%zu e=%zu len=%d: %a want %a\n", n, e,
                    len[e], got2[e], want);
        fail();
      }
    }
    if (n > 64) {
      nc_pass_packed_batched(n - 64, len + 64, base, off + 64, t + 64,
                             got + 64);
      nc_pass_packed_grad(n - 64, len + 64, base, off + 64, t + 64, NULL, NULL,
                          NULL, dt + 64);
    }
    for (size_t e = 0; e < n; e++) {
      double want = nc_pass_packed(len[e], own[e], t[e]), d = 2 * t[e];
      for (int k = 0; k < len[e]; k++)
        if (own[e][k] > t[e]) {
          d = own[e][k];
          break;
        }
      if (!CMP_BITS(got[e], want) || !CMP_BITS(dt[e], d)) {
        print_error("nc_pass_packed n=%zu e=%zu len=%d: %a want %a, d %a "
                    "want %a\n",
                    n, e, len[e], got[e], want, dt[e], d);
        fail();
      }
    }
    free(own);
    gp_reset();
  }
}

/* nc_rows: bits (NaN, ties among the entries; guard pages); nc_ptab,
 * nc_rows, nc_lrows, nc_choice: gradients vs closed forms (the entry each
 * example chose). */
static void t_first_forms(void **state) {
  (void)state;
  rng_t rng = {name_seed("nc_rows")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++)
    for (int rep = 0; rep < 4; rep++) {
      size_t n = test_ns[ni];
      int fin = rep & 1;
      double *m = gp_alloc(n * 9 * 8), *x = gp_alloc(n * 8);
      double *y = gp_alloc(n * 8), *got = gp_alloc(n * 8);
      double *s = gp_alloc(n * 8), *gm = gp_alloc(n * 9 * 8);
      double *gx = gp_alloc(n * 8), *gy = gp_alloc(n * 8);
      for (size_t e = 0; e < n; e++) {
        for (int i = 0; i < 9; i++)
          m[e * 9 + i] = fin ? (double)((int)rng_below(&rng, 7) - 3) * 0.5
                             : gen_entry(&rng),
                    gm[e * 9 + i] = 0;
        x[e] = fin ? rng_range(&rng, -3.0, 3.0) : gen_x(&rng);
        y[e] = rng_range(&rng, -3.0, 3.0);
        s[e] = rng_range(&rng, -2.0, 2.0);
        gx[e] = gy[e] = 0;
      }
      gp_seal(m), gp_seal(x), gp_seal(y), gp_seal(s);
      nc_rows_batched(n, m, 9, x, got);
      for (size_t e = 0; e < n; e++) {
        double want = nc_rows((const double(*)[3])(m + e * 9), x[e]);
        if (!CMP_BITS(got[e], want)) {
          print_error("nc_rows n=%zu e=%zu: %a, want %a\n", n, e, got[e],
                      want);
          fail();
        }
      }
      if (!fin) {
        gp_reset();
        continue;
      }
      nc_rows_grad(n, m, 9, x, got, s, gm, 9, gx);
      for (size_t e = 0; e < n; e++) {
        const double *me = m + e * 9;
        int b = 0;
        for (int i = 1; i < 9; i++)
          if (me[i] * x[e] < me[b] * x[e])
            b = i;
        bool ok = close_to(gx[e], s[e] * me[b], 1e-12);
        for (int i = 0; i < 9; i++)
          ok &= close_to(gm[e * 9 + i], i == b ? s[e] * x[e] : 0.0, 1e-12);
        if (!ok) {
          print_error("nc_rows_grad n=%zu e=%zu: entry %d\n", n, e, b);
          fail();
        }
      }
      for (size_t e = 0; e < n; e++)
        gx[e] = 0;
      nc_ptab_grad(n, x, NULL, s, gx);
      for (size_t e = 0; e < n; e++) {
        int k = 0;
        for (int i = 1; i < 3; i++)
          if (ptab[i][0] * x[e] < ptab[k][0] * x[e])
            k = i;
        if (!close_to(gx[e], s[e] * ptab[k][1], 1e-12)) {
          print_error("nc_ptab_grad x=%.17g: %.17g, want %.17g\n", x[e],
                      gx[e], s[e] * ptab[k][1]);
          fail();
        }
      }
      for (size_t e = 0; e < n; e++)
        gx[e] = 0;
      nc_lrows_grad(n, x, y, NULL, s, gx, gy);
      for (size_t e = 0; e < n; e++) {
        /* d(t[i][j])/dx, d/dy of x, y, x*y, y-x; the first largest. */
        double xe = x[e], ye = y[e], t[4] = {xe, ye, xe * ye, ye - xe};
        double dtx[4] = {1, 0, ye, -1}, dty[4] = {0, 1, xe, 1};
        int b = 0;
        for (int i = 1; i < 4; i++)
          if (t[i] > t[b])
            b = i;
        if (!close_to(gx[e], s[e] * dtx[b], 1e-12) ||
            !close_to(gy[e], s[e] * dty[b], 1e-12)) {
          print_error("nc_lrows_grad x=%.17g y=%.17g: entry %d\n", xe, ye, b);
          fail();
        }
      }
      for (size_t e = 0; e < n; e++)
        gx[e] = 0;
      nc_arm_grad(n, x, NULL, s, gx);
      for (size_t e = 0; e < n; e++) {
        double d = (x[e] > 0 ? TT[1] : 1.0) + (x[e] < -1 ? 0.0 : TT[2]);
        if (!close_to(gx[e], s[e] * d, 1e-12)) {
          print_error("nc_arm_grad x=%.17g: %.17g, want %.17g\n", x[e], gx[e],
                      s[e] * d);
          fail();
        }
      }
      for (size_t e = 0; e < n; e++)
        gx[e] = 0;
      nc_choice_grad(n, x, NULL, s, gx);
      for (size_t e = 0; e < n; e++) {
        const double *c = NULL;
        for (int i = 0; i < 3; i++)
          if (!c || c[0] * x[e] < x[e])
            c = x[e] > i ? Q0 : Q1;
        if (!close_to(gx[e], s[e] * c[1], 1e-12)) {
          print_error("nc_choice_grad x=%.17g: %.17g, want %.17g\n", x[e],
                      gx[e], s[e] * c[1]);
          fail();
        }
      }
      gp_reset();
    }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_arrays),
      cmocka_unit_test(t_packed),
      cmocka_unit_test(t_first_forms),
      T_(nc_ptab),
      T_(nc_lrows),
      T_(nc_choice),
      T_(nc_arm),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_null_cons", tests, NULL, NULL);
}
