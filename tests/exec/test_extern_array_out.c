/* Calls of functions another file defines (extern_array_out_other.c) with
 * local arrays of numbers passed whole (docs/calls.md, "Calls of outside
 * functions"), as musl's sin, cos and tan pass `double y[2]` to
 * `n = __rem_pio2(x, y)`: each lane's call gets an array of the example's
 * (its elements the example's values), what the callee leaves in it goes
 * back to the example. Did not compile before (call-extern-table).
 * NAME_batched against the scalar function bit for bit (the callees are
 * the same scalar code) on random bits, moderate values, ±0, ±inf, NaN and
 * subnormals; the number of calls of ao_step3 the scalar loop's (a lane
 * that is off makes none); n = 0 .. 37 and 1000 examples. Under diff, an
 * array the call fills used only in a comparison: NAME_grad's values bit
 * for bit, its gradient against central differences. */
#include "exec_util.h"

#include "../common/test_filter.h"
#include "extern_array_out.h"

#include <math.h>
#include <string.h>

/* musl's __sin and __cos, shortened: any polynomial in (x, y) will do. */
static double k_sin(double x, double y) {
  double z = x * x, r = -1.0 / 6 + z * (1.0 / 120 - z / 5040);
  return x + (z * x * r - 0.5 * y * z + y);
}
static double k_cos(double x, double y) {
  double z = x * x;
  return 1.0 - 0.5 * z + z * z * (1.0 / 24 - z / 720) - x * y;
}

/* musl's sin as written: the reduced argument in a local y[2] another
 * file's function fills, the quadrant its result. */
__attribute__((batch)) double msin(double x) {
  double y[2];
  unsigned n;
  if (fabs(x) < 0.785) {
    if (fabs(x) < 0x1p-26)
      return x;
    return k_sin(x, 0.0);
  }
  if (isinf(x) || isnan(x))
    return x - x;
  n = (unsigned)ao_rem_pio2(x, y);
  switch (n & 3) {
  case 0:
    return k_sin(y[0], y[1]);
  case 1:
    return k_cos(y[0], y[1]);
  case 2:
    return -k_sin(y[0], y[1]);
  default:
    return -k_cos(y[0], y[1]);
  }
}

/* A float array read and written by the callee on some examples only, k
 * times per example, through a helper passing its pointer parameter on. */
static void steps(float x, float *v, int k) {
  for (int i = 0; i < k; i++)
    ao_step3(x, v);
}
__attribute__((batch)) double fl(double x, int k) {
  float v[3] = {1.0f, (float)x, 0.5f};
  if (x > 0.0)
    steps((float)(0.5 * x), v, k);
  return v[0] + 2.0 * v[1] + 3.0 * v[2];
}

/* Read only (a pointer to const), and an int array read and written. */
__attribute__((batch)) double ro(double x) {
  double v[4] = {x, x * x, 1.0, -x};
  int c[3] = {0, 0, 5};
  double s = ao_dot4(v);
  ao_count(x, c);
  return s + v[1] + c[0] + 0.5 * c[1] + c[2];
}

/* Under diff: what the call leaves in y used only in comparisons (it
 * carries no derivative, and none is needed). */
__attribute__((batch, diff)) double side(double x) {
  double y[2];
  int n = ao_rem_pio2(x, y);
  double s = y[0] < 0.0 ? -x : x;
  return s * x + (n & 1 ? 0.5 * x : x * x * x) + (y[1] > 0.0);
}

static const size_t ns[] = {0,  1,  2,  3,  4,  5,  7,  8,   9,
                            15, 16, 17, 31, 32, 33, 37, 1000};
#define NNS (sizeof ns / sizeof ns[0])

/* Random bits, moderate values, ±0, ±inf, NaN, subnormals; |x| < 1e9
 * where finite (ao_rem_pio2 converts the quadrant to int). */
static double gen(rng_t *r) {
  static const double special[] = {
      0.0,     -0.0,  INFINITY, -INFINITY,          NAN, 0x1p-1074, -0x1p-1060,
      0x1p-27, 0.785, -0.785,   1.5707963267948966, 1e9};
  uint64_t k = rng_u64(r) % 8;
  if (k == 0)
    return special[rng_u64(r) % (sizeof special / sizeof special[0])];
  if (k == 1) {
    uint64_t u = rng_u64(r);
    double d;
    memcpy(&d, &u, sizeof d);
    return isfinite(d) && fabs(d) < 1e9 ? d : ldexp((double)(u >> 11), -50);
  }
  return 40.0 * (rng_unit(r) * 2 - 1);
}

static void same(const char *what, size_t n, size_t b, double got,
                 double want) {
  if (memcmp(&got, &want, sizeof got) != 0)
    fail_msg("%s n=%zu example %zu: %a, scalar %a", what, n, b, got, want);
}

static void test_sin(void **state) {
  (void)state;
  rng_t r = {name_seed("msin")};
  for (int rep = 0; rep < 20; rep++)
    for (size_t i = 0; i < NNS; i++) {
      size_t n = ns[i];
      double *x = gp_alloc((n + 1) * sizeof *x), *ret = gp_alloc((n + 1) * 8);
      for (size_t b = 0; b < n; b++)
        x[b] = gen(&r);
      msin_batched(n, x, ret);
      for (size_t b = 0; b < n; b++) {
        same("msin", n, b, ret[b], msin(x[b]));
        /* (the scalar function is a sine: the test would see a broken
         * reduction) */
        if (fabs(x[b]) < 1e3 && !(fabs(ret[b] - sin(x[b])) < 1e-3))
          fail_msg("msin(%a) = %a, sin %a", x[b], ret[b], sin(x[b]));
      }
      gp_reset();
    }
}

static void test_read_write(void **state) {
  (void)state;
  rng_t r = {name_seed("fl")};
  for (size_t i = 0; i < NNS; i++) {
    size_t n = ns[i];
    double *x = gp_alloc((n + 1) * sizeof *x), *ret = gp_alloc((n + 1) * 8);
    int *k = gp_alloc((n + 1) * sizeof *k);
    long calls = 0;
    for (size_t b = 0; b < n; b++) {
      x[b] = gen(&r) * 0.05;
      k[b] = (int)(rng_u64(&r) % 5);
      calls += x[b] > 0.0 ? k[b] : 0;
    }
    long before = ao_step3_calls();
    fl_batched(n, x, k, ret);
    if (ao_step3_calls() - before != calls)
      fail_msg("fl n=%zu: %ld calls of ao_step3, the scalar loop makes %ld", n,
               ao_step3_calls() - before, calls);
    for (size_t b = 0; b < n; b++)
      same("fl", n, b, ret[b], fl(x[b], k[b]));
    gp_reset();
  }
}

static void test_read_only(void **state) {
  (void)state;
  rng_t r = {name_seed("ro")};
  for (size_t i = 0; i < NNS; i++) {
    size_t n = ns[i];
    double *x = gp_alloc((n + 1) * sizeof *x), *ret = gp_alloc((n + 1) * 8);
    for (size_t b = 0; b < n; b++) {
      x[b] = gen(&r);
      if (!(fabs(x[b]) < 1e9)) /* (ao_count converts x to int) */
        x[b] = 3.5;
    }
    ro_batched(n, x, ret);
    for (size_t b = 0; b < n; b++)
      same("ro", n, b, ret[b], ro(x[b]));
    gp_reset();
  }
}

/* Richardson-extrapolated central differences of side; *ok false where two
 * step sizes disagree (a jump where y[0] or the quadrant changes). */
static double rich(double x, int *ok) {
  double d[3];
  for (int k = 0; k < 3; k++) {
    double h = 1e-4 / (1 << k);
    d[k] = (side(x + h) - side(x - h)) / (2 * h);
  }
  double r1 = (4 * d[1] - d[0]) / 3, r2 = (4 * d[2] - d[1]) / 3;
  *ok = isfinite(r2) && fabs(r1 - r2) <= 1e-7 * (1 + fabs(r2));
  return r2;
}

static void test_grad(void **state) {
  (void)state;
  rng_t r = {name_seed("side")};
  long checked = 0, points = 0;
  for (size_t i = 0; i < NNS; i++) {
    size_t n = ns[i];
    double *x = gp_alloc((n + 1) * 8), *ret = gp_alloc((n + 1) * 8);
    double *ret2 = gp_alloc((n + 1) * 8), *dx = gp_alloc((n + 1) * 8);
    double *dret = gp_alloc((n + 1) * 8);
    for (size_t b = 0; b < n; b++) {
      x[b] = 10.0 * (rng_unit(&r) * 2 - 1);
      dx[b] = 0.0;
      dret[b] = 1.0;
    }
    side_batched(n, x, ret);
    side_grad(n, x, ret2, dret, dx);
    for (size_t b = 0; b < n; b++) {
      same("side", n, b, ret[b], side(x[b]));
      same("side (grad)", n, b, ret2[b], side(x[b]));
      int ok;
      double fd = rich(x[b], &ok);
      points++;
      if (!ok)
        continue;
      checked++;
      if (!(fabs(dx[b] - fd) <= 1e-6 * (1 + fabs(fd))))
        fail_msg("side n=%zu example %zu x=%a: gradient %.17g, differences "
                 "%.17g",
                 n, b, x[b], dx[b], fd);
    }
    gp_reset();
  }
  if (checked * 2 < points)
    fail_msg("side: %ld of %ld gradients checked", checked, points);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sin),
      cmocka_unit_test(test_read_write),
      cmocka_unit_test(test_read_only),
      cmocka_unit_test(test_grad),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_extern_array_out", tests, NULL,
                                     NULL);
}
