/* Speed and accuracy of the vector math candidates, AVX2 only: SLEEF u10 and
 * u35, glibc's scalar libm in a loop, glibc libmvec (4 ULP), and batchdiff's
 * own bd_<fn>_f32n / _f64d: the library version (SLEEF u10 behind a call into
 * libbatchdiff_rt, bd__lib_*) and the inline one (vmath_fast.h, bd__fast_*).
 * Prints a markdown table (ns per element, max ULP over random inputs of the
 * function's usual domain). Not a test: timings are machine-dependent.
 *
 *   rt_bench_vmath [function...]   (e.g. rt_bench_vmath expf log) */
#include <batchdiff/batchdiff_rt.h>
#include <immintrin.h>
#include <sleef.h>
#include <time.h>

#include "test_util.h"
#include "ulp.h"

#define N 4096
#define NCAND 6
#define REPS 100
#define TRIALS 21

__m256 _ZGVdN8v_expf(__m256);
__m256 _ZGVdN8v_logf(__m256);
__m256 _ZGVdN8v_sinf(__m256);
__m256 _ZGVdN8vv_powf(__m256, __m256);
__m256d _ZGVdN4v_exp(__m256d);
__m256d _ZGVdN4v_log(__m256d);

typedef __m256 (*vf1)(__m256);
typedef __m256 (*vf2)(__m256, __m256);
typedef __m256d (*vd1)(__m256d);
typedef __m256d (*vd2)(__m256d, __m256d);

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Candidates are adapted to one signature each (x, y; y unused if unary). */
#define CAND_F(name, call)                                                     \
  static __m256 name(__m256 x, __m256 y) {                                     \
    (void)y;                                                                   \
    return call;                                                               \
  }
#define CAND_D(name, call)                                                     \
  static __m256d name(__m256d x, __m256d y) {                                  \
    (void)y;                                                                   \
    return call;                                                               \
  }
#define SCALAR_F(name, expr)                                                   \
  static __m256 name(__m256 x, __m256 y) {                                     \
    float a[8], b[8];                                                          \
    _mm256_storeu_ps(a, x);                                                    \
    _mm256_storeu_ps(b, y);                                                    \
    for (int i = 0; i < 8; i++)                                                \
      a[i] = expr;                                                             \
    return _mm256_loadu_ps(a);                                                 \
  }
#define SCALAR_D(name, expr)                                                   \
  static __m256d name(__m256d x, __m256d y) {                                  \
    double a[4], b[4];                                                         \
    _mm256_storeu_pd(a, x);                                                    \
    _mm256_storeu_pd(b, y);                                                    \
    for (int i = 0; i < 4; i++)                                                \
      a[i] = expr;                                                             \
    return _mm256_loadu_pd(a);                                                 \
  }

CAND_F(expf_u10, Sleef_expf8_u10avx2(x))
CAND_F(expf_mvec, _ZGVdN8v_expf(x))
CAND_F(expf_bd, (__m256)bd__lib_exp_f32n((bd_f32n)x))
CAND_F(expf_fast, (__m256)bd__fast_exp_f32n((bd_f32n)x))
SCALAR_F(expf_glibc, expf(a[i]))
CAND_F(logf_u10, Sleef_logf8_u10avx2(x))
CAND_F(logf_u35, Sleef_logf8_u35avx2(x))
CAND_F(logf_mvec, _ZGVdN8v_logf(x))
CAND_F(logf_bd, (__m256)bd__lib_log_f32n((bd_f32n)x))
CAND_F(logf_fast, (__m256)bd__fast_log_f32n((bd_f32n)x))
CAND_F(log1pf_u10, Sleef_log1pf8_u10avx2(x))
CAND_F(log1pf_bd, (__m256)bd__lib_log1p_f32n((bd_f32n)x))
CAND_F(log1pf_fast, (__m256)bd__fast_log1p_f32n((bd_f32n)x))
SCALAR_F(log1pf_glibc, log1pf(a[i]))
SCALAR_F(logf_glibc, logf(a[i]))
CAND_F(sinf_u10, Sleef_sinf8_u10avx2(x))
CAND_F(sinf_u35, Sleef_sinf8_u35avx2(x))
CAND_F(sinf_mvec, _ZGVdN8v_sinf(x))
CAND_F(sinf_bd, (__m256)bd__lib_sin_f32n((bd_f32n)x))
CAND_F(sinf_fast, (__m256)bd__fast_sin_f32n((bd_f32n)x))
CAND_D(sin_u10, Sleef_sind4_u10avx2(x))
CAND_D(sin_bd, (__m256d)bd__lib_sin_f64d((bd_f64d)x))
CAND_D(sin_fast, (__m256d)bd__fast_sin_f64d((bd_f64d)x))
SCALAR_D(sin_glibc, sin(a[i]))
SCALAR_F(sinf_glibc, sinf(a[i]))
CAND_F(powf_u10, Sleef_powf8_u10avx2(x, y))
CAND_F(powf_mvec, _ZGVdN8vv_powf(x, y))
CAND_F(powf_bd, (__m256)bd_pow_f32n((bd_f32n)x, (bd_f32n)y))
SCALAR_F(powf_glibc, powf(a[i], b[i]))
CAND_D(exp_u10, Sleef_expd4_u10avx2(x))
CAND_D(exp_mvec, _ZGVdN4v_exp(x))
CAND_D(exp_bd, (__m256d)bd__lib_exp_f64d((bd_f64d)x))
CAND_D(exp_fast, (__m256d)bd__fast_exp_f64d((bd_f64d)x))
SCALAR_D(exp_glibc, exp(a[i]))
CAND_D(log_u10, Sleef_logd4_u10avx2(x))
CAND_D(log_u35, Sleef_logd4_u35avx2(x))
CAND_D(log_mvec, _ZGVdN4v_log(x))
CAND_D(log_bd, (__m256d)bd__lib_log_f64d((bd_f64d)x))
CAND_D(log_fast, (__m256d)bd__fast_log_f64d((bd_f64d)x))
CAND_D(log1p_u10, Sleef_log1pd4_u10avx2(x))
CAND_D(log1p_bd, (__m256d)bd__lib_log1p_f64d((bd_f64d)x))
CAND_D(log1p_fast, (__m256d)bd__fast_log1p_f64d((bd_f64d)x))
SCALAR_D(log1p_glibc, log1p(a[i]))
SCALAR_D(log_glibc, log(a[i]))

/* One-argument functions with SLEEF u10, glibc, lib and inline rows. */
#define CANDS1(fn, acc)                                                        \
  CAND_F(fn##f_u10, Sleef_##fn##f8_##acc##avx2(x))                             \
  CAND_F(fn##f_bd, (__m256)bd__lib_##fn##_f32n((bd_f32n)x))                    \
  CAND_F(fn##f_fast, (__m256)bd__fast_##fn##_f32n((bd_f32n)x))                 \
  SCALAR_F(fn##f_glibc, fn##f(a[i]))                                           \
  CAND_D(fn##_u10, Sleef_##fn##d4_##acc##avx2(x))                              \
  CAND_D(fn##_bd, (__m256d)bd__lib_##fn##_f64d((bd_f64d)x))                    \
  CAND_D(fn##_fast, (__m256d)bd__fast_##fn##_f64d((bd_f64d)x))                 \
  SCALAR_D(fn##_glibc, fn(a[i]))
CANDS1(expm1, u10)
CANDS1(cos, u10)
/* Float only (no inline double version). */
#define CANDS1F(fn, acc)                                                       \
  CAND_F(fn##f_u10, Sleef_##fn##f8_##acc##avx2(x))                             \
  CAND_F(fn##f_bd, (__m256)bd__lib_##fn##_f32n((bd_f32n)x))                    \
  CAND_F(fn##f_fast, (__m256)bd__fast_##fn##_f32n((bd_f32n)x))                 \
  SCALAR_F(fn##f_glibc, fn##f(a[i]))
#define BENCH1F(fn, acc, lo, hi)                                               \
  {#fn "f",                                                                    \
   fn##l,                                                                      \
   NULL,                                                                       \
   lo,                                                                         \
   hi,                                                                         \
   0,                                                                          \
   0,                                                                          \
   {{"SLEEF " #acc, fn##f_u10, NULL},                                          \
    {"SLEEF u35", NULL, NULL},                                                 \
    {"glibc scalar", fn##f_glibc, NULL},                                       \
    {"glibc libmvec", NULL, NULL},                                             \
    {"bd_ lib (SLEEF)", fn##f_bd, NULL},                                       \
    {"bd_ inline", fn##f_fast, NULL}}},
CANDS1F(erf, u10)
CANDS1F(erfc, u15)
CANDS1F(tanh, u10)
#define BENCH1(fn, acc, lo, hi)                                                \
  {#fn "f",                                                                    \
   fn##l,                                                                      \
   NULL,                                                                       \
   lo,                                                                         \
   hi,                                                                         \
   0,                                                                          \
   0,                                                                          \
   {{"SLEEF " #acc, fn##f_u10, NULL},                                          \
    {"SLEEF u35", NULL, NULL},                                                 \
    {"glibc scalar", fn##f_glibc, NULL},                                       \
    {"glibc libmvec", NULL, NULL},                                             \
    {"bd_ lib (SLEEF)", fn##f_bd, NULL},                                       \
    {"bd_ inline", fn##f_fast, NULL}}},                                        \
      {#fn,                                                                    \
       fn##l,                                                                  \
       NULL,                                                                   \
       lo,                                                                     \
       hi,                                                                     \
       0,                                                                      \
       0,                                                                      \
       {{"SLEEF " #acc, NULL, fn##_u10},                                       \
        {"SLEEF u35", NULL, NULL},                                             \
        {"glibc scalar", NULL, fn##_glibc},                                    \
        {"glibc libmvec", NULL, NULL},                                         \
        {"bd_ lib (SLEEF)", NULL, fn##_bd},                                    \
        {"bd_ inline", NULL, fn##_fast}}},

typedef struct {
  const char *label;
  vf2 f;
  vd2 d;
} cand;

typedef struct {
  const char *name;
  long double (*r1)(long double);
  long double (*r2)(long double, long double);
  double lo, hi, lo2, hi2;
  cand c[NCAND];
} bench;

static const bench benches[] = {
    {"expf",
     expl,
     NULL,
     -87,
     88,
     0,
     0,
     {{"SLEEF u10", expf_u10, NULL},
      {"SLEEF u35", NULL, NULL},
      {"glibc scalar", expf_glibc, NULL},
      {"glibc libmvec", expf_mvec, NULL},
      {"bd_ lib (SLEEF)", expf_bd, NULL},
      {"bd_ inline", expf_fast, NULL}}},
    {"logf",
     logl,
     NULL,
     1e-30,
     1e30,
     0,
     0,
     {{"SLEEF u10", logf_u10, NULL},
      {"SLEEF u35", logf_u35, NULL},
      {"glibc scalar", logf_glibc, NULL},
      {"glibc libmvec", logf_mvec, NULL},
      {"bd_ lib (SLEEF)", logf_bd, NULL},
      {"bd_ inline", logf_fast, NULL}}},
    {"log1pf",
     log1pl,
     NULL,
     -0.9,
     100,
     0,
     0,
     {{"SLEEF u10", log1pf_u10, NULL},
      {"SLEEF u35", NULL, NULL},
      {"glibc scalar", log1pf_glibc, NULL},
      {"glibc libmvec", NULL, NULL},
      {"bd_ lib (SLEEF)", log1pf_bd, NULL},
      {"bd_ inline", log1pf_fast, NULL}}},
    {"sinf",
     sinl,
     NULL,
     -100,
     100,
     0,
     0,
     {{"SLEEF u10", sinf_u10, NULL},
      {"SLEEF u35", sinf_u35, NULL},
      {"glibc scalar", sinf_glibc, NULL},
      {"glibc libmvec", sinf_mvec, NULL},
      {"bd_ lib (SLEEF)", sinf_bd, NULL},
      {"bd_ inline", sinf_fast, NULL}}},
    {"sin",
     sinl,
     NULL,
     -100,
     100,
     0,
     0,
     {{"SLEEF u10", NULL, sin_u10},
      {"SLEEF u35", NULL, NULL},
      {"glibc scalar", NULL, sin_glibc},
      {"glibc libmvec", NULL, NULL},
      {"bd_ lib (SLEEF)", NULL, sin_bd},
      {"bd_ inline", NULL, sin_fast}}},
    {"powf",
     NULL,
     powl,
     0,
     10,
     -20,
     20,
     {{"SLEEF u10", powf_u10, NULL},
      {"SLEEF u35", NULL, NULL},
      {"glibc scalar", powf_glibc, NULL},
      {"glibc libmvec", powf_mvec, NULL},
      {"bd_ lib (SLEEF)", powf_bd, NULL},
      {"bd_ inline", NULL, NULL}}},
    {"exp",
     expl,
     NULL,
     -700,
     700,
     0,
     0,
     {{"SLEEF u10", NULL, exp_u10},
      {"SLEEF u35", NULL, NULL},
      {"glibc scalar", NULL, exp_glibc},
      {"glibc libmvec", NULL, exp_mvec},
      {"bd_ lib (SLEEF)", NULL, exp_bd},
      {"bd_ inline", NULL, exp_fast}}},
    {"log",
     logl,
     NULL,
     1e-300,
     1e300,
     0,
     0,
     {{"SLEEF u10", NULL, log_u10},
      {"SLEEF u35", NULL, log_u35},
      {"glibc scalar", NULL, log_glibc},
      {"glibc libmvec", NULL, log_mvec},
      {"bd_ lib (SLEEF)", NULL, log_bd},
      {"bd_ inline", NULL, log_fast}}},
    {"log1p",
     log1pl,
     NULL,
     -0.9,
     100,
     0,
     0,
     {{"SLEEF u10", NULL, log1p_u10},
      {"SLEEF u35", NULL, NULL},
      {"glibc scalar", NULL, log1p_glibc},
      {"glibc libmvec", NULL, NULL},
      {"bd_ lib (SLEEF)", NULL, log1p_bd},
      {"bd_ inline", NULL, log1p_fast}}},
    BENCH1(expm1, u10, -10, 10) BENCH1(cos, u10, -100, 100)
        BENCH1F(erf, u10, -5, 5) BENCH1F(erfc, u15, -5, 12)
            BENCH1F(tanh, u10, -10, 10)};

/* Log-uniform when the domain spans decades (log), else uniform. */
static double draw(uint64_t *rng, double lo, double hi) {
  if (lo > 0 && hi / lo > 1e6)
    return exp(log(lo) + (log(hi) - log(lo)) * tu_unit(rng));
  return lo + (hi - lo) * tu_unit(rng);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Optional arguments: names of the functions to run (default: all). */
static int wanted(int argc, char **argv, const char *name) {
  if (argc < 2)
    return 1;
  for (int i = 1; i < argc; i++)
    if (strcmp(argv[i], name) == 0)
      return 1;
  return 0;
}

int main(int argc, char **argv) {
  static float xf[N], yf[N], of[N];
  static double xd[N], yd[N], od[N];
  printf("| function | implementation | ns/element | max ULP |\n"
         "|---|---|---|---|\n");
  for (size_t b = 0; b < sizeof benches / sizeof benches[0]; b++) {
    const bench *be = &benches[b];
    if (!wanted(argc, argv, be->name))
      continue;
    uint64_t rng = 5;
    for (int i = 0; i < N; i++) {
      xd[i] = draw(&rng, be->lo, be->hi);
      yd[i] = be->r2 ? draw(&rng, be->lo2, be->hi2) : 0;
      xf[i] = (float)xd[i];
      yf[i] = (float)yd[i];
    }
    for (int c = 0; c < NCAND; c++) {
      const cand *ca = &be->c[c];
      if (!ca->f && !ca->d) {
        printf("| %s | %s | n/a | n/a |\n", be->name, ca->label);
        continue;
      }
      /* Median of TRIALS: the machine may be shared. */
      double ts[TRIALS];
      for (int trial = 0; trial < TRIALS; trial++) {
        double t0 = now();
        for (int r = 0; r < REPS; r++) {
          if (ca->f)
            for (int i = 0; i < N; i += 8)
              _mm256_storeu_ps(of + i, ca->f(_mm256_loadu_ps(xf + i),
                                             _mm256_loadu_ps(yf + i)));
          else
            for (int i = 0; i < N; i += 4)
              _mm256_storeu_pd(od + i, ca->d(_mm256_loadu_pd(xd + i),
                                             _mm256_loadu_pd(yd + i)));
          __asm__ volatile("" ::: "memory");
        }
        double ns = (now() - t0) * 1e9 / ((double)N * REPS);
        ts[trial] = ns;
      }
      qsort(ts, TRIALS, sizeof ts[0], cmp_double);
      double med = ts[TRIALS / 2];
      double maxu = 0;
      for (int i = 0; i < N; i++) {
        long double ref;
        double u;
        if (ca->f) {
          ref = be->r2 ? be->r2(xf[i], yf[i]) : be->r1(xf[i]);
          u = ulp_error_f(of[i], ref);
        } else {
          ref = be->r2 ? be->r2(xd[i], yd[i]) : be->r1(xd[i]);
          u = ulp_error_d(od[i], ref);
        }
        if (u > maxu)
          maxu = u;
      }
      printf("| %s | %s | %.2f | %.3f |\n", be->name, ca->label, med, maxu);
      fflush(stdout);
    }
  }
  return 0;
}
