/* Static locals used as scratch, and block-scope 'extern' declarations, as
 * cephes writes them.
 *
 * cephes' jnx (bessel/jv.c) keeps `static double u[8];` and `static double
 * ai, aip, bi, bip;`: every element is assigned before anything reads it,
 * so no value goes from one call to the next and the static is an ordinary
 * local in all but name (docs/globals.md, "Static locals"). The functions
 * here have that shape (constant-index writes, a filling loop, a
 * recurrence filling loop, both sides of an if, a do-while, a 2-D static, a
 * static in a helper called twice, statics filled through a helper's
 * out-parameters as jnx's airy(t, &ai, &aip, &bi, &bip) fills them):
 * NAME_batched against the scalar function bit for bit (guard pages, every n of
 * exec_util.h), and NAME_batched, NAME_grad, NAME_jvp and NAME_hvp against
 * twins written with ordinary locals, which must give the same bits.
 *
 * cephes declares its constants inside the functions that use them
 * (`extern double MACHEP;`) and its tables again in a block (misc/simpsn.c:
 * `extern double simcon[];`): they are the globals they name. */
#include "exec_util.h"

#include "../common/test_filter.h"

#define ALL BD_BATCH BD_DIFF BD_JVP BD_HVP

/* The repro: an array static filled at constant indices, read in a loop. */
ALL double st_scr(double x) {
  static double u[4];
  u[0] = x;
  u[1] = x * x;
  u[2] = x * (1.0 - x * x / 6.0);
  u[3] = u[1] + u[2];
  double s = 0;
  for (int k = 0; k < 4; k++)
    s += u[k];
  return s;
}

ALL double st_scr_t(double x) {
  double u[4];
  u[0] = x;
  u[1] = x * x;
  u[2] = x * (1.0 - x * x / 6.0);
  u[3] = u[1] + u[2];
  double s = 0;
  for (int k = 0; k < 4; k++)
    s += u[k];
  return s;
}

/* jnx's shape: scalars assigned on both sides of an if, an array through a
 * polynomial helper at constant indices, read at a varying index. */
static double poly3(double x, const double *c) {
  return ((c[0] * x + c[1]) * x + c[2]) * x + c[3];
}
static const double PA[] = {0.25, -1.5, 0.75, 1.0};
static const double PB[] = {-0.125, 0.5, 2.0, -0.25};

ALL double st_jn(double x, int n) {
  static double u[8];
  static double ai, aip;
  double z = 1.0 / (1.0 + x * x);
  if (x > 0.5) {
    ai = 1.0 / (1.0 + x + 0.5 * x * x);
    aip = -ai * z;
  } else {
    aip = 1.0 - 0.5 * x * x;
    ai = aip * x + 1.0;
  }
  u[0] = 1.0;
  u[1] = poly3(z, PA) / x;
  u[2] = poly3(z, PB) * z;
  u[3] = u[1] * u[2];
  u[4] = poly3(z, PA) * poly3(z, PB);
  u[5] = u[4] / (1.0 + z);
  u[6] = u[5] * z + u[0];
  u[7] = u[6] - u[3];
  double s = 0.0, t = 1.0;
  int m = n & 7;
  for (int k = 0; k <= m; k++) {
    s += t * u[m - k];
    t *= z;
  }
  return ai * s + aip * u[(n + 3) & 7];
}

ALL double st_jn_t(double x, int n) {
  double u[8];
  double ai, aip;
  double z = 1.0 / (1.0 + x * x);
  if (x > 0.5) {
    ai = 1.0 / (1.0 + x + 0.5 * x * x);
    aip = -ai * z;
  } else {
    aip = 1.0 - 0.5 * x * x;
    ai = aip * x + 1.0;
  }
  u[0] = 1.0;
  u[1] = poly3(z, PA) / x;
  u[2] = poly3(z, PB) * z;
  u[3] = u[1] * u[2];
  u[4] = poly3(z, PA) * poly3(z, PB);
  u[5] = u[4] / (1.0 + z);
  u[6] = u[5] * z + u[0];
  u[7] = u[6] - u[3];
  double s = 0.0, t = 1.0;
  int m = n & 7;
  for (int k = 0; k <= m; k++) {
    s += t * u[m - k];
    t *= z;
  }
  return ai * s + aip * u[(n + 3) & 7];
}

/* Filling loops: powers, and Legendre's recurrence reading p[k - 1] and
 * p[k - 2] of the loop's earlier iterations; a 2-D static at constant
 * indices; a scalar written in a do-while. */
ALL double st_fill(double x) {
  static double w[6];
  static double p[8];
  static double m[2][3];
  static double y;
  int i, k;
  for (i = 0; i < 6; i++)
    w[i] = (i & 1 ? x : 1.0) * (i > 1 ? x * x : 1.0) / (1.0 + i);
  p[0] = 1.0;
  p[1] = x;
  for (k = 2; k <= 7; k++) {
    double a = (2.0 * k - 1.0) * x * p[k - 1];
    p[k] = (a - (k - 1.0) * p[k - 2]) / k;
  }
  m[0][0] = w[1];
  m[0][1] = w[2] * p[3];
  m[0][2] = p[5];
  m[1][0] = m[0][2] - m[0][0];
  m[1][1] = x;
  m[1][2] = m[1][1] * m[0][1];
  double s = 0.0, h = fabs(x) + 1.0;
  int c = 0;
  do {
    y = h * 0.5;
    h = y;
    c++;
  } while (y > 0.75 && c < 6);
  for (i = 0; i < 6; i++)
    s += w[i] * p[7 - i];
  for (i = 0; i < 2; i++)
    for (k = 0; k < 3; k++)
      s += m[i][k] * (i + k + 1);
  return s * y;
}

ALL double st_fill_t(double x) {
  double w[6];
  double p[8];
  double m[2][3];
  double y;
  int i, k;
  for (i = 0; i < 6; i++)
    w[i] = (i & 1 ? x : 1.0) * (i > 1 ? x * x : 1.0) / (1.0 + i);
  p[0] = 1.0;
  p[1] = x;
  for (k = 2; k <= 7; k++) {
    double a = (2.0 * k - 1.0) * x * p[k - 1];
    p[k] = (a - (k - 1.0) * p[k - 2]) / k;
  }
  m[0][0] = w[1];
  m[0][1] = w[2] * p[3];
  m[0][2] = p[5];
  m[1][0] = m[0][2] - m[0][0];
  m[1][1] = x;
  m[1][2] = m[1][1] * m[0][1];
  double s = 0.0, h = fabs(x) + 1.0;
  int c = 0;
  do {
    y = h * 0.5;
    h = y;
    c++;
  } while (y > 0.75 && c < 6);
  for (i = 0; i < 6; i++)
    s += w[i] * p[7 - i];
  for (i = 0; i < 2; i++)
    for (k = 0; k < 3; k++)
      s += m[i][k] * (i + k + 1);
  return s * y;
}

/* Statics in helpers, each helper called twice (float and double). */
static double cheb3(double x) {
  static double t[3];
  t[0] = 1.0;
  t[1] = x;
  t[2] = 2.0 * x * t[1] - t[0];
  return 0.5 * t[0] - 0.25 * t[1] + 0.125 * t[2];
}
static float fsq(float x) {
  static float q;
  q = x * x;
  return q + 1.0f / (1.0f + q);
}

ALL double st_help(double x) {
  return cheb3(x) * cheb3(0.5 * x) + (double)fsq((float)x) * fsq(0.5f);
}

static double cheb3_t(double x) {
  double t[3];
  t[0] = 1.0;
  t[1] = x;
  t[2] = 2.0 * x * t[1] - t[0];
  return 0.5 * t[0] - 0.25 * t[1] + 0.125 * t[2];
}
static float fsq_t(float x) {
  float q;
  q = x * x;
  return q + 1.0f / (1.0f + q);
}

ALL double st_help_t(double x) {
  return cheb3_t(x) * cheb3_t(0.5 * x) + (double)fsq_t((float)x) * fsq_t(0.5f);
}

/* Out-parameters (jnx's airy(t, &ai, &aip, &bi, &bip)): a helper that
 * writes through each pointer before it reads through it, on both paths
 * (one returns early), fills the statics it is passed. */
static int airy_like(double t, double *ai, double *aip, double *bi) {
  if (t > 4.0) {
    *ai = 1.0 / (1.0 + t);
    *aip = -*ai;
    bi[0] = 1.0 / t;
    return 1;
  }
  *ai = 1.0 - 0.5 * t;
  *aip = -t * (1.0 - t / 6.0);
  *bi = *ai + *aip;
  return 0;
}
static void pair_of(double x, double *lo, double *hi) {
  *lo = x - 1.0;
  double *p = lo; /* passed on once written */
  *hi = x * p[0];
}

ALL double st_out(double x) {
  static double ai, aip, bi;
  static double u[3];
  int big;
  big = airy_like(x * x, &ai, &aip, &bi);
  u[0] = ai;
  pair_of(x, &u[1], &u[2]);
  return (big ? 2.0 : 1.0) * (ai * aip + bi) + u[0] * u[1] - u[2];
}

ALL double st_out_t(double x) {
  double ai, aip, bi;
  double u[3];
  int big;
  big = airy_like(x * x, &ai, &aip, &bi);
  u[0] = ai;
  pair_of(x, &u[1], &u[2]);
  return (big ? 2.0 : 1.0) * (ai * aip + bi) + u[0] * u[1] - u[2];
}

/* Block-scope extern declarations: a constant defined later in the file
 * (no file-scope declaration before the generated code), a file-scope
 * static table declared again in a block (simpsn's simcon), and a table
 * declared only in a block. */
static double bd_simcon[] = {3.5e-2, 2.1e-1, -3.3e-2, 3.7e-1, -1.6e-1};

ALL double st_ext(double x) {
  extern double bd_machep;
  extern double bd_simcon[];
  extern double bd_coef[];
  double f[9], ans;
  int i;
  for (i = 0; i < 9; i++)
    f[i] = (x + 0.125 * i) / (1.0 + x * x);
  ans = bd_simcon[4] * f[4];
  for (i = 0; i < 4; i++)
    ans += bd_simcon[i] * (f[i] + f[8 - i]);
  if (fabs(x) < 64.0 * bd_machep)
    return ans;
  return ans * bd_coef[0] + bd_coef[(int)fabs(x) & 3] * x;
}

double bd_machep = 1.11022302462515654042e-16;
double bd_coef[4] = {1.5, -0.25, 0.75, 2.0};

ALL double st_ext_t(double x) {
  double f[9], ans;
  int i;
  for (i = 0; i < 9; i++)
    f[i] = (x + 0.125 * i) / (1.0 + x * x);
  ans = bd_simcon[4] * f[4];
  for (i = 0; i < 4; i++)
    ans += bd_simcon[i] * (f[i] + f[8 - i]);
  if (fabs(x) < 64.0 * bd_machep)
    return ans;
  return ans * bd_coef[0] + bd_coef[(int)fabs(x) & 3] * x;
}

BITS1(st_scr, double, double, gen_d)
BITS2(st_jn, double, double, gen_d, int, gen_i32s)
BITS1(st_fill, double, double, gen_d)
BITS1(st_help, double, double, gen_d)
BITS1(st_ext, double, double, gen_d)
BITS1(st_out, double, double, gen_d)

enum { NV = 3 * WF + 5 };

static double gen_x(rng_t *r) {
  return rng_below(r, 8) ? rng_range(r, -6.0, 6.0) : gen_d(r);
}

static int same(double a, double b) { return CMP_BITS(a, b); }

/* NAME_batched, NAME_grad, NAME_jvp and NAME_hvp of the static version
 * (1) and of the twin (2) of a function of x (and an int k). */
#define TWINS(fn, K, KARG)                                                     \
  static void t_twins_##fn(void **state) {                                     \
    (void)state;                                                               \
    rng_t rng = {name_seed(#fn "_twins")};                                     \
    for (int rep = 0; rep < 30; rep++) {                                       \
      double x[NV], t[NV], s[NV], r1[NV], r2[NV], g1[NV], g2[NV];              \
      double j1[NV], j2[NV], d1[NV], d2[NV], h1[NV], h2[NV];                   \
      int k[NV];                                                               \
      for (int e = 0; e < NV; e++) {                                           \
        x[e] = gen_x(&rng);                                                    \
        k[e] = (int)rng_below(&rng, 40);                                       \
        t[e] = rng_range(&rng, -2.0, 2.0);                                     \
        s[e] = rng_range(&rng, -2.0, 2.0);                                     \
        g1[e] = g2[e] = rng_range(&rng, -1.0, 1.0);                            \
        d1[e] = d2[e] = h1[e] = h2[e] = 0.0;                                   \
      }                                                                        \
      (void)k;                                                                 \
      fn##_batched(NV, x K, r1);                                               \
      fn##_t_batched(NV, x K, r2);                                             \
      fn##_grad(NV, x K, NULL, s, g1);                                         \
      fn##_t_grad(NV, x K, NULL, s, g2);                                       \
      fn##_jvp(NV, x K, t, NULL, j1);                                          \
      fn##_t_jvp(NV, x K, t, NULL, j2);                                        \
      fn##_hvp(NV, x K, t, NULL, NULL, d1, h1);                                \
      fn##_t_hvp(NV, x K, t, NULL, NULL, d2, h2);                              \
      for (int e = 0; e < NV; e++)                                             \
        if (!same(r1[e], r2[e]) || !same(g1[e], g2[e]) ||                      \
            !same(j1[e], j2[e]) || !same(d1[e], d2[e]) ||                      \
            !same(h1[e], h2[e])) {                                             \
          print_error(#fn "(%.17g" KARG "): value %.17g %.17g, gradient "      \
                          "%.17g %.17g, jvp %.17g %.17g, hvp %.17g %.17g "     \
                          "(static and twin)\n",                               \
                      x[e] K##_E, r1[e], r2[e], g1[e], g2[e], j1[e], j2[e],    \
                      h1[e], h2[e]);                                           \
          fail();                                                              \
        }                                                                      \
    }                                                                          \
  }

#define NOK
#define NOK_E
#define WITHK , k
#define WITHK_E , k[e]
TWINS(st_scr, NOK, "")
TWINS(st_jn, WITHK, ", %d")
TWINS(st_fill, NOK, "")
TWINS(st_help, NOK, "")
TWINS(st_ext, NOK, "")
TWINS(st_out, NOK, "")

/* The gradient against central differences, where the functions are
 * smooth (away from st_jn's branch at 0.5 and st_fill's do-while steps). */
static void t_fd(void **state) {
  (void)state;
  rng_t rng = {name_seed("statics_fd")};
  for (int rep = 0; rep < 20; rep++) {
    double x[NV], g[NV], gj[NV], r[NV];
    int k[NV];
    for (int e = 0; e < NV; e++) {
      x[e] = rng_range(&rng, 0.6, 1.4);
      k[e] = (int)rng_below(&rng, 40);
      g[e] = gj[e] = 0.0;
    }
    st_scr_grad(NV, x, r, NULL, g);
    st_jn_grad(NV, x, k, r, NULL, gj);
    for (int e = 0; e < NV; e++) {
      double h = 1e-6;
      double fd = (st_scr(x[e] + h) - st_scr(x[e] - h)) / (2 * h);
      double fj = (st_jn(x[e] + h, k[e]) - st_jn(x[e] - h, k[e])) / (2 * h);
      if (fabs(fd - g[e]) > 1e-6 * (1.0 + fabs(fd)) ||
          fabs(fj - gj[e]) > 1e-6 * (1.0 + fabs(fj))) {
        print_error("x=%.17g k=%d: st_scr_grad %.17g (fd %.17g), st_jn_grad "
                    "%.17g (fd %.17g)\n",
                    x[e], k[e], g[e], fd, gj[e], fj);
        fail();
      }
    }
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T_(st_scr),
      T_(st_jn),
      T_(st_fill),
      T_(st_help),
      T_(st_ext),
      cmocka_unit_test(t_twins_st_scr),
      cmocka_unit_test(t_twins_st_jn),
      cmocka_unit_test(t_twins_st_fill),
      cmocka_unit_test(t_twins_st_help),
      cmocka_unit_test(t_twins_st_ext),
      T_(st_out),
      cmocka_unit_test(t_twins_st_out),
      cmocka_unit_test(t_fd),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_statics", tests, NULL, NULL);
}
