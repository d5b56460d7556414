/* Local arrays passed to functions computing in long double (docs/calls.md,
 * "Long double locals"): a helper taking a pointer to const gets, per
 * example, a copy of the lane's elements of the caller's local array.
 *   - la_sum: R's pgamma.c logspace_sum(const double *logx, int n) as
 *     written (an LDOUBLE sum of expl), called with a local array under a
 *     per-example branch and count;
 *   - la_loop: an int and a double array filled in a loop with
 *     per-example trips, passed together, the call in that loop;
 *   - la_grad: a BATCHDIFF function whose derivative avoids the call (its
 *     array holds BD_NODIFF inputs): _grad and _jvp vs the closed form;
 *   - la_pure: a helper that records nothing (its scalar run has no effect
 *     beyond its result, so the calls may run on the runtime's threads),
 *     two arrays, the second call after the array changed: bits for 1, 2
 *     and 3 threads on batches past BD_PARALLEL_MIN_N;
 *   - la_opt: a helper whose long double is under `if (s != NULL)`, passed
 *     NULL: inlined, the side folding away (no error);
 *   - la_null: a helper computing in long double passed NULL for its
 *     optional pointers (to const and not), directly and through an
 *     inlined helper's parameter its call passed NULL: each example's call
 *     gets the null pointers;
 *   - la_passon: an inlined helper whose pointer parameter is bound to the
 *     caller's local array passes it on whole to such a helper (a copy of
 *     the lane's elements), under a per-example branch.
 * The other helpers record what they read (counted and hashed): the same
 * calls as the scalar loop; every n of call_tally.h, 1 and 2 threads; bits
 * vs the scalar function. */
#include "ld_check.h"

#include "../common/test_filter.h"

#include <batchdiff/batchdiff_rt.h>

static uint64_t bits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

static double logspace_add(double logx, double logy) {
  return fmax(logx, logy) + log1p(exp(-fabs(logx - logy)));
}

static double logspace_sum(const double *logx, int n) {
  uint64_t v = (uint64_t)n;
  for (int i = 0; i < n; i++)
    v = mix(v ^ bits(logx[i]));
  record(5, v);
  if (n == 0)
    return -INFINITY;
  if (n == 1)
    return logx[0];
  if (n == 2)
    return logspace_add(logx[0], logx[1]);
  int i;
  double Mx = logx[0];
  for (i = 1; i < n; i++)
    if (Mx < logx[i])
      Mx = logx[i];
  long double s = (long double)0.;
  for (i = 0; i < n; i++)
    s += expl(logx[i] - Mx);
  return Mx + (double)logl(s);
}

BD_BATCH double la_sum(double a, double b, double c, int n) {
  double lx[4] = {a, b, c, a - b};
  if (n > 4)
    return a + b;
  return logspace_sum(lx, n) - 1.0;
}

static double wsum(const int *k, const double *w, int n) {
  uint64_t v = (uint64_t)n;
  for (int i = 0; i < n; i++)
    v = mix(v ^ bits(w[i]) ^ ((uint64_t)k[i] << 7));
  record(6, v);
  long double s = 0;
  for (int i = 0; i < n; i++)
    s += (long double)w[i] * k[i];
  return (double)s;
}

BD_BATCH double la_loop(double x, int m) {
  int ks[6] = {0};
  double ws[6] = {0};
  double acc = 0;
  for (int i = 0; i < m && i < 6; i++) {
    ks[i] = 2 * i - 3;
    ws[i] = x / (i + 1);
    acc += wsum(ks, ws, i + 1);
  }
  return acc;
}

BATCHDIFF BD_JVP double la_grad(double y, BD_NODIFF double a,
                                BD_NODIFF double b) {
  double lx[3] = {a, b, 0.5};
  return y * y + logspace_sum(lx, 3);
}

static double lse3(const double *v, const int *w) {
  long double s = 0;
  for (int i = 0; i < 3; i++)
    s += w[i] * expl(v[i]);
  return (double)logl(s);
}

BD_BATCH double la_pure(double a, double b, int k) {
  double v[3] = {a, b, a * b};
  int w[3] = {1, k, 2};
  double r = 0;
  if (k > 0)
    r = lse3(v, w);
  v[2] = r;
  w[0] = k - 1;
  if (k > 2)
    r += lse3(v, w);
  return r;
}

/* A helper whose long double is under a test of its pointer, which the
 * call passes NULL: not a call made per example (no local array) but
 * inlined, the test folding, as before the error for other pointers
 * (long-double-helper-pointer). */
static double ld_opt(double x, double *s) {
  if (s != NULL) {
    long double t = x;
    *s = (double)(t * t);
  }
  return x * 0.5 + 1.0;
}
BD_BATCH double la_opt(double x) { return ld_opt(x, NULL) * x; }

/* A helper computing in long double whose pointers are optional (R's
 * lgammafn_sign shape): NULL is passed as it is, per example. */
static double ld_null(double x, int *sgn, const double *w) {
  record(7, bits(x) ^ (sgn ? 1u : 0u) ^ (w ? 2u : 0u));
  long double t = (long double)x * x;
  if (w != NULL)
    t *= w[0];
  if (sgn != NULL)
    *sgn = x < 0 ? -1 : 1;
  return (double)(t + 0.25L);
}
static double ld_null_mid(double x, int *sgn) {
  return ld_null(x + 1.0, sgn, NULL) * 2.0;
}
BD_BATCH double la_null(double x) {
  double r = ld_null(x, NULL, NULL);
  if (x > 0.5)
    r += ld_null_mid(x, NULL);
  return r;
}

/* A local array passed to an inlined helper, which passes it on whole. */
static double ld_sum3(const double *v) {
  record(8, bits(v[0]) ^ bits(v[1]) * 3 ^ bits(v[2]) * 5);
  long double s = 0;
  for (int i = 0; i < 3; i++)
    s += (long double)v[i] * v[i];
  return (double)s;
}
static double ld_mid(double x, const double *v) {
  return ld_sum3(v) + v[0] * x;
}
BD_BATCH double la_passon(double x, double y) {
  double a[3] = {x, y, x * y};
  double r = 0.0;
  if (x > y)
    r = ld_mid(x, a);
  a[1] = 1.0;
  return r + ld_mid(y, a);
}

/* ---- checks ------------------------------------------------------------- */

static double gen_l(rng_t *r) {
  return rng_below(r, 16) ? rng_range(r, -40.0, 5.0) : gen_d(r);
}

static void t_sum(void **state) {
  (void)state;
  rng_t rng = {name_seed("la_sum")};
  uint64_t ran = 0;
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *a = gp_alloc(n * 8), *b = gp_alloc(n * 8), *c = gp_alloc(n * 8);
    double *r = gp_alloc(n * 8), *w = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      a[e] = gen_l(&rng), b[e] = gen_l(&rng), c[e] = gen_l(&rng);
      k[e] = rng_below(&rng, 6);
    }
    gp_seal(a);
    gp_seal(b);
    gp_seal(c);
    gp_seal(k);
    take();
    for (size_t e = 0; e < n; e++)
      w[e] = la_sum(a[e], b[e], c[e], k[e]);
    tally want = take();
    ran += want.calls;
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      la_sum_batched(n, a, b, c, k, r);
      same_run("la_sum_batched", n, th, want, r, w);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
  if (ran < 1000) {
    print_error("la_sum: the helper ran only %" PRIu64 " times\n", ran);
    fail();
  }
}

static void t_loop(void **state) {
  (void)state;
  rng_t rng = {name_seed("la_loop")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *w = gp_alloc(n * 8);
    int *m = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++)
      x[e] = rng_range(&rng, -3.0, 3.0), m[e] = rng_below(&rng, 8);
    gp_seal(x);
    gp_seal(m);
    take();
    for (size_t e = 0; e < n; e++)
      w[e] = la_loop(x[e], m[e]);
    tally want = take();
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      la_loop_batched(n, x, m, r);
      same_run("la_loop_batched", n, th, want, r, w);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

static void t_grad(void **state) {
  (void)state;
  rng_t rng = {name_seed("la_grad")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *y = gp_alloc(n * 8), *a = gp_alloc(n * 8), *b = gp_alloc(n * 8);
    double *ty = gp_alloc(n * 8), *r = gp_alloc(n * 8), *w = gp_alloc(n * 8);
    double *dy = gp_alloc(n * 8), *jv = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      y[e] = rng_range(&rng, -3, 3), a[e] = gen_l(&rng), b[e] = gen_l(&rng);
      ty[e] = rng_range(&rng, -2, 2);
    }
    gp_seal(y);
    gp_seal(a);
    gp_seal(b);
    gp_seal(ty);
    take();
    for (size_t e = 0; e < n; e++)
      w[e] = la_grad(y[e], a[e], b[e]);
    tally want = take();
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      la_grad_batched(n, y, a, b, r);
      same_run("la_grad_batched", n, th, want, r, w);
      memset(dy, 0, n * 8);
      la_grad_grad(n, y, a, b, r, NULL, dy);
      same_run("la_grad_grad", n, th, want, r, w);
      same_deriv("la_grad_grad's d_y", n, th, dy, 2, y, NULL, 0);
      la_grad_jvp(n, y, a, b, ty, r, jv);
      same_run("la_grad_jvp", n, th, want, r, w);
      same_deriv("la_grad_jvp's tangent", n, th, jv, 2, y, ty, 0);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

static void t_opt(void **state) {
  (void)state;
  rng_t rng = {name_seed("la_opt")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      x[e] = rng_range(&rng, -3.0, 3.0);
    gp_seal(x);
    la_opt_batched(n, x, r);
    for (size_t e = 0; e < n; e++)
      same("la_opt", n, 1, e, r[e], la_opt(x[e]));
    gp_reset();
  }
}

static void t_null(void **state) {
  (void)state;
  rng_t rng = {name_seed("la_null")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *w = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      x[e] = rng_range(&rng, -3.0, 3.0);
    gp_seal(x);
    take();
    for (size_t e = 0; e < n; e++)
      w[e] = la_null(x[e]);
    tally want = take();
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      la_null_batched(n, x, r);
      same_run("la_null_batched", n, th, want, r, w);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

static void t_passon(void **state) {
  (void)state;
  rng_t rng = {name_seed("la_passon")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *w = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      x[e] = gen_l(&rng), y[e] = gen_l(&rng);
    gp_seal(x);
    gp_seal(y);
    take();
    for (size_t e = 0; e < n; e++)
      w[e] = la_passon(x[e], y[e]);
    tally want = take();
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      la_passon_batched(n, x, y, r);
      same_run("la_passon_batched", n, th, want, r, w);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

static void t_pure(void **state) {
  (void)state;
  enum { N = 3 * BD_PARALLEL_MIN_N / 2 + 5 };
  rng_t rng = {name_seed("la_pure")};
  double *a = malloc(N * 8), *b = malloc(N * 8), *r = malloc(N * 8);
  double *w = malloc(N * 8);
  int *k = malloc(N * sizeof(int));
  for (size_t e = 0; e < N; e++)
    a[e] = gen_l(&rng), b[e] = gen_l(&rng), k[e] = rng_below(&rng, 6);
  for (size_t e = 0; e < N; e++)
    w[e] = la_pure(a[e], b[e], k[e]);
  for (int th = 1; th <= 3; th++) {
    bd_set_num_threads(th);
    for (int calls = 0; calls < 4; calls++) {
      la_pure_batched(N, a, b, k, r);
      for (size_t e = 0; e < N; e++)
        same("la_pure", N, th, e, r[e], w[e]);
    }
  }
  bd_set_num_threads(0);
  free(a), free(b), free(r), free(w), free(k);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_sum),    cmocka_unit_test(t_loop),
      cmocka_unit_test(t_grad),   cmocka_unit_test(t_pure),
      cmocka_unit_test(t_opt),    cmocka_unit_test(t_null),
      cmocka_unit_test(t_passon),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_long_double_arrays", tests, NULL,
                                     NULL);
}
