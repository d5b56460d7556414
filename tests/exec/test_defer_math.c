/* Loop-free gradients whose exp, log, log1p and erfc defer their rare-lane
 * tests (bd_dfr_*, runtime/include/batchdiff/vmath_defer.h): each step runs
 * the math calls' fast paths and, when a lane needs a fix (exp beyond 708
 * or 86.5, NaN; log and log1p of 0, negatives, subnormals, inf, NaN, and
 * double log1p at 64 bytes beyond 2^1022; erfc beyond 8), the whole step
 * again with the tests (the kernel's careful
 * copy, NAME_gkc). Inputs mix such lanes into ordinary ones; every output
 * of NAME_grad over the batch must be bit for bit that of NAME_grad called
 * on each example alone (a lane's results do not depend on its neighbours,
 * so whichever path a step takes, each lane gets its own bits; a NaN's sign
 * and payload aside, docs/abi.md), and the value NAME_batched's. Without the
 * careful rerun, or with its outputs dropped, the mixed steps' fixed lanes
 * differ. */
#include "exec_util.h"

#include "../common/test_filter.h"

/* bs_call (bench/models.c) with K and r per example: log, two erfc, and
 * in the gradient three exp (exp(-rT) and the erfc rules' exp(-x^2)). */
BATCHDIFF double dm_bs(double S, double K, double r, double sigma, double T) {
  if (T <= 0.0)
    return fmax(S - K, 0.0);
  double vol = sigma * sqrt(T);
  double d1 = (log(S / K) + (r + 0.5 * sigma * sigma) * T) / vol;
  if (d1 < -9.0)
    return 0.0;
  double d2 = d1 - vol;
  double nd1 = 0.5 * erfc(-d1 * 0.70710678118654752);
  double nd2 = 0.5 * erfc(-d2 * 0.70710678118654752);
  return S * nd1 - K * exp(-r * T) * nd2;
}

/* Each deferred double function on an argument of its own, and log1p on
 * log's (rare for log1p alone: 0x1.fp1023, where the 64-byte kernel's fast
 * path gives NaN). */
BATCHDIFF double dm_d(double x, double y, double z) {
  return exp(x) * 0.25 + log(y) + erfc(z) * y + log1p(y);
}

/* The float ones (logistic_loss's shape, and logf). */
BATCHDIFF float dm_f(float x, float y) {
  float m = x > 0.0f ? x : 0.0f;
  return m + log1pf(expf(-fabsf(x))) - y * x + logf(y) * 0.5f + log1pf(y);
}

static const size_t ns[] = {1,  2,          WF - 1,     WF,  WF + 1, WD - 1,
                            WD, 2 * WF + 3, 4 * WF + 1, 257, 1000};
#define NNS (sizeof ns / sizeof ns[0])

/* Bit for bit; a NaN's sign and payload are not (docs/abi.md). */
static void same_d(const char *what, size_t e, double got, double want) {
  if (memcmp(&got, &want, sizeof got) != 0 && !(got != got && want != want)) {
    print_error("%s example %zu: %a, want %a\n", what, e, got, want);
    fail();
  }
}
static void same_f(const char *what, size_t e, float got, float want) {
  if (memcmp(&got, &want, sizeof got) != 0 && !(got != got && want != want)) {
    print_error("%s example %zu: %a, want %a\n", what, e, (double)got,
                (double)want);
    fail();
  }
}

/* An ordinary value in [lo, hi], or (1 in 6) one of \p rare. */
static double pick(rng_t *g, double lo, double hi, const double *rare,
                   size_t nrare) {
  if (rng_u64(g) % 6 == 0)
    return rare[rng_u64(g) % nrare];
  return lo + (hi - lo) * rng_unit(g);
}

static const double d_rare[] = {
    709.0, 710.0, 800.0, -746.0, -1000.0,   INFINITY,  -INFINITY,
    NAN,   0.0,   -0.0,  -1.0,   0x1p-1060, 0x1p-1074, 9.0,
    30.0,  1e300, -9.5,  -30.0,  0x1p-600,  1e-320,    0x1.fp1023};
#define NDR (sizeof d_rare / sizeof d_rare[0])
static const float f_rare[] = {87.0f,     100.0f, -88.0f,    -104.0f, INFINITY,
                               -INFINITY, NAN,    0.0f,      -0.0f,   -1.0f,
                               -2.0f,     1e-40f, 0x1p-149f, 3e38f,   -0.999f};
#define NFR (sizeof f_rare / sizeof f_rare[0])

static void t_bs(void **state) {
  (void)state;
  rng_t g = {0x5eed0001};
  for (size_t k = 0; k < NNS; k++) {
    size_t n = ns[k];
    double *in[5], *ret = gp_alloc(n * sizeof(double)),
                   *ret1 = gp_alloc(n * sizeof(double)),
                   *val = gp_alloc(n * sizeof(double));
    double *seed = gp_alloc(n * sizeof(double)), *d[5], *d1[5];
    for (int j = 0; j < 5; j++) {
      in[j] = gp_alloc(n * sizeof(double));
      d[j] = gp_alloc(n * sizeof(double));
      d1[j] = gp_alloc(n * sizeof(double));
    }
    for (size_t e = 0; e < n; e++) {
      in[0][e] = pick(&g, 40.0, 160.0, d_rare, NDR);
      in[1][e] = pick(&g, 80.0, 120.0, d_rare, NDR);
      in[2][e] = pick(&g, -0.05, 0.1, d_rare, NDR);
      in[3][e] = pick(&g, 0.05, 0.6, d_rare, NDR);
      in[4][e] = pick(&g, -0.06, 2.0, d_rare, NDR);
      seed[e] = 0.5 + rng_unit(&g);
    }
    for (int j = 0; j < 5; j++)
      gp_seal(in[j]);
    gp_seal(seed);
    for (int j = 0; j < 5; j++)
      memset(d[j], 0, n * sizeof(double)), memset(d1[j], 0, n * sizeof(double));
    dm_bs_grad(n, in[0], in[1], in[2], in[3], in[4], ret, seed, d[0], d[1],
               d[2], d[3], d[4]);
    dm_bs_batched(n, in[0], in[1], in[2], in[3], in[4], val);
    for (size_t e = 0; e < n; e++)
      dm_bs_grad(1, in[0] + e, in[1] + e, in[2] + e, in[3] + e, in[4] + e,
                 ret1 + e, seed + e, d1[0] + e, d1[1] + e, d1[2] + e, d1[3] + e,
                 d1[4] + e);
    for (size_t e = 0; e < n; e++) {
      same_d("dm_bs_grad ret", e, ret[e], ret1[e]);
      same_d("dm_bs_grad ret vs dm_bs_batched", e, ret[e], val[e]);
      for (int j = 0; j < 5; j++)
        same_d("dm_bs_grad d", e, d[j][e], d1[j][e]);
    }
    gp_reset();
  }
}

static void t_d(void **state) {
  (void)state;
  rng_t g = {0x5eed0002};
  for (size_t k = 0; k < NNS; k++) {
    size_t n = ns[k];
    double *in[3], *ret = gp_alloc(n * sizeof(double)),
                   *ret1 = gp_alloc(n * sizeof(double)),
                   *val = gp_alloc(n * sizeof(double));
    double *seed = gp_alloc(n * sizeof(double)), *d[3], *d1[3];
    for (int j = 0; j < 3; j++) {
      in[j] = gp_alloc(n * sizeof(double));
      d[j] = gp_alloc(n * sizeof(double));
      d1[j] = gp_alloc(n * sizeof(double));
    }
    for (size_t e = 0; e < n; e++) {
      in[0][e] = pick(&g, -700.0, 700.0, d_rare, NDR);
      in[1][e] = pick(&g, 1e-300, 1e300, d_rare, NDR);
      in[2][e] = pick(&g, -8.0, 8.0, d_rare, NDR);
      seed[e] = rng_unit(&g) - 0.5;
    }
    for (int j = 0; j < 3; j++)
      gp_seal(in[j]);
    gp_seal(seed);
    for (int j = 0; j < 3; j++)
      memset(d[j], 0, n * sizeof(double)), memset(d1[j], 0, n * sizeof(double));
    dm_d_grad(n, in[0], in[1], in[2], ret, seed, d[0], d[1], d[2]);
    dm_d_batched(n, in[0], in[1], in[2], val);
    for (size_t e = 0; e < n; e++)
      dm_d_grad(1, in[0] + e, in[1] + e, in[2] + e, ret1 + e, seed + e,
                d1[0] + e, d1[1] + e, d1[2] + e);
    for (size_t e = 0; e < n; e++) {
      same_d("dm_d_grad ret", e, ret[e], ret1[e]);
      same_d("dm_d_grad ret vs dm_d_batched", e, ret[e], val[e]);
      for (int j = 0; j < 3; j++)
        same_d("dm_d_grad d", e, d[j][e], d1[j][e]);
    }
    gp_reset();
  }
}

static void t_f(void **state) {
  (void)state;
  rng_t g = {0x5eed0003};
  for (size_t k = 0; k < NNS; k++) {
    size_t n = ns[k];
    size_t b = n * sizeof(float);
    float *in[2], *ret = gp_alloc(b), *ret1 = gp_alloc(b), *val = gp_alloc(b);
    float *seed = gp_alloc(b), *d[2], *d1[2];
    for (int j = 0; j < 2; j++) {
      in[j] = gp_alloc(b);
      d[j] = gp_alloc(b);
      d1[j] = gp_alloc(b);
    }
    for (size_t e = 0; e < n; e++) {
      in[0][e] = (float)rng_range(&g, -90.0, 90.0);
      in[1][e] = (float)rng_range(&g, 1e-30, 1e30);
      if (rng_u64(&g) % 5 == 0)
        in[0][e] = f_rare[rng_u64(&g) % NFR];
      if (rng_u64(&g) % 5 == 0)
        in[1][e] = f_rare[rng_u64(&g) % NFR];
      seed[e] = (float)rng_unit(&g) - 0.5f;
    }
    for (int j = 0; j < 2; j++)
      gp_seal(in[j]);
    gp_seal(seed);
    for (int j = 0; j < 2; j++)
      memset(d[j], 0, n * sizeof(float)), memset(d1[j], 0, n * sizeof(float));
    dm_f_grad(n, in[0], in[1], ret, seed, d[0], d[1]);
    dm_f_batched(n, in[0], in[1], val);
    for (size_t e = 0; e < n; e++)
      dm_f_grad(1, in[0] + e, in[1] + e, ret1 + e, seed + e, d1[0] + e,
                d1[1] + e);
    for (size_t e = 0; e < n; e++) {
      same_f("dm_f_grad ret", e, ret[e], ret1[e]);
      same_f("dm_f_grad ret vs dm_f_batched", e, ret[e], val[e]);
      for (int j = 0; j < 2; j++)
        same_f("dm_f_grad d", e, d[j][e], d1[j][e]);
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_bs),
      cmocka_unit_test(t_d),
      cmocka_unit_test(t_f),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_defer_math", tests, NULL, NULL);
}
