/* Tables passed through `void *`, as cephes' ANSI prototypes declare its
 * polynomial helpers (`double polevl(double, void *, int);` in mconf.h and
 * protos.h) and as generic C helpers take their data: the helper converts
 * the pointer back (`double *p = coef;`, `(const double *)array`) and walks
 * it. A pointer keeps its array and offset through the `void *`, so the
 * element type it came from is the one it may be read as.
 *
 * NAME_batched against the scalar function bit for bit (arithmetic only;
 * guard pages, every n of exec_util.h), and NAME_batched and NAME_grad
 * against twins written with typed pointers (`double coef[]`), which must
 * give the same bits: the `void *` changes nothing but the types. */
#include "exec_util.h"

#include "../common/test_filter.h"

/* cephes' declarations, before the definitions (which have external
 * linkage, as in cephes' polevl.c). */
double polevl(double, void *, int);
double p1evl(double, void *, int);

double polevl(double x, void *coef, int N) {
  double *p = coef; /* implicit conversion back */
  double ans = *p++;
  int i = N;
  do
    ans = ans * x + *p++;
  while (--i);
  return ans;
}

double p1evl(double x, void *coef, int N) {
  double *p = (double *)coef;
  double ans = x + *p++;
  int i = N - 1;
  do
    ans = ans * x + *p++;
  while (--i);
  return ans;
}

/* A Chebyshev series through `const void *`, started past an offset. */
static double chb(double x, const void *array, int n) {
  const double *p = (const double *)array;
  double b0 = *p++, b1 = 0.0, b2 = 0.0;
  int i = n - 1;
  do {
    b2 = b1;
    b1 = b0;
    b0 = x * b1 - b2 + *p++;
  } while (--i);
  return 0.5 * (b0 - b2);
}

/* A helper's typed pointer parameter passed on through void *. */
static double via(double x, double *c) { return polevl(x, c, 3); }

/* A float table through a void * local, re-pointed once. */
static float fpoly(float x, const void *c, int n) {
  const float *p = c;
  float r = *p++;
  while (--n)
    r = r * x + *p++;
  return r;
}

static double A[] = {1.25, -0.375, 0.5625, 2.0, -1.5};
static double B[] = {3.5, -0.25, 1.75, 4.0};
static double C[] = {9.0, 0.75, -0.5, 0.125, 0.0625, -0.03125, 0.015625};
static const float FT[] = {0.5f, -1.25f, 2.0f, 0.75f};
static const float FU[] = {-0.25f, 1.5f, 0.125f, 3.0f};

BATCHDIFF double vp_rat(double x) {
  double z = x * x;
  if (fabs(x) < 2.0)
    return x * polevl(z, A, 4) / p1evl(z, B, 4);
  void *t = &C[1]; /* a table's element, as a void * local */
  return chb(8.0 / x - 2.0, t, 6) / x + via(1.0 / x, B);
}

BATCHDIFF float vp_frat(float x) {
  const void *c = FT;
  if (x > 0.0f)
    c = FU;
  return fpoly(x, c, 4) / (1.0f + x * x);
}

/* The twins: the same operations on typed pointers. */
static double polevl_t(double x, double *coef, int N) {
  double *p = coef;
  double ans = *p++;
  int i = N;
  do
    ans = ans * x + *p++;
  while (--i);
  return ans;
}

static double p1evl_t(double x, double *coef, int N) {
  double *p = coef;
  double ans = x + *p++;
  int i = N - 1;
  do
    ans = ans * x + *p++;
  while (--i);
  return ans;
}

static double chb_t(double x, const double *p, int n) {
  double b0 = *p++, b1 = 0.0, b2 = 0.0;
  int i = n - 1;
  do {
    b2 = b1;
    b1 = b0;
    b0 = x * b1 - b2 + *p++;
  } while (--i);
  return 0.5 * (b0 - b2);
}

static float fpoly_t(float x, const float *p, int n) {
  float r = *p++;
  while (--n)
    r = r * x + *p++;
  return r;
}

BATCHDIFF double vp_rat_t(double x) {
  double z = x * x;
  if (fabs(x) < 2.0)
    return x * polevl_t(z, A, 4) / p1evl_t(z, B, 4);
  double *t = &C[1];
  return chb_t(8.0 / x - 2.0, t, 6) / x + polevl_t(1.0 / x, B, 3);
}

BATCHDIFF float vp_frat_t(float x) {
  const float *c = FT;
  if (x > 0.0f)
    c = FU;
  return fpoly_t(x, c, 4) / (1.0f + x * x);
}

BITS1(vp_rat, double, double, gen_d)
BITS1(vp_frat, float, float, gen_f)

/* Both sides of |x| = 2 and of 0, and the generator's specials. */
static double gen_vp(rng_t *r) {
  switch (rng_below(r, 4)) {
  case 0:
    return gen_d(r);
  case 1:
    return rng_range(r, -2.5, 2.5);
  default:
    return rng_range(r, -40.0, 40.0);
  }
}

enum { NV = 3 * WF + 5 };

static void t_twins_d(void **state) {
  (void)state;
  rng_t rng = {name_seed("void_ptr_d")};
  for (int rep = 0; rep < 40; rep++) {
    double x[NV], r1[NV], r2[NV], g1[NV], g2[NV], s[NV];
    for (int e = 0; e < NV; e++) {
      x[e] = gen_vp(&rng);
      s[e] = rng_range(&rng, -2.0, 2.0);
      g1[e] = g2[e] = rng_range(&rng, -1.0, 1.0);
    }
    vp_rat_batched(NV, x, r1);
    vp_rat_t_batched(NV, x, r2);
    vp_rat_grad(NV, x, NULL, s, g1);
    vp_rat_t_grad(NV, x, NULL, s, g2);
    for (int e = 0; e < NV; e++)
      if (!CMP_BITS(r1[e], r2[e]) || !CMP_BITS(g1[e], g2[e])) {
        print_error("vp_rat(%.17g): %.17g and %.17g, gradient %.17g and "
                    "%.17g (void * and typed)\n",
                    x[e], r1[e], r2[e], g1[e], g2[e]);
        fail();
      }
  }
}

static void t_twins_f(void **state) {
  (void)state;
  rng_t rng = {name_seed("void_ptr_f")};
  for (int rep = 0; rep < 40; rep++) {
    float x[NV], r1[NV], r2[NV], g1[NV], g2[NV], s[NV];
    for (int e = 0; e < NV; e++) {
      x[e] = rep % 4 ? (float)rng_range(&rng, -3.0, 3.0) : gen_f(&rng);
      s[e] = (float)rng_range(&rng, -2.0, 2.0);
      g1[e] = g2[e] = (float)rng_range(&rng, -1.0, 1.0);
    }
    vp_frat_batched(NV, x, r1);
    vp_frat_t_batched(NV, x, r2);
    vp_frat_grad(NV, x, NULL, s, g1);
    vp_frat_t_grad(NV, x, NULL, s, g2);
    for (int e = 0; e < NV; e++)
      if (!CMP_BITS(r1[e], r2[e]) || !CMP_BITS(g1[e], g2[e])) {
        print_error("vp_frat(%.9g): %.9g and %.9g, gradient %.9g and %.9g "
                    "(void * and typed)\n",
                    (double)x[e], (double)r1[e], (double)r2[e], (double)g1[e],
                    (double)g2[e]);
        fail();
      }
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T_(vp_rat),
      T_(vp_frat),
      cmocka_unit_test(t_twins_d),
      cmocka_unit_test(t_twins_f),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_void_ptr", tests, NULL, NULL);
}
