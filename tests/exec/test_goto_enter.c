/* Forward gotos into blocks whose statements from the label on fall
 * through (docs/subset.md, goto): the lanes that took the goto enter the
 * ifs on the way to the label without evaluating their conditions, skip
 * the statements before it, and go on after the if with the others.
 *   - e_round: cephes round.c as found (`goto rndup;` into
 *     `if (r == 0.5) { r = ...; if (r == 1.0) { rndup: y += 1.0; } }`);
 *   - e_else: into an else, past statements there;
 *   - e_loop: out of a loop and into a block after it;
 *   - e_masked: the conditions on the way read a[k] with k out of range
 *     for the lanes that jumped (the input ends at a guard page);
 *   - e_tail: into a block whose statements leave by a goto to a label of
 *     the if around it (what the copies of Tails cannot do);
 *   - e_two: two labels entered through one else-if chain, several gotos.
 * NAME_batched bit for bit against the scalar function (the same
 * operations, no math calls but sqrt and floor), NAME_grad against
 * Richardson-extrapolated central differences, with a minimum of points
 * checked. */
#include "exec_fd.h"
#include "exec_util.h"

#include "../common/test_filter.h"

BATCHDIFF double e_round(double x) {
  double y, r;
  y = floor(x);
  r = x - y;
  if (r > 0.5)
    goto rndup;
  if (r == 0.5) {
    r = y - 2.0 * floor(0.5 * y);
    if (r == 1.0) {
    rndup:
      y += 1.0;
    }
  }
  return (y);
}

BATCHDIFF double e_else(double x) {
  double y = x * x;
  if (x < -5.0)
    goto neg;
  y = y * 0.5 + x;
  if (x > 0.0) {
    y = sqrt(y + 1.0);
  } else {
    y = -y;
    y = y * y;
  neg:
    y = y * 0.25 - x;
  }
  return y * x;
}

BATCHDIFF double e_loop(double x, int n) {
  double s = 0.0;
  int i;
  for (i = 0; i < n; i++) {
    s += x * i;
    if (s > 10.0)
      goto big;
  }
  s = s * 0.5;
  if (s < 0.0) {
    s = -s;
  big:
    s = s * s + x;
  }
  return s + 1.0;
}

BATCHDIFF double e_masked(const double a[4], int k, double x) {
  if (k < 0 || k > 3)
    goto skip;
  x = x * 2.0;
  if (a[k] > x) {
    x = a[k] * x;
    if (a[3 - k] < 0.0) {
      x -= a[3 - k];
    skip:
      x = x + 1.0;
    }
  }
  return x;
}

BATCHDIFF double e_tail(double x) {
  if (x < 0.0)
    goto in;
  if (x > 5.0) {
    {
    in:
      x = x * 3.0;
      goto out;
    }
    x = 2.0;
  out:
    x += 3.0;
  }
  return x * x;
}

BATCHDIFF double e_two(double x, double w) {
  double t = w;
  if (x > 8.0)
    goto hi;
  if (x < -8.0)
    goto lo;
  t = t * x;
  if (x > 7.0)
    goto hi;
  if (t > 1.0) {
    t = t - 1.0;
  } else if (t < -1.0) {
    t = t + w;
  lo:
    t = t * 0.5 + x;
  } else {
    t = t * t;
  hi:
    t = t * w - x;
  }
  return t;
}

/* ---- tests ------------------------------------------------------------- */

static const size_t ns[] = {0,  1,      WF - 1,     WF,         WF + 1, WD - 1,
                            WD, WD + 1, 2 * WF + 3, 2 * WD + 3, 1000,   4099};
#define NNS (sizeof ns / sizeof ns[0])

static void same_bits(const char *what, size_t e, double got, double want) {
  if (memcmp(&got, &want, sizeof got) != 0) {
    print_error("%s example %zu: %.17g, want %.17g\n", what, e, got, want);
    fail();
  }
}

/* Values around the thresholds the functions branch on. */
static double gen_x(rng_t *r, double lo, double hi) {
  static const double edge[] = {0.5,  1.5, 2.5, -0.5, -1.5, 0.0,  -0.0, 5.0,
                                -5.0, 7.0, 8.0, -8.0, 1.0,  -1.0, 10.0};
  if (rng_below(r, 6) == 0)
    return edge[rng_below(r, (int)(sizeof edge / sizeof edge[0]))];
  if (rng_below(r, 4) == 0)
    return floor(rng_range(r, lo, hi)) + 0.5 * (double)rng_below(r, 2);
  return rng_range(r, lo, hi);
}

typedef double (*f1)(double);
static double call1(double x, const void *f) { return ((f1)f)(x); }

static void
run1(const char *what, f1 f, void (*fb)(size_t, const double *, double *),
     void (*fg)(size_t, const double *, double *, const double *, double *),
     double lo, double hi, size_t min_fd) {
  rng_t rng = {0x9E3779B97F4A7C15ULL * 7};
  fd_count fc = {0, 8};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *d = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      x[e] = gen_x(&rng, lo, hi), d[e] = 0.0;
    gp_seal(x);
    fb(n, x, r);
    fg(n, x, r2, NULL, d);
    for (size_t e = 0; e < n; e++) {
      double want = f(x[e]);
      same_bits(what, e, r[e], want);
      same_bits(what, e, r2[e], want);
      fd_check(&fc, what, call1, (const void *)f, x[e], d[e]);
    }
    gp_reset();
  }
  fd_expect(&fc, what, min_fd);
}

static void t_round(void **state) {
  (void)state;
  run1("e_round", e_round, e_round_batched, e_round_grad, -20.0, 20.0, 0);
  /* round half to even, as the scalar function has it */
  double x[6] = {0.5, 1.5, 2.5, -0.5, -1.5, 2.7}, r[6];
  e_round_batched(6, x, r);
  double want[6] = {0.0, 2.0, 2.0, -0.0, -2.0, 3.0};
  for (int i = 0; i < 6; i++)
    same_bits("e_round", (size_t)i, r[i] + 0.0, want[i] + 0.0);
}

static void t_else(void **state) {
  (void)state;
  run1("e_else", e_else, e_else_batched, e_else_grad, -10.0, 10.0, 3000);
}

static void t_tail(void **state) {
  (void)state;
  run1("e_tail", e_tail, e_tail_batched, e_tail_grad, -10.0, 10.0, 3000);
}

static double loop_at(double x, const void *n) {
  return e_loop(x, *(const int *)n);
}

static void t_loop(void **state) {
  (void)state;
  rng_t rng = {0x9E3779B97F4A7C15ULL * 11};
  fd_count fc = {0, 8};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *d = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++)
      x[e] = gen_x(&rng, -3.0, 3.0), k[e] = rng_below(&rng, 9), d[e] = 0.0;
    gp_seal(x);
    gp_seal(k);
    e_loop_batched(n, x, k, r);
    for (size_t e = 0; e < n; e++)
      same_bits("e_loop", e, r[e], e_loop(x[e], k[e]));
    e_loop_grad(n, x, k, NULL, NULL, d);
    for (size_t e = 0; e < n; e++)
      fd_check(&fc, "e_loop", loop_at, &k[e], x[e], d[e]);
    gp_reset();
  }
  fd_expect(&fc, "e_loop", 3000);
}

struct masked_at {
  const double *a;
  int k;
};
static double masked_at(double x, const void *c) {
  const struct masked_at *m = c;
  return e_masked(m->a, m->k, x);
}

/* k out of range for about a third of the examples, among them the last:
 * a[k] and a[3 - k] there would read the guard page after the input. */
static void t_masked(void **state) {
  (void)state;
  rng_t rng = {0x9E3779B97F4A7C15ULL * 13};
  fd_count fc = {0, 8};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *a = gp_alloc(n * 4 * 8), *x = gp_alloc(n * 8);
    double *r = gp_alloc(n * 8), *d = gp_alloc(n * 8), *da = gp_alloc(n * 32);
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      for (int j = 0; j < 4; j++)
        a[e * 4 + j] = gen_x(&rng, -4.0, 4.0), da[e * 4 + j] = 0.0;
      x[e] = gen_x(&rng, -3.0, 3.0), d[e] = 0.0;
      k[e] = rng_below(&rng, 6) - 1; /* -1 .. 4 */
      if (e + 1 == n)
        k[e] = 4;
    }
    gp_seal(a);
    gp_seal(x);
    gp_seal(k);
    e_masked_batched(n, a, 4, k, x, r);
    for (size_t e = 0; e < n; e++)
      same_bits("e_masked", e, r[e], e_masked(a + 4 * e, k[e], x[e]));
    e_masked_grad(n, a, 4, k, x, NULL, NULL, da, 4, d);
    for (size_t e = 0; e < n; e++) {
      struct masked_at m = {a + 4 * e, k[e]};
      fd_check(&fc, "e_masked", masked_at, &m, x[e], d[e]);
      /* the jumped lanes read no a: their a's gradient is zero */
      if (k[e] < 0 || k[e] > 3)
        for (int j = 0; j < 4; j++)
          assert_true(da[e * 4 + j] == 0.0);
    }
    gp_reset();
  }
  fd_expect(&fc, "e_masked", 3000);
}

struct two_at {
  double w;
};
static double two_at(double x, const void *c) {
  return e_two(x, ((const struct two_at *)c)->w);
}

static void t_two(void **state) {
  (void)state;
  rng_t rng = {0x9E3779B97F4A7C15ULL * 17};
  fd_count fc = {0, 8};
  size_t paths[4] = {0};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *w = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *dx = gp_alloc(n * 8), *dw = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      x[e] = gen_x(&rng, -10.0, 10.0), w[e] = gen_x(&rng, -2.0, 2.0),
      dx[e] = dw[e] = 0.0;
    gp_seal(x);
    gp_seal(w);
    e_two_batched(n, x, w, r);
    for (size_t e = 0; e < n; e++) {
      same_bits("e_two", e, r[e], e_two(x[e], w[e]));
      paths[x[e] > 8.0 ? 0 : x[e] < -8.0 ? 1 : x[e] > 7.0 ? 2 : 3]++;
    }
    e_two_grad(n, x, w, NULL, NULL, dx, dw);
    for (size_t e = 0; e < n; e++) {
      struct two_at c = {w[e]};
      fd_check(&fc, "e_two", two_at, &c, x[e], dx[e]);
    }
    gp_reset();
  }
  for (int p = 0; p < 4; p++)
    assert_true(paths[p] > 100);
  fd_expect(&fc, "e_two", 3000);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_round), cmocka_unit_test(t_else),
      cmocka_unit_test(t_loop),  cmocka_unit_test(t_masked),
      cmocka_unit_test(t_tail),  cmocka_unit_test(t_two),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_goto_enter", tests, NULL, NULL);
}
