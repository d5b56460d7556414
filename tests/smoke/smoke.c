/* Smoke test: one annotated function through the whole pipeline.
 * sq_batched must equal sq bit for bit; sq_grad must add 2x (times the seed)
 * to the shadow. */
#include <batchdiff.h>

#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>
#include "../common/test_filter.h"

__attribute__((batch, diff)) double sq(double x) { return x * x; }

#define MAXN 67

static const double inputs[] = {0.0, -0.0, 1.0, -1.5, 3.25, 1e-310, -1e300,
                                INFINITY, -INFINITY, NAN, 0.1, 123456.789};
#define NINPUTS (sizeof inputs / sizeof inputs[0])

static void fill(double *x, size_t n) {
  for (size_t i = 0; i < n; i++)
    x[i] = i < NINPUTS ? inputs[i] : (double)i * 0.37 - 7.0;
}

static void test_batched_matches_scalar(void **state) {
  (void)state;
  double x[MAXN], ret[MAXN + 1];
  for (size_t n = 0; n <= MAXN; n++) {
    fill(x, n);
    ret[n] = 42.0; /* sentinel: nothing past n is written */
    sq_batched(n, x, ret);
    for (size_t b = 0; b < n; b++) {
      double want = sq(x[b]);
      assert_memory_equal(&ret[b], &want, sizeof want);
    }
    assert_true(ret[n] == 42.0);
  }
}

static void test_grad_accumulates(void **state) {
  (void)state;
  double x[MAXN], ret[MAXN], seed[MAXN], dx[MAXN];
  for (size_t n = 0; n <= MAXN; n++) {
    for (size_t b = 0; b < n; b++) {
      x[b] = (double)b * 0.5 - 3.0;
      seed[b] = 1.0 + (double)(b % 3);
      dx[b] = 10.0;
    }
    sq_grad(n, x, ret, seed, dx);
    for (size_t b = 0; b < n; b++) {
      assert_true(ret[b] == x[b] * x[b]);
      assert_true(dx[b] == 10.0 + seed[b] * 2.0 * x[b]);
    }
    /* NULL seed means 1; NULL ret is allowed. */
    for (size_t b = 0; b < n; b++)
      dx[b] = 0.0;
    sq_grad(n, x, NULL, NULL, dx);
    for (size_t b = 0; b < n; b++)
      assert_true(dx[b] == 2.0 * x[b]);
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_batched_matches_scalar),
      cmocka_unit_test(test_grad_accumulates),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("smoke", tests, NULL, NULL);
}
