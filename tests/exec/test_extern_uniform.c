/* A BD_UNIFORM array (one for the batch) passed to a function of another
 * file at an offset: `u + 1`, `&u[2]`, `u + k` with k per example, as well
 * as whole (docs/calls.md, "Calls of outside functions"). Each example's
 * call gets the scalar loop's address and count (recorded and compared),
 * NAME_batched's results are the scalar loop's bit for bit, NAME_grad's
 * the closed form, for every n of ns, with 1 and 2 threads. */
#include "call_tally.h"
#include "exec_util.h"

#include "../common/test_filter.h"
#include "extern_uniform.h"

#include <batchdiff/parallel.h>

void xu_record(uint64_t tag, uint64_t v, const void *at) {
  record(tag, v ^ (uint64_t)(uintptr_t)at * 0x9e37ULL);
}

__attribute__((batch)) double uoff(double x, BD_UNIFORM const unsigned char u[8],
                                   int k, BD_UNIFORM const double w[4]) {
  int a = xu_sum(u, 3) + xu_sum(u + 1, 2) + xu_sum(&u[2], k & 3);
  if (k > 3)
    a += xu_sum(u + (k & 3), 8 - (k & 3));
  return x * a + xu_dot(w + 1, 3, x) + xu_dot(&w[k & 3], 4 - (k & 3), 0.5);
}

BATCHDIFF double uoff_d(double x, BD_UNIFORM const unsigned char u[8],
                        int k) {
  int a = xu_sum(u + 2, 4) + xu_sum(&u[k & 7], 1);
  return x * x * a;
}

static void t_uniform_offsets(void **state) {
  (void)state;
  rng_t rng = {name_seed("uoff")};
  unsigned char u[8];
  double w[4] = {0.5, -1.25, 2.0, 0.375};
  for (int i = 0; i < 8; i++)
    u[i] = (unsigned char)rng_below(&rng, 256);
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *dr = gp_alloc(n * 8), *d = gp_alloc(n * 8);
    int *k = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -3.0, 5.0);
      k[e] = (int)rng_below(&rng, 8);
      dr[e] = rng_range(&rng, 0.5, 2.0);
    }
    gp_seal(x), gp_seal(k), gp_seal(dr);
    take();
    for (size_t e = 0; e < n; e++)
      r2[e] = uoff(x[e], u, k[e], w);
    tally want = take();
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      uoff_batched(n, x, u, k, w, r);
      tally got = take();
      SAME_CALLS("uoff_batched", n, want, got);
      assert_memory_equal(r, r2, n * 8);
    }
    for (size_t e = 0; e < n; e++)
      r2[e] = uoff_d(x[e], u, k[e]);
    want = take();
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      memset(d, 0, n * 8); /* (shadows are added to) */
      uoff_d_grad(n, x, u, k, r, dr, d);
      tally got = take();
      SAME_CALLS("uoff_d_grad", n, want, got);
      assert_memory_equal(r, r2, n * 8);
      for (size_t e = 0; e < n; e++) {
        double g = dr[e] * 2.0 * x[e] * (r2[e] / (x[e] * x[e]));
        if (fabs(d[e] - g) > 1e-12 * fabs(g)) {
          print_error("uoff_d_grad e=%zu: %a, want %a\n", e, d[e], g);
          fail();
        }
      }
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(t_uniform_offsets)};
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_extern_uniform", tests, NULL,
                                     NULL);
}
