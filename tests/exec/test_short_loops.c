/* Short counted loops lowered as copies of their body (plugin/lower/
 * LowerUnroll.cpp, docs/loops.md "Short counted loops"), and reads of a
 * declared const array parameter moved in front of a loop or merged
 * (transforms/simplify/HoistInvariants.cpp, CommonSubexpr.cpp): Horner over
 * a coefficient parameter counting down, a 3x3 quadratic form (nested
 * loops, indices `i * 3 + j`), a loop that returns early, `unsigned`,
 * `size_t` and `!=` counters, a counter read after its loop, a switch on
 * the counter, a loop left by `break` (stays a loop) and one of 17 trips
 * (stays a loop), and a filter over a per-example length whose
 * coefficients `c[k]` are read before the loop (examples of length 0 read
 * them too: within the declared extent, guard pages after it).
 * NAME_batched against the scalar function bit for bit, NAME_grad against
 * central differences, n = 0 .. 37 examples. */
#include "exec_util.h"

#include "../common/test_filter.h"

static double sq(double a) { return a * a; }

BATCHDIFF double horner6(const double c[6], double x) {
  double s = 0.0;
  int j;
  for (j = 5; j >= 0; j--)
    s = s * x + c[j];
  for (unsigned k = 0; k < 3u; k += 2)
    s += sq(c[k]) * (double)k;
  for (size_t m = 0; m != 4; ++m) {
    double t = c[m] * x;
    if (t > 2.5)
      return s + t + j; /* j is -1 after its loop */
    s += t;
  }
  for (int q = 0; q < 4; q++) { /* break: stays a loop */
    if (c[q] < -1.5)
      break;
    s += c[q];
  }
  return s * j;
}

BATCHDIFF double qform(const double a[9], const double v[3]) {
  double av[3] = {0.0, 0.0, 0.0}, s = 0.0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      av[i] += a[i * 3 + j] * v[j];
  for (int i = 0; i < 3; i++)
    s += v[i] * av[i];
  return s;
}

BATCHDIFF double by_trip(const double w[4], double x) {
  double s = 0.0;
  for (int i = 0; i < 4; i++) {
    switch (i) {
    case 0:
      s += w[i];
      break;
    case 1:
      s *= x;
      break;
    default:
      s += w[i] * x;
    }
  }
  long k;
  for (k = 10; k > 4; k -= 3)
    s += (double)k * w[0];
  for (int i = 0; i < 17; i++) /* 17 trips: stays a loop */
    s = s * 0.5 + w[i & 3];
  return s + (double)k;
}

/* A biquad filter over a per-example length: its five coefficients are
 * read once, before the loop. */
BATCHDIFF double biquad(const double *x, int n, const double c[5]) {
  double x1 = 0.0, x2 = 0.0, y1 = 0.0, y2 = 0.0, e = 0.0;
  for (int i = 0; i < n; i++) {
    double y = c[0] * x[i] + c[1] * x1 + c[2] * x2 - c[3] * y1 - c[4] * y2;
    x2 = x1;
    x1 = x[i];
    y2 = y1;
    y1 = y;
    e += y * y;
  }
  return n > 0 ? e / n : c[0];
}

static void grad_check(const char *name, size_t n, size_t b, int i, double g,
                       double fd) {
  if (!(fabs(g - fd) <= 1e-5 * (1.0 + fabs(fd))))
    fail_msg("%s n=%zu example %zu [%d]: gradient %a, differences %a", name, n,
             b, i, g, fd);
}

static void check_bits(const char *name, size_t n, size_t b, double got,
                       double want) {
  if (memcmp(&got, &want, sizeof want) != 0)
    fail_msg("%s n=%zu example %zu: %a, scalar %a", name, n, b, got, want);
}

typedef double (*arr_x_fn)(const double *, double);
typedef void (*arr_x_batched)(size_t, const double *, ptrdiff_t, const double *,
                              double *);
typedef void (*arr_x_grad)(size_t, const double *, ptrdiff_t, const double *,
                           double *, const double *, double *, ptrdiff_t,
                           double *);

/* f(c, x) with c of len elements: values, gradients in c and x. */
static void check_arr_x(const char *name, int len, arr_x_fn f, arr_x_batched fb,
                        arr_x_grad fg) {
  rng_t r = {name_seed(name)};
  for (size_t n = 0; n <= 37; n++) {
    double *c = gp_alloc((n * len + 1) * 8), *dc = gp_alloc((n * len + 1) * 8);
    double *x = gp_alloc((n + 1) * 8), *dx = gp_alloc((n + 1) * 8);
    double *ret = gp_alloc((n + 1) * 8);
    for (size_t i = 0; i < n * len; i++)
      c[i] = -2.0 + 4.0 * rng_unit(&r), dc[i] = 0.0;
    for (size_t b = 0; b < n; b++)
      x[b] = -1.5 + 3.0 * rng_unit(&r), dx[b] = 0.0;
    fb(n, c, len, x, ret);
    fg(n, c, len, x, NULL, NULL, dc, len, dx);
    for (size_t b = 0; b < n; b++) {
      double *ce = c + len * b, h = 1e-7;
      double want = f(ce, x[b]);
      check_bits(name, n, b, ret[b], want);
      for (int i = 0; i <= len; i++) {
        double *p = i < len ? &ce[i] : &x[b], x0 = *p;
        *p = x0 + h;
        double fp = f(ce, x[b]);
        *p = x0 - h;
        double fm = f(ce, x[b]);
        *p = x0;
        /* a branch switching within h: no derivative to compare */
        if (fabs(fp - want) > 1e-3 || fabs(fm - want) > 1e-3)
          continue;
        grad_check(name, n, b, i, i < len ? dc[len * b + i] : dx[b],
                   (fp - fm) / (2 * h));
      }
    }
    gp_reset();
  }
}

static void test_horner6(void **state) {
  (void)state;
  check_arr_x("horner6", 6, horner6, horner6_batched, horner6_grad);
}

static void test_by_trip(void **state) {
  (void)state;
  check_arr_x("by_trip", 4, by_trip, by_trip_batched, by_trip_grad);
}

static void test_qform(void **state) {
  (void)state;
  rng_t r = {name_seed("qform")};
  for (size_t n = 0; n <= 37; n++) {
    double *a = gp_alloc((n * 9 + 1) * 8), *v = gp_alloc((n * 3 + 1) * 8);
    double *da = gp_alloc((n * 9 + 1) * 8), *dv = gp_alloc((n * 3 + 1) * 8);
    double *ret = gp_alloc((n + 1) * 8);
    for (size_t i = 0; i < n * 9; i++)
      a[i] = -2.0 + 4.0 * rng_unit(&r), da[i] = 0.0;
    for (size_t i = 0; i < n * 3; i++)
      v[i] = -2.0 + 4.0 * rng_unit(&r), dv[i] = 0.0;
    qform_batched(n, a, 9, v, 3, ret);
    qform_grad(n, a, 9, v, 3, NULL, NULL, da, 9, dv, 3);
    for (size_t b = 0; b < n; b++) {
      double *ae = a + 9 * b, *ve = v + 3 * b, h = 1e-6;
      check_bits("qform", n, b, ret[b], qform(ae, ve));
      for (int i = 0; i < 12; i++) {
        double *p = i < 9 ? &ae[i] : &ve[i - 9], x0 = *p;
        *p = x0 + h;
        double fp = qform(ae, ve);
        *p = x0 - h;
        double fm = qform(ae, ve);
        *p = x0;
        grad_check("qform", n, b, i, i < 9 ? da[9 * b + i] : dv[3 * b + i - 9],
                   (fp - fm) / (2 * h));
      }
    }
    gp_reset();
  }
}

static void test_biquad(void **state) {
  (void)state;
  rng_t r = {name_seed("biquad")};
  enum { S = 12 };
  for (size_t n = 0; n <= 37; n++) {
    double *x = gp_alloc((n * S + 1) * 8), *dx = gp_alloc((n * S + 1) * 8);
    /* c ends at its guard page: the last example's five coefficients are
     * the last elements before it, read where that example reads none. */
    double *c = gp_alloc((n ? n * 5 : 1) * 8), *dc = gp_alloc((n * 5 + 1) * 8);
    double *ret = gp_alloc((n + 1) * 8);
    int *len = gp_alloc((n + 1) * sizeof *len);
    for (size_t i = 0; i < n * S; i++)
      x[i] = -1.0 + 2.0 * rng_unit(&r), dx[i] = 0.0;
    for (size_t i = 0; i < n * 5; i++)
      c[i] = (i % 5 ? -0.4 + 0.8 * rng_unit(&r) : 0.2 + rng_unit(&r)),
      dc[i] = 0.0;
    for (size_t b = 0; b < n; b++)
      len[b] = (int)rng_below(&r, S + 1); /* 0 .. S, 0 reads no x */
    biquad_batched(n, x, S, len, c, 5, ret);
    biquad_grad(n, x, S, len, c, 5, NULL, NULL, dx, S, dc, 5);
    for (size_t b = 0; b < n; b++) {
      double *xe = x + S * b, *ce = c + 5 * b, h = 1e-7;
      check_bits("biquad", n, b, ret[b], biquad(xe, len[b], ce));
      for (int i = 0; i < S + 5; i++) {
        double *p = i < S ? &xe[i] : &ce[i - S], x0 = *p;
        double g = i < S ? dx[S * b + i] : dc[5 * b + i - S];
        if (i < S && i >= len[b]) { /* past the example's length */
          if (g != 0.0)
            fail_msg("biquad n=%zu example %zu: d_x[%d] = %a past n", n, b, i,
                     g);
          continue;
        }
        *p = x0 + h;
        double fp = biquad(xe, len[b], ce);
        *p = x0 - h;
        double fm = biquad(xe, len[b], ce);
        *p = x0;
        grad_check("biquad", n, b, i, g, (fp - fm) / (2 * h));
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_horner6),
      cmocka_unit_test(test_qform),
      cmocka_unit_test(test_by_trip),
      cmocka_unit_test(test_biquad),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_short_loops", tests, NULL, NULL);
}
