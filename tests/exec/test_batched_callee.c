/* Calls of functions of another file marked batch/diff in their header
 * (batched_callee.h, defined in batched_callee_other.c): the lanes that
 * are on call the callee's NAME_batched, or its NAME_grad where the
 * partial derivatives are needed, together (docs/calls.md, "Batch
 * functions of other files"). For every n of ns: NAME_batched's and
 * NAME_grad's values are the scalar function's bits (the scalar function
 * calls the scalar callee); gradients agree with Richardson central
 * differences of the scalar function (points where two step sizes
 * disagree, kinks, skipped; at least half checked); NAME_jvp's tangents
 * with NAME_grad's; 1 and 2 threads give the same bits at n = 70,000;
 * inputs and outputs end at guard pages. */
#include "exec_util.h"

#include "../common/test_filter.h"
#include "batched_callee.h"

#include <batchdiff/parallel.h>

#include <math.h>
#include <string.h>

BATCHDIFF double use_kink(double a, double b) {
  return bc_kink(a * b, b) + exp(a);
}

/* Only the lanes with a > 0.5 call. */
BATCHDIFF double in_branch(double a, double b) {
  double r = a;
  if (a > 0.5)
    r = 2 * bc_kink(a, b);
  return r;
}

/* A call per iteration, n iterations per example: the partials on the
 * gradient's tape. */
BATCHDIFF double in_loop(double a, int n) {
  double s = 0.1;
  for (int i = 0; i < n; i++)
    s = bc_kink(a - i * 0.5, s) + s;
  return s;
}

BATCHDIFF double use_root(double c, int it) {
  return bc_root(c * c + 0.5, it) * c;
}

BATCHDIFF float use_sqf(float x) { return bc_sqf(x) * x; }

/* A varying value for the callee's uniform parameter: a call per lane;
 * its BD_NODIFF parameter gets a value without a derivative. */
BATCHDIFF double use_mix(double x, double w) {
  return bc_mix(x, x * 0.5, 2.0, (float)x) * w;
}

/* bc_mix's uniform parameter given one value for every lane: one call
 * for the lanes (the second call); given a differentiated uniform value,
 * a call per lane (its shadow would sum the lanes' partials). */
BATCHDIFF double use_unif(double x, BD_UNIFORM double s) {
  return bc_mix(x, s, 1.0, 0.5f) + bc_mix(x, 3.0, 2.0, (float)x);
}

/* batch callees without diff: their values carry no derivative here. */
__attribute__((batch)) double use_plain(double x) {
  return bc_plain(x) + bc_sign(x);
}
BATCHDIFF double plain_const(double x, int k) {
  return x * bc_plain((double)k) + bc_sign(x);
}

/* A diff-only callee: its NAME_grad gives the value in NAME_batched too. */
BATCHDIFF double use_gradonly(double x) { return bc_gradonly(x) * x; }

BATCHDIFF BD_JVP double use_jvp(double a, double b) {
  return bc_kink(a, b) * bc_root(b * b + 1, 3);
}

/* A float parameter of a double callee: its tangent, a float, times the
 * partial in the result's type (NAME_jvp did not compile before: float
 * and double vectors multiplied; the fuzzer's --features bcalls). */
BATCHDIFF BD_JVP double use_jvpmix(double a, double b) {
  return bc_mix(a, 1.5, 2.0, (float)b);
}

/* After a system header's declaration of bc_cube (glibc's <math.h>
 * declares Cephes' gamma so): still the batch, diff function of
 * batched_callee.h. */
#include "batched_callee_sys.h"
BATCHDIFF double use_cube(double x, double y) { return bc_cube(x) * y; }

static const size_t ns[] = {0,      1,      WF - 1,     WF,  WF + 1,
                            WD - 1, WD + 1, 2 * WF + 3, 100, 1003};
#define NNS (sizeof ns / sizeof ns[0])
/* The callees' and these functions' math (sin, exp, tanh, log) is the
 * runtime's vector math in NAME_batched, libm's in the scalar function
 * (docs/runtime.md: within about an ULP each). */
#define MATH_TOL 1e-13

/* Richardson-extrapolated central difference of f in argument j of
 * (a, b); NAN where steps h and h/2 disagree (a kink). */
typedef double (*fn2)(double, double);
static double rdiff(fn2 f, double a, double b, int j) {
  double d[2];
  for (int k = 0; k < 2; k++) {
    double h = (k ? 0.5e-4 : 1e-4) * (1 + fabs(j ? b : a));
    double p = j ? f(a, b + h) - f(a, b - h) : f(a + h, b) - f(a - h, b);
    d[k] = p / (2 * h);
  }
  double r = (4 * d[1] - d[0]) / 3;
  return fabs(d[0] - d[1]) > 1e-5 * (1 + fabs(r)) ? NAN : r;
}

/* Shadow \p got of example e against seed * difference \p want. */
static void near(const char *what, size_t e, double got, double want,
                 double tol, size_t *checked) {
  if (isnan(want))
    return;
  ++*checked;
  if (fabs(got - want) > tol * (1 + fabs(want))) {
    print_error("%s e=%zu: %.17g, want %.17g\n", what, e, got, want);
    fail();
  }
}

static double s_kink(double a, double b) { return use_kink(a, b); }
static double s_branch(double a, double b) { return in_branch(a, b); }
static double s_mix(double a, double b) { return use_mix(a, b); }
static double s_jvp(double a, double b) { return use_jvp(a, b); }

typedef void (*bat2)(size_t, const double *, const double *, double *);
typedef void (*grad2)(size_t, const double *, const double *, double *,
                      const double *, double *, double *);

/* A function of two doubles: values, gradients with seeds, NULL shadows. */
static void check2(const char *name, fn2 f, bat2 bf, grad2 gf, double lo,
                   double hi, double tol) {
  rng_t rng = {name_seed(name)};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni], checked = 0, points = 0;
    double *a = gp_alloc(n * 8), *b = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8), *dr = gp_alloc(n * 8);
    double *da = gp_alloc(n * 8), *db = gp_alloc(n * 8), *da2 = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      a[e] = rng_range(&rng, lo, hi);
      b[e] = rng_range(&rng, lo, hi);
      dr[e] = rng_range(&rng, 0.5, 2.0);
    }
    gp_seal(a), gp_seal(b), gp_seal(dr);
    bf(n, a, b, r);
    memset(da, 0, n * 8), memset(db, 0, n * 8), memset(da2, 0, n * 8);
    gf(n, a, b, r2, dr, da, db);
    gf(n, a, b, NULL, dr, da2, NULL);
    for (size_t e = 0; e < n; e++) {
      double s = f(a[e], b[e]);
      same_result(name, e, r[e], s, MATH_TOL);
      assert_memory_equal(&r[e], &r2[e], 8);
      assert_memory_equal(&da[e], &da2[e], 8);
      near(name, e, da[e], dr[e] * rdiff(f, a[e], b[e], 0), tol, &checked);
      near(name, e, db[e], dr[e] * rdiff(f, a[e], b[e], 1), tol, &checked);
      points += 2;
    }
    if (checked * 2 < points) {
      print_error("%s n=%zu: %zu of %zu points checked\n", name, n, checked,
                  points);
      fail();
    }
    gp_reset();
  }
}

static void t_kink(void **state) {
  (void)state;
  check2("use_kink", s_kink, use_kink_batched, use_kink_grad, -2, 2, 1e-6);
}
static void t_branch(void **state) {
  (void)state;
  check2("in_branch", s_branch, in_branch_batched, in_branch_grad, -1, 2, 1e-6);
}
static double s_cube(double a, double b) { return use_cube(a, b); }
static void t_cube(void **state) {
  (void)state;
  check2("use_cube", s_cube, use_cube_batched, use_cube_grad, -2, 2, 1e-6);
}

/* Against closed forms: differences through (float)x carry its rounding
 * (about 1e-3 relative), too coarse to check with. The float partial
 * 2y gets the seed rounded to float: 1e-6. */
static void t_mix(void **state) {
  (void)state;
  rng_t rng = {name_seed("use_mix")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni], checked = 0;
    double *x = gp_alloc(n * 8), *w = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8), *dr = gp_alloc(n * 8);
    double *dx = gp_alloc(n * 8), *dw = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -2, 2), w[e] = rng_range(&rng, -2, 2);
      dr[e] = rng_range(&rng, 0.5, 2.0);
    }
    gp_seal(x), gp_seal(w), gp_seal(dr);
    use_mix_batched(n, x, w, r);
    memset(dx, 0, n * 8), memset(dw, 0, n * 8);
    use_mix_grad(n, x, w, r2, dr, dx, dw);
    for (size_t e = 0; e < n; e++) {
      double y = (float)x[e], ex = exp(0.25 * x[e]);
      same_result("use_mix", e, r[e], s_mix(x[e], w[e]), MATH_TOL);
      assert_memory_equal(&r[e], &r2[e], 8);
      near("use_mix d_x", e, dx[e], dr[e] * w[e] * (x[e] + 0.5 * ex + 2 * y),
           1e-6, &checked);
      near("use_mix d_w", e, dw[e],
           dr[e] * (0.5 * x[e] * x[e] + 2 * ex + (double)((float)y * (float)y)),
           1e-6, &checked);
    }
    gp_reset();
  }
}

static double s_unif(double x, double s) { return use_unif(x, s); }

/* The uniform shadow: the sum over the batch of each example's
 * difference; x's per example. */
static void t_unif(void **state) {
  (void)state;
  rng_t rng = {name_seed("unif")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni], checked = 0;
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *dx = gp_alloc(n * 8);
    double s = rng_range(&rng, -1, 1), ds = 0, want = 0;
    for (size_t e = 0; e < n; e++)
      x[e] = rng_range(&rng, -2, 2);
    gp_seal(x);
    use_unif_batched(n, x, s, r);
    memset(dx, 0, n * 8);
    use_unif_grad(n, x, s, NULL, NULL, dx, &ds);
    for (size_t e = 0; e < n; e++) {
      same_result("use_unif", e, r[e], use_unif(x[e], s), MATH_TOL);
      /* (closed form: see t_mix) */
      near("use_unif d_x", e, dx[e],
           s + 3 + 0.75 * exp(0.25 * x[e]) + 2 * (double)(float)x[e], 1e-6,
           &checked);
      want += rdiff(s_unif, x[e], s, 1);
    }
    near("use_unif d_s", n, ds, want, 1e-6, &checked);
    gp_reset();
  }
}

static double s_int(double (*f)(double, int), double a, int k) {
  return f(a, k);
}

/* A function of (double, int): values and the double's gradient. */
typedef void (*batdi)(size_t, const double *, const int *, double *);
typedef void (*graddi)(size_t, const double *, const int *, double *,
                       const double *, double *);
static void checkdi(const char *name, double (*f)(double, int), batdi bf,
                    graddi gf, double lo, double hi, int kmax) {
  rng_t rng = {name_seed(name)};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni], checked = 0;
    double *a = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *dr = gp_alloc(n * 8), *da = gp_alloc(n * 8);
    int *k = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++) {
      a[e] = rng_range(&rng, lo, hi);
      k[e] = rng_below(&rng, kmax + 1);
      dr[e] = rng_range(&rng, 0.5, 2.0);
    }
    gp_seal(a), gp_seal(k), gp_seal(dr);
    bf(n, a, k, r);
    memset(da, 0, n * 8);
    gf(n, a, k, r2, dr, da);
    for (size_t e = 0; e < n; e++) {
      double s = s_int(f, a[e], k[e]), d[2];
      same_result(name, e, r[e], s, MATH_TOL);
      assert_memory_equal(&r[e], &r2[e], 8);
      for (int j = 0; j < 2; j++) {
        double h = (j ? 0.5e-4 : 1e-4) * (1 + fabs(a[e]));
        d[j] = (f(a[e] + h, k[e]) - f(a[e] - h, k[e])) / (2 * h);
      }
      double want = (4 * d[1] - d[0]) / 3;
      if (fabs(d[0] - d[1]) > 1e-5 * (1 + fabs(want)))
        want = NAN;
      near(name, e, da[e], dr[e] * want, 1e-6, &checked);
    }
    if (checked * 2 < n) {
      print_error("%s n=%zu: %zu of %zu points checked\n", name, n, checked, n);
      fail();
    }
    gp_reset();
  }
}

static void t_loop(void **state) {
  (void)state;
  checkdi("in_loop", in_loop, in_loop_batched, in_loop_grad, -1.5, 2.5, 6);
}
static void t_root(void **state) {
  (void)state;
  checkdi("use_root", use_root, use_root_batched, use_root_grad, 0.2, 3, 8);
}

/* One-argument functions: float, batch-only and diff-only callees. */
static void t_one(void **state) {
  (void)state;
  rng_t rng = {name_seed("one")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni], checked = 0;
    float *x = gp_alloc(n * 4), *rf = gp_alloc(n * 4), *dxf = gp_alloc(n * 4);
    double *y = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *dy = gp_alloc(n * 8);
    int *k = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++) {
      x[e] = (float)rng_range(&rng, -2, 2);
      y[e] = rng_range(&rng, -1, 3);
      k[e] = rng_below(&rng, 4);
    }
    gp_seal(x), gp_seal(y), gp_seal(k);
    use_sqf_batched(n, x, rf);
    memset(dxf, 0, n * 4);
    use_sqf_grad(n, x, NULL, NULL, dxf);
    for (size_t e = 0; e < n; e++) {
      float s = use_sqf(x[e]);
      same_result("use_sqf", e, rf[e], s, 1e-6);
      double h = 1e-3,
             fd = (use_sqf(x[e] + (float)h) - use_sqf(x[e] - (float)h)) /
                  (2 * h);
      near("use_sqf", e, dxf[e], fd, 1e-2, &checked);
    }
    use_plain_batched(n, y, r);
    for (size_t e = 0; e < n; e++)
      same_result("use_plain", e, r[e], use_plain(y[e]), MATH_TOL);
    memset(dy, 0, n * 8);
    plain_const_batched(n, y, k, r);
    plain_const_grad(n, y, k, r2, NULL, dy);
    for (size_t e = 0; e < n; e++) {
      double s = plain_const(y[e], k[e]);
      same_result("plain_const", e, r[e], s, MATH_TOL);
      assert_memory_equal(&r[e], &r2[e], 8);
      same_result("plain_const d", e, dy[e], bc_plain((double)k[e]), MATH_TOL);
    }
    memset(dy, 0, n * 8);
    use_gradonly_batched(n, y, r);
    use_gradonly_grad(n, y, r2, NULL, dy);
    for (size_t e = 0; e < n; e++) {
      double s = use_gradonly(y[e]), t = tanh(y[e]);
      same_result("use_gradonly", e, r[e], s, MATH_TOL);
      assert_memory_equal(&r[e], &r2[e], 8);
      near("use_gradonly d", e, dy[e], 2 * t * y[e] + (1 - t * t) * y[e] * y[e],
           1e-12, &checked);
    }
    gp_reset();
  }
}

/* NAME_jvp's tangents are NAME_grad's partials (the callee's NAME_grad
 * gives both). */
static void t_jvp(void **state) {
  (void)state;
  check2("use_jvp", s_jvp, use_jvp_batched, use_jvp_grad, -2, 2, 1e-6);
  rng_t rng = {name_seed("jvp")};
  size_t n = 1003;
  double *a = gp_alloc(n * 8), *b = gp_alloc(n * 8), *ta = gp_alloc(n * 8);
  double *tb = gp_alloc(n * 8), *r = gp_alloc(n * 8), *t = gp_alloc(n * 8);
  double *da = gp_alloc(n * 8), *db = gp_alloc(n * 8);
  for (size_t e = 0; e < n; e++) {
    a[e] = rng_range(&rng, -2, 2), b[e] = rng_range(&rng, -2, 2);
    ta[e] = rng_range(&rng, -1, 1), tb[e] = rng_range(&rng, -1, 1);
  }
  use_jvp_jvp(n, a, b, ta, tb, r, t);
  memset(da, 0, n * 8), memset(db, 0, n * 8);
  use_jvp_grad(n, a, b, NULL, NULL, da, db);
  for (size_t e = 0; e < n; e++) {
    same_result("use_jvp_jvp", e, r[e], use_jvp(a[e], b[e]), MATH_TOL);
    double want = da[e] * ta[e] + db[e] * tb[e];
    if (fabs(t[e] - want) > 1e-13 * (1 + fabs(want))) {
      print_error("use_jvp_jvp e=%zu: %.17g, want %.17g\n", e, t[e], want);
      fail();
    }
  }
  /* use_jvpmix: bc_mix's partials 1.5 + 0.5 exp(a / 4) in a and 2 y (y =
   * (float)b, in float) in b, through NAME_grad and NAME_jvp */
  use_jvpmix_jvp(n, a, b, ta, tb, r, t);
  memset(da, 0, n * 8), memset(db, 0, n * 8);
  use_jvpmix_grad(n, a, b, NULL, NULL, da, db);
  for (size_t e = 0; e < n; e++) {
    same_result("use_jvpmix_jvp", e, r[e], use_jvpmix(a[e], b[e]), MATH_TOL);
    double wa = 1.5 + 0.5 * exp(0.25 * a[e]), wb = 2 * (double)(float)b[e];
    double want = wa * ta[e] + wb * tb[e];
    if (fabs(da[e] - wa) > 1e-13 * (1 + fabs(wa)) ||
        fabs(db[e] - wb) > 1e-6 * (1 + fabs(wb)) ||
        fabs(t[e] - want) > 1e-6 * (1 + fabs(want))) {
      print_error("use_jvpmix e=%zu: d %.17g %.17g, want %.17g %.17g; "
                  "tangent %.17g, want %.17g\n",
                  e, da[e], db[e], wa, wb, t[e], want);
      fail();
    }
  }
  gp_reset();
}

/* The callees run on the runtime's threads: the same bits for 1 and 2. */
static void t_threads(void **state) {
  (void)state;
  rng_t rng = {name_seed("threads")};
  size_t n = 70000;
  double *a = gp_alloc(n * 8), *b = gp_alloc(n * 8);
  double *r[2], *da[2], *db[2];
  for (size_t e = 0; e < n; e++)
    a[e] = rng_range(&rng, -2, 2), b[e] = rng_range(&rng, -2, 2);
  for (int th = 1; th <= 2; th++) {
    r[th - 1] = gp_alloc(n * 8), da[th - 1] = gp_alloc(n * 8);
    db[th - 1] = gp_alloc(n * 8);
    memset(da[th - 1], 0, n * 8), memset(db[th - 1], 0, n * 8);
    bd_set_num_threads(th);
    in_branch_grad(n, a, b, r[th - 1], NULL, da[th - 1], db[th - 1]);
  }
  bd_set_num_threads(0);
  assert_memory_equal(r[0], r[1], n * 8);
  assert_memory_equal(da[0], da[1], n * 8);
  assert_memory_equal(db[0], db[1], n * 8);
  gp_reset();
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_kink), cmocka_unit_test(t_branch),
      cmocka_unit_test(t_mix),  cmocka_unit_test(t_loop),
      cmocka_unit_test(t_root), cmocka_unit_test(t_one),
      cmocka_unit_test(t_jvp),  cmocka_unit_test(t_threads),
      cmocka_unit_test(t_unif), cmocka_unit_test(t_cube)};
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_batched_callee", tests, NULL, NULL);
}
