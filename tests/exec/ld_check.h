/* The checks of the long double tests (test_long_double*.c): a generated
 * function whose long double work runs per example as the scalar function
 * must give the scalar loop's values bit for bit and make its calls
 * (call_tally.h), with every thread count; its derivatives avoid the
 * call and have a closed form. */
#ifndef BATCHDIFF_EXEC_LD_CHECK_H
#define BATCHDIFF_EXEC_LD_CHECK_H

#include "call_tally.h" /* exec_util.h: close_to, same_bits_or_nan */

/* Example e's value got against want, the same bits (or both NaN). */
static void same(const char *what, size_t n, int th, size_t e, double got,
                 double want) {
  if (!same_bits_or_nan(&got, &want, 8, 1)) {
    print_error("%s n=%zu threads=%d example %zu: %a, want %a\n", what, n, th,
                e, got, want);
    fail();
  }
}

/* One run of a generated version on n examples with th threads, just made:
 * the calls since the last take() are the scalar loop's (want) and its
 * values r are the scalar loop's w. */
static void same_run(const char *what, size_t n, int th, tally want,
                     const double *r, const double *w) {
  tally got = take();
  SAME_CALLS(what, n, want, got);
  for (size_t e = 0; e < n; e++)
    same(what, n, th, e, r[e], w[e]);
}

/* A derivative output d of that run against c * y[e] (times t[e] for a
 * tangent), the same bits (tol 0) or within tol (close_to). */
static void same_deriv(const char *what, size_t n, int th, const double *d,
                       double c, const double *y, const double *t, double tol) {
  for (size_t e = 0; e < n; e++) {
    double want = c * y[e] * (t ? t[e] : 1.0);
    if (tol == 0.0)
      same(what, n, th, e, d[e], want);
    else if (!close_to(d[e], want, tol)) {
      print_error("%s n=%zu threads=%d example %zu: %a, want %a\n", what, n, th,
                  e, d[e], want);
      fail();
    }
  }
}

#endif
