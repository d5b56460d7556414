/* Gradient of every supported <math.h> function, float and double form,
 * against its derivative written out by hand in long double (independent of
 * the generator's derivative table), plus finite differences and the shadow
 * mechanics of grad_util.h. Inputs stay inside each function's domain and
 * away from its singular points. */
#include "grad_util.h"

#include "../common/gamma_ref.h"
#include "../common/test_filter.h"

/* exp10 (GNU), declared here: _GNU_SOURCE would also declare glibc's fadd,
 * fsub and fmul, which ../common/dual.h defines. */
double exp10(double);
float exp10f(float);
long double exp10l(long double);

#define LN2 0.693147180559945309417232121458176568L
#define LN10 2.302585092994045684017991454684364208L
#define TWO_OVER_SQRTPI 1.128379167095512573896158903121545172L

/* ---- one-argument functions ---------------------------------------------- */

#define GM1(fn, DERIV, LO, HI)                                                 \
  BATCHDIFF double gm_##fn(double x) { return fn(x); }                         \
  BATCHDIFF float gmf_##fn(float x) { return fn##f(x); }                       \
  static long double dv_##fn(long double x) { return (DERIV); }                \
  static double s_##fn(const double *a) { return gm_##fn(a[0]); }              \
  static double sf_##fn(const double *a) { return gmf_##fn((float)a[0]); }     \
  static void b_##fn(size_t n, double *const *A, double *r) {                  \
    gm_##fn##_batched(n, A[0], r);                                             \
  }                                                                            \
  static void bf_##fn(size_t n, double *const *A, double *r) {                 \
    float *o = gp_alloc(n * sizeof(float));                                    \
    gmf_##fn##_batched(n, to_f(A[0], n), o);                                   \
    sh_back(r, o, n);                                                          \
  }                                                                            \
  static void g_##fn(size_t n, double *const *A, double *r, const double *dr, \
                     double *const *S) {                                       \
    gm_##fn##_grad(n, A[0], r, dr, S[0]);                                      \
  }                                                                            \
  static void gf_##fn(size_t n, double *const *A, double *r,                   \
                      const double *dr, double *const *S) {                    \
    float *o = r ? gp_alloc(n * sizeof(float)) : NULL;                         \
    float *s0 = sh_f(S[0], n);                                                 \
    gmf_##fn##_grad(n, to_f(A[0], n), o, dr ? to_f(dr, n) : NULL, s0);         \
    sh_back(S[0], s0, n);                                                      \
    sh_back(r, o, n);                                                          \
  }                                                                            \
  static double d_##fn(const double *a, int j) {                               \
    (void)j;                                                                   \
    return (double)dv_##fn(a[0]);                                              \
  }                                                                            \
  static void sm_##fn(rng_t *r, double *a) {                                   \
    a[0] = rng_range(r, LO, HI);                                               \
  }                                                                            \
  static void smf_##fn(rng_t *r, double *a) {                                  \
    a[0] = (float)rng_range(r, LO, HI);                                        \
  }                                                                            \
  static const gcase c_##fn = {"gm_" #fn, 1,      {P_VD}, 0, 0, s_##fn,        \
                               d_##fn,    b_##fn, g_##fn, sm_##fn};            \
  static const gcase cf_##fn = {"gmf_" #fn, 1,       {P_VD}, 1, 0, sf_##fn,    \
                                d_##fn,     bf_##fn, gf_##fn, smf_##fn};       \
  GTEST(c_##fn)                                                                \
  GTEST(cf_##fn)

GM1(sqrt, 0.5L / sqrtl(x), 0.01, 50)
GM1(j0, -j1l(x), -20, 20)
GM1(j1, j0l(x) - j1l(x) / x, -20, 20)
GM1(y0, -y1l(x), 0.1, 20)
GM1(y1, y0l(x) - y1l(x) / x, 0.1, 20)
GM1(cbrt, 1.0L / (3.0L * cbrtl(x) * cbrtl(x)), 0.05, 50)
GM1(exp, expl(x), -20, 20)
GM1(exp2, LN2 *exp2l(x), -20, 20)
GM1(exp10, LN10 *exp10l(x), -20, 20)
GM1(expm1, expl(x), -20, 20)
GM1(log, 1.0L / x, 0.01, 100)
GM1(log2, 1.0L / (x * LN2), 0.01, 100)
GM1(log10, 1.0L / (x * LN10), 0.01, 100)
GM1(log1p, 1.0L / (1.0L + x), -0.9, 100)
/* log1p(exp(x)): one call of the runtime's log1pexp in every flavour
 * (transforms/simplify/FuseMath.h), the rule (g / (e + 1)) e. */
#define log1pexp(x) log1p(exp(x))
#define log1pexpf(x) log1pf(expf(x))
GM1(log1pexp, expl(x) / (1.0L + expl(x)), -30, 30)
GM1(sin, cosl(x), -10, 10)
GM1(cos, -sinl(x), -10, 10)
GM1(tan, 1.0L / (cosl(x) * cosl(x)), -1.4, 1.4)
GM1(asin, 1.0L / sqrtl(1.0L - x * x), -0.95, 0.95)
GM1(acos, -1.0L / sqrtl(1.0L - x * x), -0.95, 0.95)
GM1(atan, 1.0L / (1.0L + x * x), -10, 10)
GM1(sinh, coshl(x), -10, 10)
GM1(cosh, sinhl(x), -10, 10)
GM1(tanh, 1.0L / (coshl(x) * coshl(x)), -8, 8)
GM1(asinh, 1.0L / sqrtl(x * x + 1.0L), -20, 20)
GM1(acosh, 1.0L / sqrtl(x * x - 1.0L), 1.1, 50)
GM1(atanh, 1.0L / (1.0L - x * x), -0.95, 0.95)
GM1(erf, TWO_OVER_SQRTPI *expl(-x * x), -4, 4)
GM1(erfc, -TWO_OVER_SQRTPI *expl(-x * x), -4, 4)
GM1(lgamma, ref_digamma(x), 0.1, 30)
GM1(tgamma, tgammal(x) * ref_digamma(x), 0.2, 20)
GM1(fabs, x < 0 ? -1.0L : 1.0L, -10, 10)
GM1(floor, 0.0L, -10, 10)
GM1(ceil, 0.0L, -10, 10)
GM1(trunc, 0.0L, -10, 10)
GM1(round, 0.0L, -10, 10)
GM1(rint, 0.0L, -10, 10)
GM1(nearbyint, 0.0L, -10, 10)
GM1(logb, 0.0L, -100, 100)

/* ---- two- and three-argument functions ----------------------------------- */

#define GM2(fn, DX, DY, SAMPLE)                                                \
  BATCHDIFF double gm_##fn(double x, double y) { return fn(x, y); }            \
  BATCHDIFF float gmf_##fn(float x, float y) { return fn##f(x, y); }           \
  static long double dv_##fn(long double x, long double y, int j) {            \
    return j == 0 ? (long double)(DX) : (long double)(DY);                     \
  }                                                                            \
  static double s_##fn(const double *a) { return gm_##fn(a[0], a[1]); }       \
  static double sf_##fn(const double *a) {                                     \
    return gmf_##fn((float)a[0], (float)a[1]);                                 \
  }                                                                            \
  static void b_##fn(size_t n, double *const *A, double *r) {                  \
    gm_##fn##_batched(n, A[0], A[1], r);                                       \
  }                                                                            \
  static void bf_##fn(size_t n, double *const *A, double *r) {                 \
    float *o = gp_alloc(n * sizeof(float));                                    \
    gmf_##fn##_batched(n, to_f(A[0], n), to_f(A[1], n), o);                    \
    sh_back(r, o, n);                                                          \
  }                                                                            \
  static void g_##fn(size_t n, double *const *A, double *r, const double *dr, \
                     double *const *S) {                                       \
    gm_##fn##_grad(n, A[0], A[1], r, dr, S[0], S[1]);                          \
  }                                                                            \
  static void gf_##fn(size_t n, double *const *A, double *r,                   \
                      const double *dr, double *const *S) {                    \
    float *o = r ? gp_alloc(n * sizeof(float)) : NULL;                         \
    float *s0 = sh_f(S[0], n), *s1 = sh_f(S[1], n);                            \
    gmf_##fn##_grad(n, to_f(A[0], n), to_f(A[1], n), o,                        \
                    dr ? to_f(dr, n) : NULL, s0, s1);                          \
    sh_back(S[0], s0, n);                                                      \
    sh_back(S[1], s1, n);                                                      \
    sh_back(r, o, n);                                                          \
  }                                                                            \
  static double d_##fn(const double *a, int j) {                               \
    return (double)dv_##fn(a[0], a[1], j);                                     \
  }                                                                            \
  static double df_##fn(const double *a, int j) { /* at float args */          \
    return (double)dv_##fn((float)a[0], (float)a[1], j);                       \
  }                                                                            \
  static void smf_##fn(rng_t *r, double *a) {                                  \
    SAMPLE(r, a);                                                              \
    a[0] = (float)a[0];                                                        \
    a[1] = (float)a[1];                                                        \
  }                                                                            \
  static const gcase c_##fn = {"gm_" #fn, 2,      {P_VD, P_VD}, 0, 0, s_##fn,  \
                               d_##fn,    b_##fn, g_##fn,       SAMPLE};       \
  static const gcase cf_##fn = {"gmf_" #fn, 2,       {P_VD, P_VD}, 1,         \
                                0,          sf_##fn, df_##fn,      bf_##fn,   \
                                gf_##fn,    smf_##fn};                         \
  GTEST(c_##fn)                                                                \
  GTEST(cf_##fn)

static void sm_pow(rng_t *r, double *a) {
  a[0] = rng_range(r, 0.1, 5);
  a[1] = rng_range(r, -3, 3);
}
static void sm_plane(rng_t *r, double *a) { /* away from the origin */
  do {
    a[0] = rng_range(r, -5, 5);
    a[1] = rng_range(r, -5, 5);
  } while (a[0] * a[0] + a[1] * a[1] < 0.01);
}
static void sm_distinct(rng_t *r, double *a) { /* fmin/fmax: no ties */
  do {
    a[0] = rng_range(r, -5, 5);
    a[1] = rng_range(r, -5, 5);
  } while (fabs(a[0] - a[1]) < 0.01);
}
static void sm_fmod(rng_t *r, double *a) { /* x/y not near an integer */
  do {
    a[0] = rng_range(r, -20, 20);
    a[1] = rng_range(r, 0.5, 4) * (rng_below(r, 2) ? 1 : -1);
  } while (fabs(a[0] / a[1] - nearbyint(a[0] / a[1])) < 0.02 ||
           fabs(fmod(a[0], a[1])) < 0.02);
}
static void sm_copysign(rng_t *r, double *a) {
  a[0] = rng_range(r, 0.1, 5) * (rng_below(r, 2) ? 1 : -1);
  a[1] = rng_range(r, 0.1, 5) * (rng_below(r, 2) ? 1 : -1);
}

GM2(pow, y *powl(x, y - 1), powl(x, y) * logl(x), sm_pow)
/* gm_atan2(x, y) = atan2(x, y): angle of the point (y, x). */
GM2(atan2, y / (x * x + y * y), -x / (x * x + y * y), sm_plane)
GM2(hypot, x / hypotl(x, y), y / hypotl(x, y), sm_plane)
GM2(fmin, x < y ? 1.0L : 0.0L, x < y ? 0.0L : 1.0L, sm_distinct)
GM2(fmax, x > y ? 1.0L : 0.0L, x > y ? 0.0L : 1.0L, sm_distinct)
GM2(copysign, (x < 0) == (y < 0) ? 1.0L : -1.0L, 0.0L, sm_copysign)
GM2(fmod, 1.0L, -truncl(x / y), sm_fmod)
static void sm_remainder(rng_t *r, double *a) { /* x/y away from n + 1/2 */
  do {
    a[0] = rng_range(r, -20, 20);
    a[1] = rng_range(r, 0.5, 4) * (rng_below(r, 2) ? 1 : -1);
  } while (fabs(fabs(a[0] / a[1] - trunc(a[0] / a[1])) - 0.5) < 0.02 ||
           fabs(remainder(a[0], a[1])) < 0.02);
}
/* remainder(x, y) = x - n y, n the integer nearest x / y. */
GM2(remainder, 1.0L, -nearbyintl((x - remainderl(x, y)) / y), sm_remainder)
GM2(fdim, x > y ? 1.0L : 0.0L, x > y ? -1.0L : 0.0L, sm_distinct)
GM2(nextafter, 1.0L, 0.0L, sm_distinct)

/* ldexp/scalbn: d/dx x 2^n = 2^n; n is an int (no shadow). */
#define GMI(fn)                                                                \
  BATCHDIFF double gm_##fn(double x, int n) { return fn(x, n); }               \
  static double s_##fn(const double *a) { return gm_##fn(a[0], (int)a[1]); }  \
  static void b_##fn(size_t n, double *const *A, double *r) {                  \
    gm_##fn##_batched(n, A[0], to_i(A[1], n), r);                              \
  }                                                                            \
  static void g_##fn(size_t n, double *const *A, double *r, const double *dr, \
                     double *const *S) {                                       \
    gm_##fn##_grad(n, A[0], to_i(A[1], n), r, dr, S[0]);                       \
  }                                                                            \
  static double d_##fn(const double *a, int j) {                               \
    return j == 0 ? (double)ldexpl(1.0L, (int)a[1]) : 0.0;                     \
  }                                                                            \
  static void sm_##fn(rng_t *r, double *a) {                                   \
    a[0] = rng_range(r, -5, 5);                                                \
    a[1] = (double)(rng_below(r, 41) - 20);                                    \
  }                                                                            \
  static const gcase c_##fn = {"gm_" #fn, 2,      {P_VD, P_VN}, 0, 0, s_##fn,  \
                               d_##fn,    b_##fn, g_##fn,       sm_##fn};      \
  GTEST(c_##fn)
GMI(ldexp)
GMI(scalbn)

/* Integer-valued rounding inside a differentiated function: x * lround(x)
 * has derivative lround(x) away from the jumps. */
BATCHDIFF double gm_lround_mix(double x) {
  long k = lround(x);
  return x * (double)k + (double)ilogb(x) + (double)lrint(x);
}
static double s_lround_mix(const double *a) { return gm_lround_mix(a[0]); }
static void b_lround_mix(size_t n, double *const *A, double *r) {
  gm_lround_mix_batched(n, A[0], r);
}
static void g_lround_mix(size_t n, double *const *A, double *r,
                         const double *dr, double *const *S) {
  gm_lround_mix_grad(n, A[0], r, dr, S[0]);
}
static double d_lround_mix(const double *a, int j) {
  (void)j;
  return (double)lroundl(a[0]);
}
static void sm_lround_mix(rng_t *r, double *a) { /* away from the jumps */
  do
    a[0] = rng_range(r, -20, 20);
  while (fabs(a[0] - trunc(a[0])) < 0.05 || fabs(a[0] - trunc(a[0])) > 0.95 ||
         fabs(fabs(a[0] - trunc(a[0])) - 0.5) < 0.05 || fabs(a[0]) < 1.1);
}
static const gcase c_lround_mix = {
    "gm_lround_mix", 1,           {P_VD},       0,           0,
    s_lround_mix,    d_lround_mix, b_lround_mix, g_lround_mix, sm_lround_mix};
GTEST(c_lround_mix)

BATCHDIFF double gm_fma(double x, double y, double z) { return fma(x, y, z); }
static double s_fma(const double *a) { return gm_fma(a[0], a[1], a[2]); }
static void b_fma(size_t n, double *const *A, double *r) {
  gm_fma_batched(n, A[0], A[1], A[2], r);
}
static void g_fma(size_t n, double *const *A, double *r, const double *dr,
                  double *const *S) {
  gm_fma_grad(n, A[0], A[1], A[2], r, dr, S[0], S[1], S[2]);
}
static double d_fma(const double *a, int j) {
  return j == 0 ? a[1] : j == 1 ? a[0] : 1.0;
}
static void sm_fma(rng_t *r, double *a) {
  for (int k = 0; k < 3; k++)
    a[k] = rng_range(r, -5, 5);
}
static const gcase c_fma = {"gm_fma", 3,     {P_VD, P_VD, P_VD}, 0, 0, s_fma,
                            d_fma,    b_fma, g_fma,              sm_fma};
GTEST(c_fma)

/* lgamma/tgamma where nothing differentiated reaches them (t is reassigned
 * a nodiff value first) or their value reaches no output. */
BATCHDIFF double gm_gamma_nodiff(double x, BD_NODIFF double n) {
  double t = 2.0 * x;
  double r = t * t;
  t = n;
  r += lgamma(t);
  double unused = tgamma(x);
  (void)unused;
  return r;
}
static double s_gamma(const double *a) { return gm_gamma_nodiff(a[0], a[1]); }
static void b_gamma(size_t n, double *const *A, double *r) {
  gm_gamma_nodiff_batched(n, A[0], A[1], r);
}
static void g_gamma(size_t n, double *const *A, double *r, const double *dr,
                    double *const *S) {
  gm_gamma_nodiff_grad(n, A[0], A[1], r, dr, S[0]);
}
static double d_gamma(const double *a, int j) { return j == 0 ? 8 * a[0] : 0; }
static void sm_gamma(rng_t *r, double *a) {
  a[0] = rng_range(r, -5, 5);
  a[1] = rng_range(r, 0.5, 5);
}
static const gcase c_gamma = {
    "gm_gamma_nodiff", 2,       {P_VD, P_VN}, 0,       0,
    s_gamma,           d_gamma, b_gamma,      g_gamma, sm_gamma};
GTEST(c_gamma)

#define GM_(fn) GT_(c_##fn), GT_(cf_##fn)

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      GM_(sqrt),     GM_(cbrt),      GM_(exp),          GM_(exp2),
      GM_(exp10),    GM_(expm1),     GM_(log),          GM_(log2),
      GM_(log10),    GM_(log1p),     GM_(sin),          GM_(cos),
      GM_(tan),      GM_(asin),      GM_(acos),         GM_(atan),
      GM_(sinh),     GM_(cosh),      GM_(tanh),         GM_(asinh),
      GM_(acosh),    GM_(atanh),     GM_(erf),          GM_(erfc),
      GM_(lgamma),   GM_(tgamma),    GM_(fabs),         GM_(floor),
      GM_(ceil),     GM_(trunc),     GM_(round),        GM_(pow),
      GM_(atan2),    GM_(hypot),     GM_(fmin),         GM_(fmax),
      GM_(copysign), GM_(fmod),      GM_(rint),         GM_(nearbyint),
      GM_(logb),     GM_(remainder), GM_(fdim),         GM_(nextafter),
      GM_(j0),       GM_(j1),        GM_(y0),           GM_(y1),
      GT_(c_ldexp),  GT_(c_scalbn),  GT_(c_lround_mix), GT_(c_fma),
      GT_(c_gamma),  GM_(log1pexp),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_grad_math", tests, NULL, NULL);
}
