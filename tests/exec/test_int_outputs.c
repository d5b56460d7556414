/* `diff` on functions whose outputs are all integers (ERFA's eraA2tf,
 * eraD2tf, eraJdcalf, marked diff with the rest of erfa.h): NAME_grad
 * computes them as NAME_batched does, with a warning, and leaves every
 * shadow as it is (the derivatives are zero); a function of another file
 * marked so (io_d2tf, int_outputs_other.c) has a NAME_grad its callers
 * call, and a floating result computed from its integer outputs is
 * differentiated (the integers carry no derivative). Before, each was an
 * error (diff-void, diff-int). For n = 0 .. 37, arrays ending at guard
 * pages: the outputs of NAME_batched and NAME_grad are the scalar
 * function's bits, the shadows keep the values they had (and may be
 * NULL); io_frac's gradient is the integer its formula multiplies by. */
#include "exec_util.h"

#include "../common/test_filter.h"
#include "int_outputs.h"

#include <math.h>
#include <string.h>

/* eraA2tf: radians scaled to days, the callee's outputs passed on. */
BATCHDIFF void io_a2tf(int ndp, double angle, char *sign, int ihmsf[4]) {
  io_d2tf(ndp, angle / 6.283185307179586, sign, ihmsf);
}

/* eraJdcalf-like: a status and an int array (-1: ndp out of range, f
 * untouched). */
BATCHDIFF int io_cal(int ndp, double dj1, double dj2, int f[2]) {
  if (ndp < 0 || ndp > 6)
    return -1;
  double d = dj1 + dj2, s = 1.0;
  for (int k = 0; k < ndp; k++)
    s *= 10.0;
  f[0] = (int)floor(d);
  f[1] = (int)floor((d - floor(d)) * s + 0.5);
  return d < 0.0;
}

/* A floating result from the callee's integer outputs (a local array and
 * a scalar's address): d/dangle is f[3], an integer, constant nearby. */
BATCHDIFF double io_frac(double angle) {
  char s;
  int f[4];
  io_d2tf(3, angle, &s, f);
  return angle * f[3] + (s == '-' ? 1.0 : 0.0) + f[2];
}

enum { ST = 6 }; /* ints per example (4 used, then a gap) */

static void test_a2tf(void **state) {
  (void)state;
  rng_t r = {name_seed("a2tf")};
  for (size_t n = 0; n <= 37; n++) {
    int *ndp = gp_alloc((n + 1) * sizeof(int));
    double *ang = gp_alloc((n + 1) * 8), *d = gp_alloc((n + 1) * 8);
    char *sg = gp_alloc(n + 1), *sg2 = gp_alloc(n + 1);
    int *f = gp_alloc((n + 1) * ST * sizeof(int));
    int *f2 = gp_alloc((n + 1) * ST * sizeof(int));
    for (size_t b = 0; b < n; b++) {
      ndp[b] = rng_below(&r, 7);
      ang[b] = -7.0 + 14.0 * rng_unit(&r);
      d[b] = 0.25 + b;
    }
    memset(f, 0x5a, (n + 1) * ST * sizeof(int));
    memset(f2, 0x5a, (n + 1) * ST * sizeof(int));
    io_a2tf_batched(n, ndp, ang, sg, 1, f, ST);
    io_a2tf_grad(n, ndp, ang, sg2, 1, f2, ST, d);
    for (size_t b = 0; b < n; b++) {
      char s;
      int w[4];
      io_a2tf(ndp[b], ang[b], &s, w);
      if (sg[b] != s || sg2[b] != s || memcmp(f + b * ST, w, sizeof w) ||
          memcmp(f2 + b * ST, w, sizeof w))
        fail_msg("a2tf n=%zu example %zu: %c %d %d %d %d (grad %c %d %d %d "
                 "%d), scalar %c %d %d %d %d",
                 n, b, sg[b], f[b * ST], f[b * ST + 1], f[b * ST + 2],
                 f[b * ST + 3], sg2[b], f2[b * ST], f2[b * ST + 1],
                 f2[b * ST + 2], f2[b * ST + 3], s, w[0], w[1], w[2], w[3]);
      if (f[b * ST + 4] != 0x5a5a5a5a || f2[b * ST + 5] != 0x5a5a5a5a)
        fail_msg("a2tf n=%zu example %zu: the gap written", n, b);
      if (d[b] != 0.25 + b)
        fail_msg("a2tf n=%zu example %zu: d_angle %g, was %g", n, b, d[b],
                 0.25 + b);
    }
    io_a2tf_grad(n, ndp, ang, sg2, 1, f2, ST, NULL);
    gp_reset();
  }
}

static void test_cal(void **state) {
  (void)state;
  rng_t r = {name_seed("cal")};
  for (size_t n = 0; n <= 37; n++) {
    int *ndp = gp_alloc((n + 1) * sizeof(int));
    double *a = gp_alloc((n + 1) * 8), *c = gp_alloc((n + 1) * 8);
    double *da = gp_alloc((n + 1) * 8), *dc = gp_alloc((n + 1) * 8);
    int *ret = gp_alloc((n + 1) * sizeof(int));
    int *ret2 = gp_alloc((n + 1) * sizeof(int));
    int *f = gp_alloc((n + 1) * 2 * sizeof(int));
    int *f2 = gp_alloc((n + 1) * 2 * sizeof(int));
    for (size_t b = 0; b < n; b++) {
      ndp[b] = rng_below(&r, 9) - 1;
      a[b] = 2451545.0 + 1000.0 * (rng_unit(&r) - 0.5);
      c[b] = rng_unit(&r) - 0.5 - (b % 5 == 0 ? 3e6 : 0.0);
      da[b] = -1.5;
      dc[b] = 3.0;
      f[2 * b] = f2[2 * b] = f[2 * b + 1] = f2[2 * b + 1] = 77;
    }
    io_cal_batched(n, ndp, a, c, f, 2, ret);
    io_cal_grad(n, ndp, a, c, f2, 2, ret2, da, dc);
    for (size_t b = 0; b < n; b++) {
      int w[2] = {77, 77};
      int s = io_cal(ndp[b], a[b], c[b], w);
      if (ret[b] != s || ret2[b] != s || memcmp(f + 2 * b, w, sizeof w) ||
          memcmp(f2 + 2 * b, w, sizeof w))
        fail_msg("cal n=%zu example %zu: %d %d %d (grad %d %d %d), scalar "
                 "%d %d %d",
                 n, b, ret[b], f[2 * b], f[2 * b + 1], ret2[b], f2[2 * b],
                 f2[2 * b + 1], s, w[0], w[1]);
      if (da[b] != -1.5 || dc[b] != 3.0)
        fail_msg("cal n=%zu example %zu: shadows %g %g, were -1.5 3", n, b,
                 da[b], dc[b]);
    }
    io_cal_grad(n, ndp, a, c, f2, 2, NULL, NULL, dc);
    gp_reset();
  }
}

static void test_frac(void **state) {
  (void)state;
  rng_t r = {name_seed("frac")};
  for (size_t n = 0; n <= 37; n++) {
    double *x = gp_alloc((n + 1) * 8), *d = gp_alloc((n + 1) * 8);
    double *ret = gp_alloc((n + 1) * 8), *ret2 = gp_alloc((n + 1) * 8);
    for (size_t b = 0; b < n; b++) {
      x[b] = -3.0 + 6.0 * rng_unit(&r);
      d[b] = 0.5;
    }
    io_frac_batched(n, x, ret);
    io_frac_grad(n, x, ret2, NULL, d);
    for (size_t b = 0; b < n; b++) {
      double want = io_frac(x[b]);
      char s;
      int w[4];
      io_d2tf(3, x[b], &s, w);
      if (memcmp(&ret[b], &want, 8) || memcmp(&ret2[b], &want, 8))
        fail_msg("frac n=%zu example %zu: %a (grad %a), scalar %a", n, b,
                 ret[b], ret2[b], want);
      if (d[b] != 0.5 + w[3])
        fail_msg("frac n=%zu example %zu: gradient %.17g, want %d", n, b,
                 d[b] - 0.5, w[3]);
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_a2tf),
      cmocka_unit_test(test_cal),
      cmocka_unit_test(test_frac),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_int_outputs", tests, NULL, NULL);
}
