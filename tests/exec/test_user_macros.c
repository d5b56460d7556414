/* A file's own macros do not reach the generated code: object-like macros
 * with the short names the runtime headers give locals and parameters
 * (A, B, n, i, o, p, v, x, y: each broke the first annotated function's
 * generated code before), function-like ones (SQR, MAX, min, max), a
 * `#define real double`, and command-line ones (CMakeLists passes
 * -Dx=x_user -Dlo=lo_user). They still apply to the user's code after the
 * annotated functions (the generated text pushes, undefines and pops
 * them; user_macros_fn.c holds them). NAME_batched bit for bit against the
 * scalar function, NAME_grad against the derivative written out. */
#include "exec_util.h"

#include "../common/test_filter.h"

double um_f(double y);
void um_f_batched(size_t m, const double *y, double *r);
void um_f_grad(size_t m, const double *y, double *r, const double *d_r,
               double *d_y);
int um_after(int k);
double um_g(double z);
double um_df(double y);

static void t_macros(void **state) {
  (void)state;
  assert_true(um_after(0) == 5 && um_after(1) == 7 && um_after(2) == 4);
  assert_true(um_g(1.0) == 1.0 + 2.0 + 3.0 + 0.25 + 2.0);
  rng_t rng = {0x853c49e6748fea9bULL};
  for (size_t t = 0; t < N_TEST_NS; t++) {
    size_t m = test_ns[t];
    double *y = gp_alloc(m * 8), *r = gp_alloc(m * 8), *d = gp_alloc(m * 8);
    for (size_t e = 0; e < m; e++)
      y[e] = rng_range(&rng, -3.0, 3.0), d[e] = 0.0;
    gp_seal(y);
    um_f_batched(m, y, r);
    for (size_t e = 0; e < m; e++) {
      double want = um_f(y[e]);
      assert_memory_equal(&r[e], &want, sizeof want);
    }
    um_f_grad(m, y, NULL, NULL, d);
    for (size_t e = 0; e < m; e++)
      assert_true(fabs(d[e] - um_df(y[e])) <= 1e-12 * (1.0 + fabs(d[e])));
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(t_macros)};
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_user_macros", tests, NULL, NULL);
}
