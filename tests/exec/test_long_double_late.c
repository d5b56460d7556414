/* Helpers with long double locals defined after the annotated functions
 * that call them (docs/calls.md, "Long double locals"), as C files are
 * written: a prototype first, the callers, then the definitions.
 *   - lt_proto: `static double lsum(double, int);` at file scope, called
 *     under per-example branches;
 *   - lt_block: a prototype inside the annotated function only (NR's
 *     block-scope prototypes), of a helper with external linkage: the
 *     generated code repeats it where the call is made;
 *   - lt_chain: an ordinary helper defined later too, calling lsum in a
 *     loop with per-example trip counts;
 *   - lt_choice: lsum as one of the functions of a call through a pointer
 *     (the other inlined);
 *   - lt_grad: a BATCHDIFF function whose derivative avoids the call
 *     (BD_NODIFF input): _grad and _jvp against the closed form.
 * The helpers run per example as the scalar function: results bit for bit
 * against the scalar loop, the same calls (counted and hashed), every n of
 * call_tally.h, 1 and 2 threads. */
#include "exec_util.h"
#include "ld_check.h"

#include "../common/test_filter.h"

#include <batchdiff/batchdiff_rt.h>

static uint64_t bits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

static double lsum(double x, int n);
static double mid(double x, int k);
static double plain(double x, int n) { return x * n - 0.25; }

BD_BATCH double lt_proto(double x, int n) {
  if (x > 1.0)
    return lsum(x, n) * 0.5;
  return x - n;
}

BD_BATCH double lt_block(double x, double y) {
  double lprod(double, double);
  double r = x + y;
  if (y < 0.5)
    r = lprod(x, y) + 1.0;
  return r;
}

BD_BATCH double lt_chain(double x, int k) { return mid(x, k) + 1.0; }

BD_BATCH double lt_choice(double x, int k) {
  double (*f)(double, int) = k > 1 ? lsum : plain;
  return f(x, k) + 1.0;
}

BATCHDIFF BD_JVP double lt_grad(double y, BD_NODIFF double x, int k) {
  return y * y + lsum(x, k);
}

/* A series summed in long double: the low bits differ from a double sum. */
static double lsum(double x, int n) {
  long double s = 0, t = 1;
  record(1, bits(x) ^ mix((uint64_t)n));
  for (int i = 1; i <= n && i < 500; i++) {
    t *= (long double)x / (i + 0.5L);
    s += t / i;
  }
  return (double)s;
}

static double mid(double x, int k) {
  double acc = 0;
  for (int i = 0; i < k; i++)
    acc += lsum(x + i, 3 + i);
  return acc;
}

double lprod(double x, double y) {
  long double p = 1;
  record(2, bits(x) ^ mix(bits(y)));
  for (int i = 0; i < 40; i++)
    p *= 1 + (long double)x * y / (i + 3);
  return (double)p;
}

/* ---- checks ------------------------------------------------------------- */

typedef double (*fn_di)(double, int);
typedef void (*bfn_di)(size_t, const double *, const int *, double *);

/* f(x, k) against f_batched: values and calls, 1 and 2 threads. */
static void check_di(const char *what, fn_di f, bfn_di fb, int kmax) {
  rng_t rng = {name_seed(what)};
  uint64_t ran = 0;
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *w = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_below(&rng, 16) ? rng_range(&rng, -1.0, 4.0) : gen_d(&rng);
      k[e] = rng_below(&rng, kmax + 1);
    }
    gp_seal(x);
    gp_seal(k);
    take();
    for (size_t e = 0; e < n; e++)
      w[e] = f(x[e], k[e]);
    tally want = take();
    ran += want.calls;
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      fb(n, x, k, r);
      same_run(what, n, th, want, r, w);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
  if (ran < 1000) {
    print_error("%s: the helper ran only %" PRIu64 " times\n", what, ran);
    fail();
  }
}

static void t_proto(void **state) {
  (void)state;
  check_di("lt_proto", lt_proto, lt_proto_batched, 60);
}
static void t_chain(void **state) {
  (void)state;
  check_di("lt_chain", lt_chain, lt_chain_batched, 5);
}
static void t_choice(void **state) {
  (void)state;
  check_di("lt_choice", lt_choice, lt_choice_batched, 30);
}

static void t_block(void **state) {
  (void)state;
  rng_t rng = {name_seed("lt_block")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *w = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -2.0, 2.0);
      y[e] = rng_below(&rng, 16) ? rng_range(&rng, -1.0, 1.0) : gen_d(&rng);
    }
    gp_seal(x);
    gp_seal(y);
    take();
    for (size_t e = 0; e < n; e++)
      w[e] = lt_block(x[e], y[e]);
    tally want = take();
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      lt_block_batched(n, x, y, r);
      same_run("lt_block_batched", n, th, want, r, w);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

static void t_grad(void **state) {
  (void)state;
  rng_t rng = {name_seed("lt_grad")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *y = gp_alloc(n * 8), *x = gp_alloc(n * 8), *ty = gp_alloc(n * 8);
    double *r = gp_alloc(n * 8), *w = gp_alloc(n * 8), *dy = gp_alloc(n * 8);
    double *jv = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      y[e] = rng_range(&rng, -3, 3), x[e] = rng_range(&rng, -1, 3);
      ty[e] = rng_range(&rng, -2, 2), k[e] = rng_below(&rng, 40);
    }
    gp_seal(y);
    gp_seal(x);
    gp_seal(ty);
    gp_seal(k);
    take();
    for (size_t e = 0; e < n; e++)
      w[e] = lt_grad(y[e], x[e], k[e]);
    tally want = take();
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      lt_grad_batched(n, y, x, k, r);
      same_run("lt_grad_batched", n, th, want, r, w);
      memset(dy, 0, n * 8);
      lt_grad_grad(n, y, x, k, r, NULL, dy);
      same_run("lt_grad_grad", n, th, want, r, w);
      same_deriv("lt_grad_grad's d_y", n, th, dy, 2, y, NULL, 0);
      lt_grad_jvp(n, y, x, k, ty, r, jv);
      same_run("lt_grad_jvp", n, th, want, r, w);
      same_deriv("lt_grad_jvp's tangent", n, th, jv, 2, y, ty, 0);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_proto), cmocka_unit_test(t_block),
      cmocka_unit_test(t_chain), cmocka_unit_test(t_choice),
      cmocka_unit_test(t_grad),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_long_double_late", tests, NULL,
                                     NULL);
}
