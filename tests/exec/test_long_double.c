/* Functions declaring long double locals (R's nmath declares its sums
 * `LDOUBLE`; docs/calls.md, "Long double locals"): x87's 80-bit format
 * has no vector form, and computing it in double would change the results,
 * so each example runs the scalar function there:
 *   - ld_pd: phyper.c's shape, a helper `pdhyper` summing a series in
 *     long double, called under per-example branches: made once for each
 *     example that reaches it, in the scalar loop's order (the sequence of
 *     calls compared, not only their count);
 *   - ld_twice: two calls, one in a loop with per-example trip counts
 *     (calls counted and hashed as a multiset);
 *   - ld_choice: a call through a choice of a long double helper and an
 *     ordinary one (the ordinary one inlined, the other called per example);
 *   - ld_grad_ok: a BATCHDIFF function (_grad, _jvp, _hvp) whose
 *     derivative does not flow through the helper (BD_NODIFF input);
 *   - ld_series: pnt.c's shape, an annotated function with long double
 *     locals itself (NAME_batched calls it once per example), and ld_user,
 *     which calls it as a helper.
 * Every n of call_tally.h's ns (0, widths +-1, 40000), inputs at guard
 * pages, 1 and 2 threads: results bit for bit against the scalar
 * function, the same calls. */
#include "exec_util.h"
#include "ld_check.h"

#include "../common/test_filter.h"

#include <batchdiff/batchdiff_rt.h>

static uint64_t bits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

/* The order of pdhyper's calls: one hash per call, in order. */
#define SEQ_MAX 50000
typedef struct {
  size_t n;
  uint64_t h[SEQ_MAX];
} seq_t;
static seq_t seq;

static double pdhyper(double x, double NR, double NB, double n, int log_p) {
  long double sum = 0;
  long double term = 1;
  uint64_t v = bits(x) ^ mix(bits(NR)) ^ mix(mix(bits(NB))) ^
               mix(bits(n) + (uint64_t)log_p);
  record(1, v);
  if (seq.n < SEQ_MAX)
    seq.h[seq.n++] = v;
  /* (R's loop, bounded: x-- is x itself for huge x.) */
  for (int i = 0; i < 2000 && x > 0 && term >= DBL_EPSILON * sum; i++) {
    term *= x * (NB - n + x) / (n + 1 - x) / (NR + 1 - x);
    sum += term;
    x--;
  }
  double ss = (double)sum;
  return log_p ? log1p(ss) : 1 + ss;
}

BD_BATCH double ld_pd(double x, double NR, double NB, double n, int log_p) {
  if (isnan(x) || isnan(NR) || isnan(NB) || isnan(n))
    return x + NR + NB + n;
  x = floor(x + 1e-7);
  if (NR < 0 || NB < 0 || n < 0 || n > NR + NB)
    return NAN;
  if (x * (NR + NB) > n * NR) {
    double oldNB = NB;
    NB = NR;
    NR = oldNB;
    x = n - x - 1;
  }
  if (x < 0 || x < n - NB)
    return 0.0;
  if (x >= NR || x >= n)
    return 1.0;
  return pdhyper(x, NR, NB, n, log_p) * 0.5;
}

BD_BATCH double ld_twice(double x, int k) {
  double acc = 0;
  for (int i = 0; i < k; i++)
    acc += pdhyper(x + i, 40.0, 25.0, 30.0, i & 1);
  return acc + pdhyper(x, 10.0, 12.0, 8.0, 0);
}

static double plain(double x, double NR, double NB, double n, int log_p) {
  return x * NR - NB / (n + 1.5) + log_p;
}

BD_BATCH double ld_choice(double x, int k) {
  double (*f)(double, double, double, double, int) = k > 1 ? pdhyper : plain;
  return f(x, 30.0, 20.0, 12.0, k & 1) + 1.0;
}

/* The helper's result is a constant for the derivatives (BD_NODIFF input):
 * only `y * y` is differentiated. */
BATCHDIFF BD_JVP BD_HVP double ld_grad_ok(double y, BD_NODIFF double x, int k) {
  return y * y + pdhyper(x, 20.0, 30.0, 10.0 + k, 0);
}

BD_BATCH double ld_series(double t, double del, int itrmax) {
  long double geven, godd, p, q, s, xeven, xodd;
  double tnc = 0;
  int it;
  if (!(t > 0) || !(del > 0) || itrmax < 1)
    return 0.0;
  double x = t * t / (t * t + 10.0);
  double lambda = del * del;
  p = .5 * exp(-.5 * lambda);
  q = 0.797884560802865355879892119869 * p * del;
  s = .5 - p;
  if (s < 1e-7)
    s = -0.5 * expm1(-0.5 * lambda);
  double a = .5, b = 5.0;
  xodd = x * 0.75;
  godd = 2. * sqrt(x) * (1 - x);
  xeven = 1. - x;
  geven = b * x * xeven;
  tnc = (double)(p * xodd + q * xeven);
  for (it = 1; it <= itrmax; it++) {
    a += 1.;
    xodd -= godd;
    xeven -= geven;
    godd *= x * (a + b - 1.) / a;
    geven *= x * (a + b - .5) / (a + .5);
    p *= lambda / (2 * it);
    q *= lambda / (2 * it + 1);
    tnc += (double)(p * xodd + q * xeven);
    s -= p;
    if (s < -1.e-10 || fabs((double)(2 * s * (xodd - godd))) < 1e-12)
      break;
  }
  return tnc + (double)s;
}

/* ld_series as a helper of another annotated function, in a branch. */
BD_BATCH double ld_user(double t, double del) {
  if (t > 10.0)
    return t - del;
  return 2.0 * ld_series(t, del, 200) - 1.0;
}

/* ---- checks ------------------------------------------------------------- */

static double gen_cnt(rng_t *r) {
  switch (rng_below(r, 6)) {
  case 0:
    return gen_d(r);
  case 1:
    return (double)rng_below(r, 5);
  default:
    return floor(rng_range(r, 0.0, 60.0));
  }
}

static void same_seq(const char *what, size_t n, int th, const seq_t *want) {
  if (seq.n != want->n ||
      memcmp(seq.h, want->h, want->n * sizeof want->h[0]) != 0) {
    size_t k = 0;
    while (k < seq.n && k < want->n && seq.h[k] == want->h[k])
      k++;
    print_error("%s n=%zu threads=%d: %zu calls, want %zu; first "
                "difference at call %zu\n",
                what, n, th, seq.n, want->n, k);
    fail();
  }
}

static void t_pd(void **state) {
  (void)state;
  rng_t rng = {name_seed("ld_pd")};
  static seq_t want_seq;
  uint64_t ran = 0;
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *nr = gp_alloc(n * 8), *nb = gp_alloc(n * 8);
    double *m = gp_alloc(n * 8), *r = gp_alloc(n * 8), *w = gp_alloc(n * 8);
    int *lg = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      x[e] = gen_cnt(&rng), nr[e] = gen_cnt(&rng), nb[e] = gen_cnt(&rng);
      m[e] = gen_cnt(&rng), lg[e] = rng_below(&rng, 2);
    }
    gp_seal(x);
    gp_seal(nr);
    gp_seal(nb);
    gp_seal(m);
    gp_seal(lg);
    take();
    seq.n = 0;
    for (size_t e = 0; e < n; e++)
      w[e] = ld_pd(x[e], nr[e], nb[e], m[e], lg[e]);
    tally want = take();
    want_seq = seq;
    ran += want.calls;
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      seq.n = 0;
      ld_pd_batched(n, x, nr, nb, m, lg, r);
      same_run("ld_pd_batched", n, th, want, r, w);
      same_seq("ld_pd_batched", n, th, &want_seq);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
  if (ran < 2000) {
    print_error("ld_pd: the helper ran only %" PRIu64 " times\n", ran);
    fail();
  }
}

static void t_twice(void **state) {
  (void)state;
  rng_t rng = {name_seed("ld_twice")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *w = gp_alloc(n * 8);
    double *r2 = gp_alloc(n * 8), *w2 = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int)), *k2 = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++)
      x[e] = gen_cnt(&rng), k[e] = rng_below(&rng, 7),
      k2[e] = rng_below(&rng, 4);
    gp_seal(x);
    gp_seal(k);
    gp_seal(k2);
    take();
    for (size_t e = 0; e < n; e++)
      w[e] = ld_twice(x[e], k[e]);
    tally want = take();
    for (size_t e = 0; e < n; e++)
      w2[e] = ld_choice(x[e], k2[e]);
    tally want2 = take();
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      ld_twice_batched(n, x, k, r);
      same_run("ld_twice_batched", n, th, want, r, w);
      ld_choice_batched(n, x, k2, r2);
      same_run("ld_choice_batched", n, th, want2, r2, w2);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

static void t_grad(void **state) {
  (void)state;
  rng_t rng = {name_seed("ld_grad_ok")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *y = gp_alloc(n * 8), *x = gp_alloc(n * 8), *ty = gp_alloc(n * 8);
    double *r = gp_alloc(n * 8), *w = gp_alloc(n * 8), *dy = gp_alloc(n * 8);
    double *jv = gp_alloc(n * 8), *hy = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      y[e] = rng_range(&rng, -3, 3), x[e] = gen_cnt(&rng);
      ty[e] = rng_range(&rng, -2, 2), k[e] = rng_below(&rng, 5);
    }
    gp_seal(y);
    gp_seal(x);
    gp_seal(ty);
    gp_seal(k);
    take();
    for (size_t e = 0; e < n; e++)
      w[e] = ld_grad_ok(y[e], x[e], k[e]);
    tally want = take();
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      ld_grad_ok_batched(n, y, x, k, r);
      same_run("ld_grad_ok_batched", n, th, want, r, w);
      memset(dy, 0, n * 8);
      ld_grad_ok_grad(n, y, x, k, r, NULL, dy);
      same_run("ld_grad_ok_grad", n, th, want, r, w);
      same_deriv("ld_grad_ok_grad's d_y", n, th, dy, 2, y, NULL, 0);
      ld_grad_ok_jvp(n, y, x, k, ty, r, jv);
      same_run("ld_grad_ok_jvp", n, th, want, r, w);
      same_deriv("ld_grad_ok_jvp's tangent", n, th, jv, 2, y, ty, 0);
      memset(dy, 0, n * 8);
      memset(hy, 0, n * 8);
      ld_grad_ok_hvp(n, y, x, k, ty, r, NULL, dy, hy);
      same_run("ld_grad_ok_hvp", n, th, want, r, w);
      same_deriv("ld_grad_ok_hvp's d_y", n, th, dy, 2, y, NULL, 0);
      same_deriv("ld_grad_ok_hvp's h_y", n, th, hy, 2, ty, NULL, 0);
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

static void t_series(void **state) {
  (void)state;
  rng_t rng = {name_seed("ld_series")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *t = gp_alloc(n * 8), *d = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *w = gp_alloc(n * 8), *r2 = gp_alloc(n * 8), *w2 = gp_alloc(n * 8);
    int *it = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      t[e] = rng_below(&rng, 8) ? rng_range(&rng, 0.0, 20.0) : gen_d(&rng);
      d[e] = rng_below(&rng, 8) ? rng_range(&rng, 0.0, 30.0) : gen_d(&rng);
      it[e] = rng_below(&rng, 1000);
    }
    gp_seal(t);
    gp_seal(d);
    gp_seal(it);
    for (size_t e = 0; e < n; e++) {
      w[e] = ld_series(t[e], d[e], it[e]);
      w2[e] = ld_user(t[e], d[e]);
    }
    for (int th = 1; th <= 2; th++) {
      bd_set_num_threads(th);
      ld_series_batched(n, t, d, it, r);
      ld_user_batched(n, t, d, r2);
      for (size_t e = 0; e < n; e++) {
        same("ld_series", n, th, e, r[e], w[e]);
        same("ld_user", n, th, e, r2[e], w2[e]);
      }
    }
    bd_set_num_threads(0);
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_pd),
      cmocka_unit_test(t_twice),
      cmocka_unit_test(t_grad),
      cmocka_unit_test(t_series),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_long_double", tests, NULL, NULL);
}
