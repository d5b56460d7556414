/* Static globals used as scratch inside one expression, as Numerical
 * Recipes' nrutil.h computes its macros' arguments once (docs/globals.md,
 * globals): written and read in the same expression, on some paths only.
 * The batched functions keep them per example and leave the globals as
 * they were (nothing in the file reads what they hold between
 * expressions). The macros here are our own, of nrutil.h's shape.
 * NAME_batched bit for bit against the scalar function, NAME_grad against
 * Richardson-extrapolated central differences. */
#include "exec_fd.h"
#include "exec_util.h"

#include "../common/test_filter.h"

static double dsq_arg;
#define DSQ(a) ((dsq_arg = (a)) == 0.0 ? 0.0 : dsq_arg * dsq_arg)
static double dmx1, dmx2;
#define DMX(a, b) (dmx1 = (a), dmx2 = (b), (dmx1) > (dmx2) ? (dmx1) : (dmx2))
static int imn1, imn2;
#define IMN(a, b) (imn1 = (a), imn2 = (b), (imn1) < (imn2) ? (imn1) : (imn2))
static float fsq_arg;
#define FSQ(a) ((fsq_arg = (a)) == 0.0f ? 0.0f : fsq_arg * fsq_arg)

/* hypot without overflow, the scratch written in one branch or the other */
BATCHDIFF double sg_hyp(double a, double b) {
  double absa = fabs(a), absb = fabs(b);
  if (absa > absb)
    return absa * sqrt(1.0 + DSQ(absb / absa));
  else
    return (absb == 0.0 ? 0.0 : absb * sqrt(1.0 + DSQ(absa / absb)));
}

/* a loop whose trip count comes through IMN, DMX and DSQ inside it */
BATCHDIFF double sg_loop(double x, double y, int n) {
  int m = IMN(n, 6);
  double s = 0.0;
  for (int k = 0; k < m; k++) {
    if (k % 2)
      s += DMX(x * k, y);
    else
      s += DSQ(x - y);
  }
  return s;
}

/* a float scratch global */
BATCHDIFF float sg_f(float x) { return x > 0.5f ? FSQ(x - 0.5f) : x; }

/* A statement expression elsewhere in the file (not using the scratch
 * globals) leaves them scratch: a recursive function, whose recursive
 * calls run the scalar function, could not use globals written per
 * example. (Until 6 December any `({ ... })` of the file, the runtime
 * headers' included, made every such global an ordinary one.) */
static int twice_plus_one(int x) { return __extension__({ int t = 2 * x; t + 1; }); }
BD_BATCH double sg_rec(double x, int n) {
  return n > 0 ? 0.5 * sg_rec(x - 0.25, n - 1) + DSQ(x) : DMX(x, 0.0);
}

/* used the same way by an ordinary function after them */
static double after(double v) { return DSQ(v) + DMX(v, 1.0); }

typedef double (*f2)(double, double);
static double hyp_a(double a, const void *c) {
  return sg_hyp(a, ((const double *)c)[1]);
}
static double hyp_b(double b, const void *c) {
  return sg_hyp(((const double *)c)[0], b);
}
static double loop_x(double x, const void *p) {
  const double *c = p;
  return sg_loop(x, c[1], (int)c[2]);
}

static void same(const char *what, size_t e, double got, double want) {
  if (memcmp(&got, &want, sizeof got)) {
    print_error("%s example %zu: %.17g, want %.17g\n", what, e, got, want);
    fail();
  }
}

static void t_hyp(void **state) {
  (void)state;
  rng_t rng = {0x5851F42D4C957F2DULL};
  fd_count fc = {0, 64};
  for (size_t t = 0; t < N_TEST_NS; t++) {
    size_t n = test_ns[t];
    double *a = gp_alloc(n * 8), *b = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *da = gp_alloc(n * 8), *db = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      a[e] = rng_below(&rng, 9) ? rng_range(&rng, -5.0, 5.0) : 0.0;
      b[e] = rng_below(&rng, 9) ? rng_range(&rng, -5.0, 5.0) : 0.0;
      da[e] = db[e] = 0.0;
    }
    gp_seal(a);
    gp_seal(b);
    sg_hyp_batched(n, a, b, r);
    for (size_t e = 0; e < n; e++)
      same("sg_hyp", e, r[e], sg_hyp(a[e], b[e]));
    sg_hyp_grad(n, a, b, NULL, NULL, da, db);
    for (size_t e = 0; e < n; e++) {
      double c[2] = {a[e], b[e]};
      fd_check(&fc, "sg_hyp/a", hyp_a, c, a[e], da[e]);
      fd_check(&fc, "sg_hyp/b", hyp_b, c, b[e], db[e]);
    }
    gp_reset();
  }
  fd_expect(&fc, "sg_hyp", 1500);
  assert_true(after(3.0) == 9.0 + 3.0);
}

static void t_loop(void **state) {
  (void)state;
  rng_t rng = {0x14057B7EF767814FULL};
  fd_count fc = {0, 64};
  for (size_t t = 0; t < N_TEST_NS; t++) {
    size_t n = test_ns[t];
    double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *dx = gp_alloc(n * 8), *dy = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -3.0, 3.0), y[e] = rng_range(&rng, -3.0, 3.0);
      k[e] = rng_below(&rng, 10);
      dx[e] = dy[e] = 0.0;
    }
    gp_seal(x);
    gp_seal(y);
    gp_seal(k);
    sg_loop_batched(n, x, y, k, r);
    for (size_t e = 0; e < n; e++)
      same("sg_loop", e, r[e], sg_loop(x[e], y[e], k[e]));
    sg_loop_grad(n, x, y, k, NULL, NULL, dx, dy);
    for (size_t e = 0; e < n; e++) {
      double c[3] = {x[e], y[e], (double)k[e]};
      fd_check(&fc, "sg_loop/x", loop_x, c, x[e], dx[e]);
    }
    gp_reset();
  }
  fd_expect(&fc, "sg_loop", 800);
}

static void t_float(void **state) {
  (void)state;
  rng_t rng = {0x9E3779B97F4A7C15ULL};
  for (size_t t = 0; t < N_TEST_NS; t++) {
    size_t n = test_ns[t];
    float *x = gp_alloc(n * 4), *r = gp_alloc(n * 4), *d = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++)
      x[e] = (float)rng_range(&rng, -2.0, 2.0), d[e] = 0.0f;
    gp_seal(x);
    sg_f_batched(n, x, r);
    sg_f_grad(n, x, NULL, NULL, d);
    for (size_t e = 0; e < n; e++) {
      float want = sg_f(x[e]);
      assert_memory_equal(&r[e], &want, sizeof want);
      float dw = x[e] > 0.5f ? 2.0f * (x[e] - 0.5f) : 1.0f;
      assert_true(fabsf(d[e] - dw) <= 1e-6f * fabsf(dw));
    }
    gp_reset();
  }
}

static void t_rec(void **state) {
  (void)state;
  rng_t rng = {0x2545F4914F6CDD1DULL};
  for (size_t t = 0; t < N_TEST_NS; t++) {
    size_t n = test_ns[t];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    int *k = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++)
      x[e] = rng_range(&rng, -2.0, 2.0), k[e] = twice_plus_one((int)(e % 3)) - 1;
    gp_seal(x);
    sg_rec_batched(n, x, k, r);
    for (size_t e = 0; e < n; e++) {
      double want = sg_rec(x[e], k[e]);
      assert_memory_equal(&r[e], &want, sizeof want);
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_hyp), cmocka_unit_test(t_loop),
      cmocka_unit_test(t_float), cmocka_unit_test(t_rec)};
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_scratch_globals", tests, NULL, NULL);
}
