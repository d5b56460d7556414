/* Calls of functions another file defines (extern_struct_out_other.c) with
 * pointers to structs of numbers (docs/calls.md, "Calls of outside
 * functions"), as GSL's special functions call each other:
 * `stat = gsl_sf_exp_e(x, &r)` with a struct local, `return
 * gsl_sf_exp_e(x, result);` passing the function's own result pointer on.
 * Each call gets a struct of the example's (its members the example's
 * values; what the callee leaves goes back to the example). NAME_batched
 * against the scalar function bit for bit (the callees are the same
 * scalar code), the number of calls of xs_scale the scalar loop's (a lane
 * that is off makes none), n = 0 .. 37 and 1000 examples. */
#include "exec_util.h"

#include "../common/test_filter.h"
#include "extern_struct_out.h"

/* The function's own result pointer passed on, under a branch. */
__attribute__((batch)) int f_e(double x, xs_result *result) {
  if (x < -700.0) {
    result->val = 0.0;
    result->err = 0.0;
    return 3;
  }
  return xs_exp_e(x, result);
}

/* Struct locals: written by one call, read and written by another (on some
 * examples only), read by a third through a pointer to const. */
__attribute__((batch)) double g(double x) {
  xs_result a, b;
  int s = xs_exp_e(0.25 * x, &a);
  if (x > 0.0)
    xs_scale(-2.0, &a);
  b.val = x;
  b.err = 0.5;
  return a.val + a.err * 1e10 + xs_sum(&b) + s;
}

/* An int member, and a nested struct with float, short and long members
 * initialized before the calls, in a loop whose trip count differs per
 * example. */
__attribute__((batch)) double h(double x, double y, int n) {
  struct xs_result_e10 r;
  int s = xs_exp_mult_e10_e(x, y, &r);
  struct xs_pair p = {{1.0, 0.0}, 0.5f, 0, 7};
  for (int i = 0; i < n; i++)
    xs_step(x, &p);
  return r.val * 1e3 + r.e10 + s + p.r.val + p.r.err + p.w + p.k + (double)p.n;
}

static const size_t ns[] = {0,  1,  2,  3,  4,  5,  7,  8,   9,
                            15, 16, 17, 31, 32, 33, 37, 1000};
#define NNS (sizeof ns / sizeof ns[0])

static double gen(rng_t *r) {
  uint64_t k = rng_u64(r) % 16;
  if (k == 0)
    return (double)(rng_u64(r) % 3) * 709.5 - 709.5; /* -709.5, 0, 709.5 */
  if (k == 1)
    return 800.0 * (rng_unit(r) * 2 - 1) + (rng_u64(r) & 1 ? 0 : 710.0);
  return 20.0 * (rng_unit(r) * 2 - 1);
}

static void same(const char *what, size_t n, size_t b, double got,
                 double want) {
  if (memcmp(&got, &want, sizeof got) != 0)
    fail_msg("%s n=%zu example %zu: %a, scalar %a", what, n, b, got, want);
}

static void test_result_passed_on(void **state) {
  (void)state;
  rng_t r = {name_seed("f_e")};
  for (size_t i = 0; i < NNS; i++) {
    size_t n = ns[i];
    double *x = gp_alloc((n + 1) * sizeof *x);
    xs_result *res = gp_alloc((n + 1) * sizeof *res);
    int *st = gp_alloc((n + 1) * sizeof *st);
    for (size_t b = 0; b < n; b++) {
      x[b] = gen(&r) * (b % 5 == 0 ? 50.0 : 1.0);
      res[b].val = res[b].err = -1.0;
    }
    f_e_batched(n, x, res, 1, st);
    for (size_t b = 0; b < n; b++) {
      xs_result want = {-1.0, -1.0};
      int ws = f_e(x[b], &want);
      if (st[b] != ws)
        fail_msg("f_e n=%zu example %zu: status %d, scalar %d", n, b, st[b],
                 ws);
      same("f_e val", n, b, res[b].val, want.val);
      same("f_e err", n, b, res[b].err, want.err);
    }
    gp_reset();
  }
}

static void test_locals(void **state) {
  (void)state;
  rng_t r = {name_seed("g")};
  for (size_t i = 0; i < NNS; i++) {
    size_t n = ns[i];
    double *x = gp_alloc((n + 1) * sizeof *x), *ret = gp_alloc((n + 1) * 8);
    size_t pos = 0;
    for (size_t b = 0; b < n; b++) {
      x[b] = gen(&r) * 4.0;
      pos += x[b] > 0.0;
    }
    long before = xs_scale_calls();
    g_batched(n, x, ret);
    if (xs_scale_calls() - before != (long)pos)
      fail_msg("g n=%zu: %ld calls of xs_scale, the scalar loop makes %zu", n,
               xs_scale_calls() - before, pos);
    for (size_t b = 0; b < n; b++)
      same("g", n, b, ret[b], g(x[b]));
    gp_reset();
  }
}

static void test_members(void **state) {
  (void)state;
  rng_t r = {name_seed("h")};
  for (size_t i = 0; i < NNS; i++) {
    size_t n = ns[i];
    double *x = gp_alloc((n + 1) * sizeof *x), *y = gp_alloc((n + 1) * 8);
    double *ret = gp_alloc((n + 1) * 8);
    int *k = gp_alloc((n + 1) * sizeof *k);
    for (size_t b = 0; b < n; b++) {
      x[b] = b % 7 == 0 ? 0.0 : gen(&r);
      y[b] = gen(&r) * 10.0;
      k[b] = (int)(rng_u64(&r) % 6);
    }
    h_batched(n, x, y, k, ret);
    for (size_t b = 0; b < n; b++)
      same("h", n, b, ret[b], h(x[b], y[b], k[b]));
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_result_passed_on),
      cmocka_unit_test(test_locals),
      cmocka_unit_test(test_members),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_extern_struct_out", tests, NULL,
                                     NULL);
}
