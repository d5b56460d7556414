/* A struct local with array members passed to a function of another file
 * marked batch, diff in its header (lane_grad_struct_array.h): under diff
 * the call goes through the callee's NAME_grad, its array members' elements
 * as members (docs/calls.md). NAME_batched's and NAME_grad's values bit for
 * bit against the scalar function (any NaN where it gives a NaN),
 * gradients against Richardson central differences; n = 0 .. 37 and
 * 1000 examples. Did not compile before (a struct with array members). */
#include "exec_util.h"

#include "../common/test_filter.h"
#include "lane_grad_struct_array.h"

#include <math.h>
#include <string.h>

__attribute__((batch, diff)) double g(double x, double y) {
  lgs_st s;
  s.a = y;
  s.eb[0] = x;
  s.eb[1] = y;
  s.eb[2] = x * y;
  s.m[0][0] = 1.0;
  s.m[0][1] = y;
  s.m[1][0] = 0.0;
  s.m[1][1] = x;
  double r = lgs_step(x, &s);
  return r + s.eb[1] * x + s.m[1][0] * y + s.a + s.eb[0];
}

static const size_t ns[] = {0,  1,  2,  3,  4,  5,  7,  8,   9,
                            15, 16, 17, 31, 32, 33, 37, 1000};
#define NNS (sizeof ns / sizeof ns[0])

static void same(const char *what, size_t n, size_t b, double got,
                 double want) {
  if (isnan(want) ? !isnan(got) : memcmp(&got, &want, sizeof got) != 0)
    fail_msg("%s n=%zu example %zu: %a, scalar %a", what, n, b, got, want);
}

/* Richardson-extrapolated central differences in x (k = 0) or y. */
static double rich(double x, double y, int k) {
  double d[2];
  for (int j = 0; j < 2; j++) {
    double h = 1e-4 / (1 << j);
    d[j] = k ? (g(x, y + h) - g(x, y - h)) / (2 * h)
             : (g(x + h, y) - g(x - h, y)) / (2 * h);
  }
  return (4 * d[1] - d[0]) / 3;
}

static void test_grad(void **state) {
  (void)state;
  rng_t r = {name_seed("lgs")};
  for (size_t i = 0; i < NNS; i++) {
    size_t n = ns[i];
    double *x = gp_alloc((n + 1) * 8), *y = gp_alloc((n + 1) * 8);
    double *ret = gp_alloc((n + 1) * 8), *ret2 = gp_alloc((n + 1) * 8);
    double *dx = gp_alloc((n + 1) * 8), *dy = gp_alloc((n + 1) * 8);
    for (size_t b = 0; b < n; b++) {
      x[b] = 3.0 * (rng_unit(&r) * 2 - 1);
      y[b] = 3.0 * (rng_unit(&r) * 2 - 1);
      dx[b] = dy[b] = 0.0;
    }
    g_batched(n, x, y, ret);
    g_grad(n, x, y, ret2, NULL, dx, dy);
    for (size_t b = 0; b < n; b++) {
      same("g", n, b, ret[b], g(x[b], y[b]));
      same("g (grad)", n, b, ret2[b], g(x[b], y[b]));
      double fx = rich(x[b], y[b], 0), fy = rich(x[b], y[b], 1);
      if (!(fabs(dx[b] - fx) <= 1e-6 * (1 + fabs(fx))) ||
          !(fabs(dy[b] - fy) <= 1e-6 * (1 + fabs(fy))))
        fail_msg("g n=%zu example %zu (%a, %a): gradient (%.17g, %.17g), "
                 "differences (%.17g, %.17g)",
                 n, b, x[b], y[b], dx[b], dy[b], fx, fy);
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_grad),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_lane_grad_struct_array", tests, NULL,
                                     NULL);
}
