/* A pointer chosen per example between array parameters the function only
 * reads, of a constant length (docs/subset.md, tables and array
 * parameters): `const double *best = x > 0 ? a : b;`, re-pointed from one
 * to the other, passed to a helper, mixed with a file-scope table and with
 * a BD_UNIFORM array, as the first assignment of a pointer set to NULL
 * that a loop's test reads before it. Each lane reads its own choice (the
 * other arrays at an index within them):
 *   - NAME_batched against the scalar function bit for bit (every n of
 *     exec_util.h, NaN, infinities and signed zeros among the entries and
 *     x; the arrays have different strides, and the last example's array
 *     of each ends at a guard page, so a read past it would fault);
 *   - NAME_grad against closed forms (the entries each example read; the
 *     uniform array's gradient summed over the examples), NAME_jvp's
 *     tangents too (the chosen array's tangents). */
#include "exec_util.h"

#include "../common/test_filter.h"

BATCHDIFF BD_JVP double pp_two(const double a[4], const double b[4], double x) {
  const double *best = x > 0 ? a : b;
  return best[1] * x + best[0];
}

/* Re-pointed into the second array; a loop over the choice. */
BATCHDIFF BD_JVP double pp_rep(const double a[4], const double b[4], double x) {
  const double *p = a;
  if (x > 1)
    p = b;
  double s = 0;
  for (int i = 0; i < 4; i++)
    s = s * x + p[i];
  return s;
}

/* Handed to a helper that walks it (polevl's shape). */
static double pp_horner(const double *c, int n, double x) {
  double s = *c++;
  while (--n > 0)
    s = s * x + *c++;
  return s;
}
BATCHDIFF double pp_helper(const double a[4], const double b[4], double x) {
  return pp_horner(x < 0 ? a : b, 4, x);
}

/* Between a parameter and a file-scope table. */
static const double PT[4] = {0.25, -1.5, 2.0, 0.75};
BATCHDIFF double pp_table(const double a[4], const double b[4], double x) {
  const double *c = x > 0 ? a : PT;
  return c[3] * x + c[2] + b[0];
}

/* Set to NULL, then read by the loop's test before its first assignment,
 * a '?:' of the parameters (test_null_cons.c's nc_choice with tables). */
BATCHDIFF double pp_null(const double a[4], const double b[4], double x) {
  const double *c = NULL;
  for (int i = 0; i < 3; i++)
    if (!c || c[0] * x < x)
      c = x > i ? a : b;
  return c ? c[1] * x : 0.0;
}

/* Between a uniform array and a per-example one. */
BATCHDIFF double pp_uni(BD_UNIFORM const double w[4], const double a[4],
                        double x) {
  const double *c = x > 0 ? w : a;
  return c[2] * x * x + c[0];
}

typedef void (*two_b)(size_t, const double *, ptrdiff_t, const double *,
                      ptrdiff_t, const double *, double *);
typedef void (*two_g)(size_t, const double *, ptrdiff_t, const double *,
                      ptrdiff_t, const double *, double *, const double *,
                      double *, ptrdiff_t, double *, ptrdiff_t, double *);
/* The closed-form gradient of example (a, b, x): d/da[4], d/db[4], d/dx. */
typedef void (*two_d)(const double *a, const double *b, double x, double *da,
                      double *db, double *dx);

static void d_two(const double *a, const double *b, double x, double *da,
                  double *db, double *dx) {
  double *d = x > 0 ? da : db;
  const double *c = x > 0 ? a : b;
  d[1] = x, d[0] = 1, *dx = c[1];
}
static void d_rep(const double *a, const double *b, double x, double *da,
                  double *db, double *dx) {
  double *d = x > 1 ? db : da;
  const double *c = x > 1 ? b : a;
  d[0] = x * x * x, d[1] = x * x, d[2] = x, d[3] = 1;
  *dx = 3 * c[0] * x * x + 2 * c[1] * x + c[2];
}
static void d_helper(const double *a, const double *b, double x, double *da,
                     double *db, double *dx) {
  const double *c = x < 0 ? a : b;
  double *d = x < 0 ? da : db;
  d[0] = x * x * x, d[1] = x * x, d[2] = x, d[3] = 1;
  *dx = 3 * c[0] * x * x + 2 * c[1] * x + c[2];
}
static void d_table(const double *a, const double *b, double x, double *da,
                    double *db, double *dx) {
  (void)b;
  if (x > 0)
    da[3] = x, da[2] = 1;
  db[0] = 1;
  *dx = x > 0 ? a[3] : PT[3];
}

static void d_null(const double *a, const double *b, double x, double *da,
                   double *db, double *dx) {
  const double *c = NULL;
  double *d = NULL;
  for (int i = 0; i < 3; i++)
    if (!c || c[0] * x < x)
      c = x > i ? a : b, d = x > i ? da : db;
  d[1] = x, *dx = c[1];
}

static const struct {
  const char *name;
  two_b b;
  two_g g;
  double (*f)(const double *, const double *, double);
  two_d d;
} two_fns[] = {
    {"pp_two", pp_two_batched, pp_two_grad, pp_two, d_two},
    {"pp_rep", pp_rep_batched, pp_rep_grad, pp_rep, d_rep},
    {"pp_helper", pp_helper_batched, pp_helper_grad, pp_helper, d_helper},
    {"pp_table", pp_table_batched, pp_table_grad, pp_table, d_table},
    {"pp_null", pp_null_batched, pp_null_grad, pp_null, d_null},
};

static double gen_entry(rng_t *r) {
  static const double edge[] = {NAN, 0.0, -0.0, 1.0, -1.0, INFINITY, 0.5};
  if (rng_below(r, 6) == 0)
    return edge[rng_below(r, sizeof edge / sizeof edge[0])];
  return rng_range(r, -2.0, 2.0);
}
static double gen_x(rng_t *r) {
  static const double edge[] = {NAN, 0.0, -0.0, 1.0, -INFINITY, 2.0};
  if (rng_below(r, 6) == 0)
    return edge[rng_below(r, sizeof edge / sizeof edge[0])];
  return rng_range(r, -3.0, 3.0);
}
/* Room for n arrays of 4 at stride st, the last one ending at the guard
 * page. */
static double *arrays(size_t n, size_t st) {
  return gp_alloc((n ? (n - 1) * st + 4 : 0) * sizeof(double));
}

/* Each function of two_fns: bits, then gradients (finite entries). */
static void t_two(void **state) {
  (void)state;
  enum { SA = 4, SB = 7 };
  for (size_t f = 0; f < sizeof two_fns / sizeof two_fns[0]; f++) {
    rng_t rng = {name_seed(two_fns[f].name)};
    for (size_t ni = 0; ni < N_TEST_NS; ni++)
      for (int rep = 0; rep < 4; rep++) {
        size_t n = test_ns[ni];
        int fin = rep & 1; /* finite entries: gradients */
        double *a = arrays(n, SA), *b = arrays(n, SB), *x = gp_alloc(n * 8);
        double *got = gp_alloc(n * 8), *s = gp_alloc(n * 8);
        double *ga = arrays(n, SA), *gb = arrays(n, SB), *gx = gp_alloc(n * 8);
        for (size_t e = 0; e < n; e++) {
          for (int i = 0; i < 4; i++) {
            a[e * SA + i] = fin ? rng_range(&rng, -2.0, 2.0) : gen_entry(&rng);
            b[e * SB + i] = fin ? rng_range(&rng, -2.0, 2.0) : gen_entry(&rng);
            ga[e * SA + i] = gb[e * SB + i] = 0;
          }
          x[e] = fin ? rng_range(&rng, -3.0, 3.0) : gen_x(&rng);
          s[e] = rng_range(&rng, -2.0, 2.0);
          gx[e] = 0;
        }
        gp_seal(a), gp_seal(b), gp_seal(x), gp_seal(s);
        two_fns[f].b(n, a, SA, b, SB, x, got);
        for (size_t e = 0; e < n; e++) {
          double want = two_fns[f].f(a + e * SA, b + e * SB, x[e]);
          if (!CMP_BITS(got[e], want)) {
            print_error("%s n=%zu e=%zu x=%a: %a, want %a\n", two_fns[f].name,
                        n, e, x[e], got[e], want);
            fail();
          }
        }
        if (!fin) {
          gp_reset();
          continue;
        }
        two_fns[f].g(n, a, SA, b, SB, x, got, s, ga, SA, gb, SB, gx);
        for (size_t e = 0; e < n; e++) {
          double da[4] = {0}, db[4] = {0}, dx = 0;
          two_fns[f].d(a + e * SA, b + e * SB, x[e], da, db, &dx);
          bool ok = close_to(gx[e], s[e] * dx, 1e-12);
          for (int i = 0; i < 4; i++)
            ok &= close_to(ga[e * SA + i], s[e] * da[i], 1e-12) &&
                  close_to(gb[e * SB + i], s[e] * db[i], 1e-12);
          if (!ok) {
            print_error("%s_grad n=%zu e=%zu x=%.17g: dx %.17g, want %.17g\n",
                        two_fns[f].name, n, e, x[e], gx[e], s[e] * dx);
            fail();
          }
        }
        gp_reset();
      }
  }
}

/* pp_uni: bits, then gradients, the uniform one summed. */
static void t_uni(void **state) {
  (void)state;
  rng_t rng = {name_seed("pp_uni")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++)
    for (int rep = 0; rep < 4; rep++) {
      size_t n = test_ns[ni];
      int fin = rep & 1;
      double *w = gp_alloc(4 * 8), *a = arrays(n, 5), *x = gp_alloc(n * 8);
      double *got = gp_alloc(n * 8), *s = gp_alloc(n * 8);
      double gw[4] = {0}, *ga = arrays(n, 5), *gx = gp_alloc(n * 8);
      for (int i = 0; i < 4; i++)
        w[i] = fin ? rng_range(&rng, -2.0, 2.0) : gen_entry(&rng);
      for (size_t e = 0; e < n; e++) {
        for (int i = 0; i < 4; i++)
          a[e * 5 + i] = fin ? rng_range(&rng, -2.0, 2.0) : gen_entry(&rng),
                    ga[e * 5 + i] = 0;
        x[e] = fin ? rng_range(&rng, -3.0, 3.0) : gen_x(&rng);
        s[e] = rng_range(&rng, -2.0, 2.0);
        gx[e] = 0;
      }
      gp_seal(w), gp_seal(a), gp_seal(x), gp_seal(s);
      pp_uni_batched(n, w, a, 5, x, got);
      for (size_t e = 0; e < n; e++) {
        double want = pp_uni(w, a + e * 5, x[e]);
        if (!CMP_BITS(got[e], want)) {
          print_error("pp_uni n=%zu e=%zu x=%a: %a, want %a\n", n, e, x[e],
                      got[e], want);
          fail();
        }
      }
      if (!fin) {
        gp_reset();
        continue;
      }
      pp_uni_grad(n, w, a, 5, x, got, s, gw, ga, 5, gx);
      double want_w[4] = {0};
      for (size_t e = 0; e < n; e++) {
        const double *c = x[e] > 0 ? w : a + e * 5;
        bool ok = close_to(gx[e], s[e] * 2 * c[2] * x[e], 1e-12);
        for (int i = 0; i < 4; i++) {
          double d = i == 2 ? x[e] * x[e] : i == 0 ? 1.0 : 0.0;
          if (x[e] > 0)
            want_w[i] += s[e] * d;
          ok &= close_to(ga[e * 5 + i], x[e] > 0 ? 0.0 : s[e] * d, 1e-12);
        }
        if (!ok) {
          print_error("pp_uni_grad n=%zu e=%zu x=%.17g\n", n, e, x[e]);
          fail();
        }
      }
      for (int i = 0; i < 4; i++)
        if (!close_to(gw[i], want_w[i], 1e-9)) {
          print_error("pp_uni_grad n=%zu: d_w[%d] %.17g, want %.17g\n", n, i,
                      gw[i], want_w[i]);
          fail();
        }
      gp_reset();
    }
}

typedef void (*two_j)(size_t, const double *, ptrdiff_t, const double *,
                      ptrdiff_t, const double *, const double *, ptrdiff_t,
                      const double *, ptrdiff_t, const double *, double *,
                      double *);
/* NAME_jvp of pp_two and pp_rep: the tangent is the gradient (d_two,
 * d_rep) dotted with the inputs' tangents. */
static void t_jvp(void **state) {
  (void)state;
  enum { SA = 5, SB = 4 };
  static const struct {
    const char *name;
    two_j j;
    double (*f)(const double *, const double *, double);
    two_d d;
  } fns[] = {{"pp_two_jvp", pp_two_jvp, pp_two, d_two},
             {"pp_rep_jvp", pp_rep_jvp, pp_rep, d_rep}};
  for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++) {
    rng_t rng = {name_seed(fns[f].name)};
    for (size_t ni = 0; ni < N_TEST_NS; ni++) {
      size_t n = test_ns[ni];
      double *a = arrays(n, SA), *b = arrays(n, SB), *x = gp_alloc(n * 8);
      double *ta = arrays(n, SA), *tb = arrays(n, SB), *tx = gp_alloc(n * 8);
      double *got = gp_alloc(n * 8), *tgot = gp_alloc(n * 8);
      for (size_t e = 0; e < n; e++) {
        for (int i = 0; i < 4; i++) {
          a[e * SA + i] = rng_range(&rng, -2.0, 2.0);
          b[e * SB + i] = rng_range(&rng, -2.0, 2.0);
          ta[e * SA + i] = rng_range(&rng, -1.0, 1.0);
          tb[e * SB + i] = rng_range(&rng, -1.0, 1.0);
        }
        x[e] = rng_range(&rng, -3.0, 3.0);
        tx[e] = rng_range(&rng, -1.0, 1.0);
      }
      gp_seal(a), gp_seal(b), gp_seal(x), gp_seal(ta), gp_seal(tb), gp_seal(tx);
      fns[f].j(n, a, SA, b, SB, x, ta, SA, tb, SB, tx, got, tgot);
      for (size_t e = 0; e < n; e++) {
        double da[4] = {0}, db[4] = {0}, dx = 0;
        fns[f].d(a + e * SA, b + e * SB, x[e], da, db, &dx);
        double want = dx * tx[e];
        for (int i = 0; i < 4; i++)
          want += da[i] * ta[e * SA + i] + db[i] * tb[e * SB + i];
        double v = fns[f].f(a + e * SA, b + e * SB, x[e]);
        if (!CMP_BITS(got[e], v) || !close_to(tgot[e], want, 1e-12)) {
          print_error("%s n=%zu e=%zu x=%.17g: %.17g, want %.17g\n",
                      fns[f].name, n, e, x[e], tgot[e], want);
          fail();
        }
      }
      gp_reset();
    }
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_two),
      cmocka_unit_test(t_uni),
      cmocka_unit_test(t_jvp),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_ptr_params", tests, NULL, NULL);
}
