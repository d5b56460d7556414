/* Long double in expressions only, no long double local (docs/calls.md,
 * "Long double locals"): such a function computes in long double, so it
 * runs per example as the scalar function, as one with such a local does.
 *   - le_fma: `(double)((long double)x * y + z)` under a per-example branch
 *     (annotated itself: NAME_batched calls it per example);
 *   - le_acc: `s += 1.0L * x / (i + 1)` with s a double, per-example trips;
 *   - le_dot: a helper `(long double)a * b + (long double)c * d` called
 *     under a per-example branch (calls counted and hashed);
 *   - le_mix: helpers reading a const long double global and calling expl;
 *   - le_generic: glibc's type-generic shape (`sizeof (x) == sizeof (double)
 *     ? ... : long double ...`): its long double side is never taken, but
 *     the function is run per example all the same;
 *   - le_grad: a BATCHDIFF function whose derivative avoids the helper
 *     (BD_NODIFF input): _grad and _jvp against the closed form.
 * Every n of call_tally.h, 1 and 2 threads: bits vs the scalar function. */
#include "exec_util.h"
#include "ld_check.h"

#include "../common/test_filter.h"

#include <batchdiff/batchdiff_rt.h>

static uint64_t bits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

BD_BATCH double le_fma(double x, double y, double z) {
  if (x > 0)
    return (double)((long double)x * y + z);
  return x * y - z;
}

BD_BATCH double le_acc(double x, int k) {
  double s = 0;
  for (int i = 0; i < k; i++)
    s += 1.0L * x / (i + 1);
  return s;
}

static double ldot(double a, double b, double c, double d) {
  record(3, bits(a) ^ mix(bits(b)) ^ mix(mix(bits(c))) ^ bits(d));
  return (double)((long double)a * b + (long double)c * d);
}

BD_BATCH double le_dot(double x, double y) {
  double r = x - y;
  if (x > y)
    r = ldot(x, y, -y, x + 0.1) * 2;
  return r;
}

static const long double LD_E = 2.718281828459045235360287471352662498L;
static double ld_scale(double x) {
  record(4, bits(x));
  return (double)(x * LD_E);
}
static double lexp(double x) { return (double)(expl(x) - 1); }

BD_BATCH double le_mix(double x) {
  if (x < 1)
    return ld_scale(x) + 0.5;
  return lexp(x / 8) - x;
}

BD_BATCH double le_generic(double x) {
  double r = sizeof(x) == sizeof(double) ? x * 3 : (double)((long double)x * 3);
  return r + 1;
}

BATCHDIFF BD_JVP double le_grad(double y, BD_NODIFF double x) {
  return 3 * y * y + ldot(x, x, 1.0, x);
}

/* ---- checks ------------------------------------------------------------- */

static double gen_x(rng_t *r) {
  return rng_below(r, 16) ? rng_range(r, -3.0, 3.0) : gen_d(r);
}

static void t_fma(void **state) {
  (void)state;
  rng_t rng = {name_seed("le_fma")};
  size_t differ = 0;
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *z = gp_alloc(n * 8);
    double *r = gp_alloc(n * 8), *w = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      x[e] = gen_x(&rng), y[e] = gen_x(&rng), z[e] = gen_x(&rng);
    gp_seal(x);
    gp_seal(y);
    gp_seal(z);
    for (size_t e = 0; e < n; e++) {
      w[e] = le_fma(x[e], y[e], z[e]);
      /* (That the long double matters: the double expression, its product
       * rounded, differs.) */
      volatile double p = x[e] * y[e];
      differ += x[e] > 0 && w[e] != p + z[e];
    }
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      le_fma_batched(n, x, y, z, r);
      for (size_t e = 0; e < n; e++)
        same("le_fma", n, th, e, r[e], w[e]);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
  if (differ < 100) {
    print_error("le_fma: long double changed only %zu results\n", differ);
    fail();
  }
}

static void t_acc(void **state) {
  (void)state;
  rng_t rng = {name_seed("le_acc")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *w = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8), *w2 = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++)
      x[e] = gen_x(&rng), k[e] = rng_below(&rng, 50);
    gp_seal(x);
    gp_seal(k);
    for (size_t e = 0; e < n; e++) {
      w[e] = le_acc(x[e], k[e]);
      w2[e] = le_generic(x[e]);
    }
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      le_acc_batched(n, x, k, r);
      le_generic_batched(n, x, r2);
      for (size_t e = 0; e < n; e++) {
        same("le_acc", n, th, e, r[e], w[e]);
        same("le_generic", n, th, e, r2[e], w2[e]);
      }
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

static void t_helpers(void **state) {
  (void)state;
  rng_t rng = {name_seed("le_dot")};
  uint64_t ran = 0;
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *w = gp_alloc(n * 8), *r2 = gp_alloc(n * 8), *w2 = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      x[e] = gen_x(&rng), y[e] = gen_x(&rng);
    gp_seal(x);
    gp_seal(y);
    take();
    for (size_t e = 0; e < n; e++)
      w[e] = le_dot(x[e], y[e]);
    tally want = take();
    for (size_t e = 0; e < n; e++)
      w2[e] = le_mix(x[e]);
    tally want2 = take();
    ran += want.calls + want2.calls;
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      le_dot_batched(n, x, y, r);
      same_run("le_dot_batched", n, th, want, r, w);
      le_mix_batched(n, x, r2);
      same_run("le_mix_batched", n, th, want2, r2, w2);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
  if (ran < 1000) {
    print_error("le_dot, le_mix: the helpers ran only %" PRIu64 " times\n",
                ran);
    fail();
  }
}

static void t_grad(void **state) {
  (void)state;
  rng_t rng = {name_seed("le_grad")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *y = gp_alloc(n * 8), *x = gp_alloc(n * 8), *ty = gp_alloc(n * 8);
    double *r = gp_alloc(n * 8), *w = gp_alloc(n * 8), *dy = gp_alloc(n * 8);
    double *jv = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      y[e] = rng_range(&rng, -3, 3), x[e] = gen_x(&rng);
      ty[e] = rng_range(&rng, -2, 2);
    }
    gp_seal(y);
    gp_seal(x);
    gp_seal(ty);
    take();
    for (size_t e = 0; e < n; e++)
      w[e] = le_grad(y[e], x[e]);
    tally want = take();
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      le_grad_batched(n, y, x, r);
      same_run("le_grad_batched", n, th, want, r, w);
      memset(dy, 0, n * 8);
      le_grad_grad(n, y, x, r, NULL, dy);
      same_run("le_grad_grad", n, th, want, r, w);
      same_deriv("le_grad_grad's d_y", n, th, dy, 6, y, NULL, 1e-15);
      le_grad_jvp(n, y, x, ty, r, jv);
      same_run("le_grad_jvp", n, th, want, r, w);
      same_deriv("le_grad_jvp's tangent", n, th, jv, 6, y, ty, 1e-15);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_fma),
      cmocka_unit_test(t_acc),
      cmocka_unit_test(t_helpers),
      cmocka_unit_test(t_grad),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_long_double_expr", tests, NULL,
                                     NULL);
}
