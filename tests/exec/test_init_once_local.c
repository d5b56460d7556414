/* Tables filled once under a function's own static flag (docs/globals.md,
 * "Tables filled once"): `static int ready; static double t[64]; if
 * (!ready) { ...; ready = 1; }` inside the function or a helper it calls.
 * The generated code cannot name the function's static locals, so it keeps
 * copies of them at file scope and runs the block on those, when its first
 * example reaches it; the block uses only constants and those statics, so
 * the copies hold what the function's own do. Checked: NAME_batched and
 * NAME_grad's values bit for bit against the scalar function, the
 * generated functions called first (their copies filled before the scalar
 * function's statics) and afterwards; a first call where no example reaches
 * the block; NAME_grad against central differences. */
#include "exec_fd.h"
#include "exec_util.h"

#include "../common/test_filter.h"

#include <stdbool.h>

/* 1. The block in place: an int flag, a table indexed per example. */
BATCHDIFF double table_exp(double x) {
  static int init = 0;
  static double tab[65];
  if (!init) {
    for (int i = 0; i <= 64; i++)
      tab[i] = exp((i - 32) / 8.0);
    init = 1;
  }
  double u = fmin(fmax(x * 8.0 + 32.0, 0.0), 63.999);
  int i = (int)u;
  double t = u - i;
  return tab[i] * (1 - t) + tab[i + 1] * t;
}

/* 2. In a helper inlined in a loop; a scalar it fills, read after it. */
static double coef_at(int i) {
  static double c[8], c_sum;
  static int ready;
  if (ready == 0) {
    double f = 1.0, s = 0.0;
    for (int k = 0; k < 8; k++) {
      f /= k + 1;
      c[k] = f;
      s += f;
    }
    c_sum = s;
    ready = 1;
  }
  return c[i] / c_sum;
}
BATCHDIFF double series(double x, int n) {
  double s = 1.0, p = 1.0;
  for (int k = 0; k < n && k < 8; k++) {
    p *= x;
    s += coef_at(k) * p;
  }
  return s;
}

/* 3. Reached by some examples only (x > 2); a _Bool flag, a float table
 * from a static const table of the function. */
BATCHDIFF double branchy(double x) {
  static const double base[4] = {1.0, 0.5, 0.25, 2.0};
  static bool done;
  static float steps[16];
  if (x > 2.0) {
    if (!done) {
      for (int i = 0; i < 16; i++)
        steps[i] = (float)(base[i & 3] * (1.0 + i * i / 8.0));
      done = true;
    }
    return x * steps[(int)x % 16] + (done ? 1.0 : 0.0);
  }
  return -x;
}

static void same(const char *what, size_t e, double got, double want) {
  if (memcmp(&got, &want, sizeof got)) {
    print_error("%s example %zu: %.17g, want %.17g\n", what, e, got, want);
    fail();
  }
}

static double exp_x(double x, const void *c) {
  (void)c;
  return table_exp(x);
}
static double series_x(double x, const void *c) {
  return series(x, *(const int *)c);
}
static double branchy_x(double x, const void *c) {
  (void)c;
  return branchy(x);
}

static double scalar_of(int f, double x, int k) {
  return f == 0 ? table_exp(x) : f == 1 ? series(x, k) : branchy(x);
}
static void batched_of(int f, size_t n, const double *x, const int *k,
                       double *r) {
  if (f == 0)
    table_exp_batched(n, x, r);
  else if (f == 1)
    series_batched(n, x, k, r);
  else
    branchy_batched(n, x, r);
}
static void grad_of(int f, size_t n, const double *x, const int *k, double *r,
                    double *d) {
  if (f == 0)
    table_exp_grad(n, x, r, NULL, d);
  else if (f == 1)
    series_grad(n, x, k, r, NULL, d);
  else
    branchy_grad(n, x, r, NULL, d);
}

static const char *const names[] = {"table_exp", "series", "branchy"};
static const fd_fn fds[] = {exp_x, series_x, branchy_x};

/* Function f over every n, the generated functions first (on the first n,
 * they fill their copies before the scalar function fills its statics). */
static void run(int f, fd_count *fc, uint64_t seed) {
  rng_t rng = {seed};
  for (size_t t = 0; t < N_TEST_NS; t++) {
    size_t n = test_ns[t];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *g = gp_alloc(n * 8);
    double *want = gp_alloc(n * 8), *d = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -5.0, 5.0);
      k[e] = (int)rng_below(&rng, 10);
    }
    gp_seal(x);
    gp_seal(k);
    for (size_t e = 0; e < n; e++)
      d[e] = 0.0;
    batched_of(f, n, x, k, r);
    grad_of(f, n, x, k, g, d);
    for (size_t e = 0; e < n; e++) {
      want[e] = scalar_of(f, x[e], k[e]);
      same(names[f], e, r[e], want[e]);
      same(names[f], e, g[e], want[e]);
      fd_check(fc, names[f], fds[f], &k[e], x[e], d[e]);
    }
    gp_reset();
  }
}

static void t_inplace(void **state) {
  (void)state;
  fd_count fc = {0, 64};
  run(0, &fc, 0x5851F42D4C957F2DULL);
  fd_expect(&fc, "table_exp", 300);
}

static void t_helper(void **state) {
  (void)state;
  fd_count fc = {0, 64};
  run(1, &fc, 0x14057B7EF767814FULL);
  fd_expect(&fc, "series", 300);
}

static void t_branch(void **state) {
  (void)state;
  /* No example reaches the block: the values of the other branch (whether
   * the copy was filled is not observable here: the test cannot name it). */
  double x[5] = {-1.0, 0.5, 1.9, -2.5, 2.0}, r[5], d[5] = {0};
  branchy_batched(5, x, r);
  branchy_grad(5, x, r, NULL, d);
  for (size_t e = 0; e < 5; e++)
    same("branchy (none reach)", e, r[e], -x[e]);
  /* Then the first example to reach it fills the copy. */
  double y[3] = {2.5, 3.5, -1.0}, s[3];
  branchy_batched(3, y, s);
  same("branchy", 0, s[0], branchy(2.5));
  same("branchy", 1, s[1], branchy(3.5));
  fd_count fc = {0, 64};
  run(2, &fc, 0x9E3779B97F4A7C15ULL);
  fd_expect(&fc, "branchy", 100);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(t_inplace),
                                     cmocka_unit_test(t_helper),
                                     cmocka_unit_test(t_branch)};
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_init_once_local", tests, NULL, NULL);
}
