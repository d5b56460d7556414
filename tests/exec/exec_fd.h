/* Gradient checks of the exec tests against Richardson-extrapolated central
 * differences of the scalar function, skipping points where the function is
 * not smooth (a branch switching near x), and counting the points checked:
 * a test asserts a minimum with fd_expect(), so that skipping cannot make the
 * check vacuous. */
#ifndef BATCHDIFF_EXEC_FD_H
#define BATCHDIFF_EXEC_FD_H

#include "exec_util.h" /* cmocka: print_error, fail */

/* The function of one variable to differentiate, with the example's other
 * arguments in ctx. */
typedef double (*fd_fn)(double x, const void *ctx);

typedef struct {
  size_t checked; /* points whose differences resolved */
  double ulps;    /* rounding error allowed in the values, in DBL_EPSILONs */
} fd_count;

/* g'(x) by (4 d(h) - d(2h)) / 3 with h = 1e-5 (1 + |x|), where g is smooth
 * around x: the central quotients of steps h and 2h agree, the one-sided
 * ones too (a branch switching at x can leave the central ones agreeing),
 * and the first with the extrapolated one (a kink in g'' only). Returns 0
 * where not; *noise bounds the quotients' rounding error. */
static inline int fd_richardson(fd_fn g, const void *ctx, double x, double ulps,
                                double *deriv, double *noise) {
  double h = 1e-5 * (1.0 + fabs(x));
  double f0 = g(x, ctx), fp = g(x + h, ctx), fm = g(x - h, ctx);
  double fp2 = g(x + 2 * h, ctx), fm2 = g(x - 2 * h, ctx);
  double d1 = (fp - fm) / (2 * h), d2 = (fp2 - fm2) / (4 * h);
  double big = fmax(fmax(fabs(fp), fabs(fm)), fmax(fabs(fp2), fabs(fm2)));
  double nz = ulps * DBL_EPSILON * fmax(big, fabs(f0)) / h;
  double right = (fp - f0) / h, left = (f0 - fm) / h;
  double dr = (4 * d1 - d2) / 3;
  if (!isfinite(d1) || !isfinite(d2) || fabs(d1 - d2) > 1e-4 * fabs(d1) + nz ||
      fabs(right - left) > 1e-3 * fabs(d1) + nz ||
      fabs(d1 - dr) > 1e-7 * fabs(dr) + nz)
    return 0;
  *deriv = dr;
  *noise = nz;
  return 1;
}

/* got against g'(x), relative 1e-6 plus the rounding error, where g is
 * smooth around x; counted in c. */
static inline void fd_check(fd_count *c, const char *what, fd_fn g,
                            const void *ctx, double x, double got) {
  double dr, noise;
  if (!fd_richardson(g, ctx, x, c->ulps, &dr, &noise))
    return;
  if (!(fabs(got - dr) <= 1e-6 * fabs(dr) + noise)) {
    print_error("%s'(%.17g): %.17g, central differences %.17g\n", what, x, got,
                dr);
    fail();
  }
  c->checked++;
}

/* At least min_fd points checked; the count is printed with BD_FD_COUNTS set
 * in the environment (to choose a minimum). */
static inline void fd_expect(const fd_count *c, const char *what,
                             size_t min_fd) {
  if (getenv("BD_FD_COUNTS"))
    fprintf(stderr, "%s: %zu checked\n", what, c->checked);
  if (c->checked < min_fd) {
    print_error("%s: %zu gradients checked, want >= %zu\n", what, c->checked,
                min_fd);
    fail();
  }
}

#endif
