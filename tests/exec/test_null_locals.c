/* Pointer locals initialized or assigned a null pointer (`const double *c =
 * NULL;`, `= 0`, `(void *)0`, `(double *)0`, `c = NULL;`), then assigned on
 * every path before each use, as numeric C chooses a coefficient table
 * (docs/subset.md): the NULL generates nothing.
 *   - null_locals_shapes.h's shapes (if/else, an else-if chain, every arm
 *     of a switch, before a loop and re-assigned after it, float, a static
 *     inline helper with a pointer copied at an offset, passed on to a
 *     helper, batch only writing through it) with the null initializers
 *     and, as twins, without them: NAME_batched and NAME_grad bit for bit
 *     the same;
 *   - nl_tests: tests of the pointer where every path agrees (still NULL,
 *     or assigned) fold to constants; nl_passnull: a local still NULL
 *     passed to a helper that tests it, then pointed at a local.
 * NAME_batched against the scalar function bit for bit (guard pages, every
 * n of exec_util.h), gradients against their closed forms. */
#include "exec_util.h"

#include "../common/test_filter.h"

static const double TA[3] = {1.25, -0.5, 0.375};
static const double TB[3] = {-2.0, 0.75, 1.5};
static const double TC[5] = {0.125, 1.0, -0.25, 2.5, -1.75};
static const double TD[4] = {3.0, -1.25, 0.5, 0.0625};
static const float FP[4] = {0.5f, -1.25f, 2.0f, 0.75f};
static const float FN[4] = {-0.25f, 1.5f, 0.125f, 3.0f};
static const float FQ[2] = {9.0f, -0.5f};

static double nl_poly3(double x, const double *p) {
  const double *q = p; /* copied into another pointer */
  return q[0] + x * (q[1] + x * p[2]);
}

#define SHAPE(n) n
#define INIT(v) = v
#define NULLED(s) s
#include "null_locals_shapes.h"
#undef SHAPE
#undef INIT
#undef NULLED
#define SHAPE(n) n##_u
#define INIT(v)
#define NULLED(s)
#include "null_locals_shapes.h"

/* Tests that every path decides: folded, with what they rule out. */
BATCHDIFF double nl_tests(double x) {
  const double *c = NULL;
  double r = 0;
  if (c)
    r += 100;
  if (!c)
    r += 1;
  if (x < 1)
    c = TA;
  else
    c = TB;
  if (c == 0)
    r += 1000 * c[0];
  if (c != NULL)
    r += c[2] * x;
  r += c ? c[0] : -1;
  c = NULL;
  if (c == NULL)
    r += 2;
  c = TB;
  return r + c[1];
}

/* A local still NULL passed to a helper that tests it, then pointed at a
 * local scalar and passed again. */
static double nl_opt(double x, double *o) {
  if (o != NULL)
    *o = x;
  return x * x;
}
BATCHDIFF double nl_passnull(double x) {
  double *o = NULL;
  double t = 0;
  double a = nl_opt(x, o);
  o = &t;
  double b = nl_opt(2 * x, o);
  return a + b + t;
}

static int gen_k(rng_t *r) { return (int)rng_below(r, 9) - 4; }

BITS1(nl_ifelse, double, double, gen_d)
BITS1(nl_chain, double, double, gen_d)
BITS1(nl_passon, double, double, gen_d)
BITS2(nl_switch, double, double, gen_d, int, gen_k)
BITS1(nl_float, float, float, gen_f)
BITS2(nl_local, double, double, gen_d, int, gen_k)
BITS1(nl_tests, double, double, gen_d)
BITS1(nl_passnull, double, double, gen_d)

/* Finite inputs on both sides of every threshold. */
static double gen_x(rng_t *r) {
  if (rng_below(r, 4) == 0)
    return edge_common[rng_below(r,
                                 sizeof edge_common / sizeof edge_common[0])];
  return rng_range(r, -6.0, 6.0);
}

enum { NG = 3 * WF + 5, REPS = 60 };

static double horner_d(const double *c, int n, double x) {
  double s = 0, ds = 0;
  for (int i = 0; i < n; i++) {
    ds = ds * x + s;
    s = s * x + c[i];
  }
  return ds;
}

/* The closed-form derivatives of the double shapes in x. */
static double d_ifelse(double x) {
  const double *c = x < 1 ? TA : TB;
  return c[1] + 2 * c[2] * x;
}
static double d_chain(double x) {
  if (x < -2)
    return horner_d(TC, 5, x);
  if (x < 0)
    return horner_d(TA, 3, x);
  return x < 3 ? horner_d(TB, 3, x) : horner_d(TD, 4, x);
}
static double d_passon(double x) {
  const double *c = x < 1 ? TC : TD;
  return c[1] + 2 * c[2] * x + 2 * c[2] + 8 * c[3] * x;
}
static double d_tests(double x) { return (x < 1 ? TA : TB)[2]; }
static double d_passnull(double x) { return 10 * x + 2; }

typedef void (*grad1_fn)(size_t, const double *, double *, const double *,
                         double *);

static void check_grad1(const char *what, grad1_fn g, double (*d)(double)) {
  rng_t rng = {name_seed(what)};
  for (int rep = 0; rep < REPS; rep++) {
    double x[NG], s[NG], gx[NG], g0[NG];
    for (int e = 0; e < NG; e++) {
      x[e] = gen_x(&rng);
      s[e] = rng_range(&rng, -2.0, 2.0);
      gx[e] = g0[e] = rng_range(&rng, -1.0, 1.0);
    }
    g(NG, x, NULL, s, gx);
    for (int e = 0; e < NG; e++)
      if (!close_to(gx[e] - g0[e], s[e] * d(x[e]), 1e-12)) {
        print_error("%s_grad(%.17g): %.17g, want %.17g\n", what, x[e],
                    gx[e] - g0[e], s[e] * d(x[e]));
        fail();
      }
  }
}

static void t_grad_closed(void **state) {
  (void)state;
  check_grad1("nl_ifelse", nl_ifelse_grad, d_ifelse);
  check_grad1("nl_chain", nl_chain_grad, d_chain);
  check_grad1("nl_passon", nl_passon_grad, d_passon);
  check_grad1("nl_tests", nl_tests_grad, d_tests);
  check_grad1("nl_passnull", nl_passnull_grad, d_passnull);
}

static void t_grad_switch_float(void **state) {
  (void)state;
  rng_t rng = {name_seed("nl_switch_float")};
  for (int rep = 0; rep < REPS; rep++) {
    double x[NG], s[NG], gx[NG];
    int k[NG];
    float xf[NG], sf[NG], gf[NG];
    for (int e = 0; e < NG; e++) {
      x[e] = gen_x(&rng);
      k[e] = gen_k(&rng);
      s[e] = rng_range(&rng, -2.0, 2.0);
      gx[e] = 0;
      xf[e] = (float)rng_range(&rng, -3.0, 3.0);
      sf[e] = (float)rng_range(&rng, -2.0, 2.0);
      gf[e] = 0;
    }
    nl_switch_grad(NG, x, k, NULL, s, gx);
    nl_float_grad(NG, xf, NULL, sf, gf);
    for (int e = 0; e < NG; e++) {
      static const double *const Sw[4] = {TA, TB, TC + 1, TD + 1};
      double want = s[e] * Sw[k[e] & 3][0];
      if (!close_to(gx[e], want, 1e-12)) {
        print_error("nl_switch_grad(%.17g, %d): %.17g, want %.17g\n", x[e],
                    k[e], gx[e], want);
        fail();
      }
      const float *c = xf[e] > 0 ? FP : FN;
      double xd = xf[e], p = 0, dp = 0;
      for (int i = 0; i < 4; i++) {
        dp = dp * xd + p;
        p = p * xd + c[i];
      }
      double wantf = sf[e] * (dp + FQ[1]);
      if (!close_to(gf[e], wantf, 2e-5)) {
        print_error("nl_float_grad(%.9g): %.9g, want %.9g\n", xd, (double)gf[e],
                    wantf);
        fail();
      }
    }
  }
}

/* nl_helper: values bit for bit vs the scalar function, d_x and d_w (one
 * array per example) vs the closed form of the two halves picked. */
static void t_helper(void **state) {
  (void)state;
  rng_t rng = {name_seed("nl_helper")};
  for (int rep = 0; rep < REPS; rep++) {
    double x[NG], w[NG][6], r[NG], r2[NG], s[NG], gx[NG], gw[NG][6];
    for (int e = 0; e < NG; e++) {
      x[e] = gen_x(&rng);
      s[e] = rng_range(&rng, -2.0, 2.0);
      gx[e] = 0;
      for (int j = 0; j < 6; j++) {
        w[e][j] = rng_range(&rng, -3.0, 3.0);
        gw[e][j] = 0;
      }
    }
    nl_helper_batched(NG, x, &w[0][0], 6, r);
    nl_helper_grad(NG, x, &w[0][0], 6, r2, s, gx, &gw[0][0], 6);
    for (int e = 0; e < NG; e++) {
      double want = nl_helper(x[e], w[e]);
      if (!CMP_BITS(r[e], want) || !CMP_BITS(r2[e], want)) {
        print_error("nl_helper(%.17g): %.17g and %.17g, want %.17g\n", x[e],
                    r[e], r2[e], want);
        fail();
      }
      double wx[6] = {0}, dx = 0;
      for (int h = 0; h < 2; h++) {
        double t = h ? -x[e] : x[e], sg = h ? -1.0 : 1.0;
        int o = t < 0 ? 0 : 3;
        wx[o] += 1;
        wx[o + 1] += t;
        wx[o + 2] += t * t;
        dx += sg * (w[e][o + 1] + 2 * w[e][o + 2] * t);
      }
      bool ok = close_to(gx[e], s[e] * dx, 1e-12);
      for (int j = 0; j < 6; j++)
        ok &= close_to(gw[e][j], s[e] * wx[j], 1e-12);
      if (!ok) {
        print_error("nl_helper_grad(%.17g): d_x %.17g, want %.17g\n", x[e],
                    gx[e], s[e] * dx);
        fail();
      }
    }
  }
}

/* The twins: the null initializers change no bit of NAME_batched or
 * NAME_grad. */
#define TWIN1(fn, T, GEN)                                                      \
  for (int rep = 0; rep < REPS; rep++) {                                       \
    T x[NG], r1[NG], r2[NG], s[NG], g1[NG], g2[NG];                            \
    for (int e = 0; e < NG; e++) {                                             \
      x[e] = (T)GEN(&rng);                                                     \
      s[e] = (T)rng_range(&rng, -2.0, 2.0);                                    \
      g1[e] = g2[e] = (T)rng_range(&rng, -1.0, 1.0);                           \
    }                                                                          \
    fn##_batched(NG, x, r1);                                                   \
    fn##_u_batched(NG, x, r2);                                                 \
    fn##_grad(NG, x, NULL, s, g1);                                             \
    fn##_u_grad(NG, x, NULL, s, g2);                                           \
    for (int e = 0; e < NG; e++)                                               \
      if (!CMP_BITS(r1[e], r2[e]) || !CMP_BITS(g1[e], g2[e])) {                \
        print_error(#fn "(%.17g): %.17g and %.17g, gradient %.17g and %.17g "  \
                        "(NULL and uninitialized)\n",                          \
                    (double)x[e], (double)r1[e], (double)r2[e], (double)g1[e], \
                    (double)g2[e]);                                            \
        fail();                                                                \
      }                                                                        \
  }

static void t_twins(void **state) {
  (void)state;
  rng_t rng = {name_seed("nl_twins")};
  TWIN1(nl_ifelse, double, gen_d)
  TWIN1(nl_chain, double, gen_d)
  TWIN1(nl_passon, double, gen_d)
  TWIN1(nl_float, float, gen_f)
  for (int rep = 0; rep < REPS; rep++) {
    double x[NG], w[NG][6], r1[NG], r2[NG], s[NG], g1[NG], g2[NG];
    double gw1[NG][6] = {{0}}, gw2[NG][6] = {{0}}, l1[NG], l2[NG];
    int k[NG];
    for (int e = 0; e < NG; e++) {
      x[e] = gen_x(&rng);
      k[e] = gen_k(&rng);
      s[e] = rng_range(&rng, -2.0, 2.0);
      g1[e] = g2[e] = 0;
      for (int j = 0; j < 6; j++)
        w[e][j] = rng_range(&rng, -3.0, 3.0);
    }
    nl_switch_grad(NG, x, k, r1, s, g1);
    nl_switch_u_grad(NG, x, k, r2, s, g2);
    nl_local_batched(NG, x, k, l1);
    nl_local_u_batched(NG, x, k, l2);
    for (int e = 0; e < NG; e++)
      if (!CMP_BITS(r1[e], r2[e]) || !CMP_BITS(g1[e], g2[e]) ||
          !CMP_BITS(l1[e], l2[e])) {
        print_error("nl_switch/nl_local(%.17g, %d) differ from their twins\n",
                    x[e], k[e]);
        fail();
      }
    for (int e = 0; e < NG; e++)
      g1[e] = g2[e] = 0;
    nl_helper_grad(NG, x, &w[0][0], 6, r1, s, g1, &gw1[0][0], 6);
    nl_helper_u_grad(NG, x, &w[0][0], 6, r2, s, g2, &gw2[0][0], 6);
    if (memcmp(r1, r2, sizeof r1) || memcmp(g1, g2, sizeof g1) ||
        memcmp(gw1, gw2, sizeof gw1)) {
      print_error("nl_helper differs from its twin\n");
      fail();
    }
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T_(nl_ifelse),
      T_(nl_chain),
      T_(nl_passon),
      T_(nl_switch),
      T_(nl_float),
      T_(nl_local),
      T_(nl_tests),
      T_(nl_passnull),
      cmocka_unit_test(t_grad_closed),
      cmocka_unit_test(t_grad_switch_float),
      cmocka_unit_test(t_helper),
      cmocka_unit_test(t_twins),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_null_locals", tests, NULL, NULL);
}
