/* A call made once per example stays one when its function waits for
 * another callee's body. xr_scale(x, NULL) and xr_sign(k, &s) (declared in
 * a header, passed a null pointer or a local's address) make the plugin
 * wait for their bodies, which another file defines: the functions are
 * lowered again at the end of the file. By then xr_note, declared in the
 * header and called with values only (once per example when the function
 * was first lowered), has its body below the functions; the retry used to
 * inline it, and its write of the tally (a global) was refused. Now the
 * retry decides as the first lowering did. For every n of ns, NAME_batched
 * and NAME_grad make exactly the scalar loop's calls and give its results
 * bit for bit, and the gradient its closed form, with 1 and 2 threads. */
#include "call_tally.h"
#include "exec_util.h"

#include "../common/test_filter.h"
#include "extern_retry.h"

#include <batchdiff/parallel.h>

__attribute__((batch)) double retry_null(double x, int k) {
  double y = xr_scale(x, NULL);
  if (k > 2)
    xr_note(k, 1);
  return y + k;
}

BATCHDIFF double retry_diff(double x, int k) {
  int s = 0;
  int c = xr_sign(k, &s);
  xr_note(k + s, c);
  return x * x * (s + 2);
}

/* After the functions: the body their retry sees. */
void xr_note(int site, int k) {
  record(7, (uint64_t)(uint32_t)site << 32 | (uint32_t)k);
}

static void t_retry(void **state) {
  (void)state;
  rng_t rng = {name_seed("retry")};
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
      r2[e] = retry_null(x[e], k[e]);
    tally want = take();
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      retry_null_batched(n, x, k, r);
      tally got = take();
      SAME_CALLS("retry_null_batched", n, want, got);
      assert_memory_equal(r, r2, n * 8);
    }
    for (size_t e = 0; e < n; e++)
      r2[e] = retry_diff(x[e], k[e]);
    want = take();
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      retry_diff_batched(n, x, k, r);
      tally got = take();
      SAME_CALLS("retry_diff_batched", n, want, got);
      assert_memory_equal(r, r2, n * 8);
      memset(d, 0, n * 8); /* (shadows are added to) */
      retry_diff_grad(n, x, k, r, dr, d);
      got = take();
      SAME_CALLS("retry_diff_grad", n, want, got);
      assert_memory_equal(r, r2, n * 8);
      for (size_t e = 0; e < n; e++) {
        double g = dr[e] * 2.0 * x[e] * (k[e] % 3 == 0 ? 1 : 3);
        if (fabs(d[e] - g) > 1e-15 * fabs(g)) {
          print_error("retry_diff_grad e=%zu: %a, want %a\n", e, d[e], g);
          fail();
        }
      }
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(t_retry)};
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_extern_retry", tests, NULL, NULL);
}
