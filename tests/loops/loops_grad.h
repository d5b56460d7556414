/* Gradient harness shared by the loop tests (tests/loops): NAME_grad of a
 * function of one varying double x and one varying int n against
 *   - a hand-written dual-number (forward mode) version of the same scalar
 *     code, which follows the same path per example;
 *   - central finite differences where they are trustworthy (the two
 *     one-sided differences agree, i.e. no path change within +-h);
 *   - optionally an analytic derivative.
 * For every n in loop_ns[] and input pattern (loops_util.h). The primal
 * `ret` of NAME_grad must equal the scalar function (bitwise, or within a
 * tolerance where math calls may differ by an ULP). Shadows start non-zero
 * (gradients are added); d_ret NULL / ret NULL are covered. */
#ifndef BATCHDIFF_LOOPS_GRAD_H
#define BATCHDIFF_LOOPS_GRAD_H

#include "loops_util.h"

#include "../common/close.h"
#include "../common/dual.h"

/* ---- tolerances and checks ----------------------------------------------- */

/* Central difference, trusted only when the one-sided differences agree. */
typedef double (*fx_t)(double, void *);
static int fd_trusted(fx_t f, void *ctx, double x, double *fd) {
  double h = 1e-6 * (1.0 + fabs(x));
  double fp = f(x + h, ctx), fm = f(x - h, ctx), f0 = f(x, ctx);
  if (!isfinite(fp) || !isfinite(fm) || !isfinite(f0))
    return 0;
  double r = (fp - f0) / h, l = (f0 - fm) / h;
  *fd = (fp - fm) / (2.0 * h);
  return fabs(r - l) <= 1e-4 * (1.0 + fabs(*fd));
}
#define FD_TOL 1e-5
#define DUAL_TOL 1e-10

/* Statistics, so that a test cannot pass vacuously. */
typedef struct {
  size_t checked, fd_trusted, fd_total;
} stats_t;

static void check_fd_share(const stats_t *s, const char *name) {
  if (s->fd_total && s->fd_trusted * 3 < s->fd_total) {
    print_error("%s: finite differences trusted for only %zu of %zu lanes\n",
                name, s->fd_trusted, s->fd_total);
    fail();
  }
  assert_true(s->checked > 0);
}

static double g_seed(rng_t *r) {
  switch (rng_below(r, 6)) {
  case 0:
    return 1.0;
  case 1:
    return 0.0;
  default:
    return rng_range(r, -2.0, 2.0);
  }
}

/* ---- one varying double x + one varying int n ---------------------------- */

typedef double (*sxn_t)(double, int);
typedef dual (*dxn_t)(dual, int);
typedef void (*gxn_t)(size_t, const double *, const int *, double *,
                      const double *, double *);
typedef double (*genx_t)(rng_t *, int, size_t);
typedef int (*genn_t)(rng_t *, int, size_t);

struct xn_ctx {
  sxn_t f;
  int n;
};
static double xn_eval(double x, void *c) {
  struct xn_ctx *k = c;
  return k->f(x, k->n);
}

/* ret_tol: 0 = ret must be bitwise equal to the scalar function. */
static void run_xn(const char *name, gxn_t grad, sxn_t f, dxn_t df,
                   double (*analytic)(double), genx_t gx, genn_t gn,
                   double ret_tol, double dual_tol, int do_fd) {
  rng_t rng = {name_seed(name)};
  stats_t st = {0};
  for (size_t ni = 0; ni < N_LOOP_NS; ni++) {
    size_t n = loop_ns[ni];
    for (int pat = 0; pat < N_PATS; pat++) {
      double *x = gp_alloc(n * sizeof *x);
      int *k = gp_alloc(n * sizeof *k);
      double *seed = gp_alloc(n * sizeof *seed);
      double *ret = gp_alloc(n * sizeof *ret);
      double *dx = gp_alloc(n * sizeof *dx);
      double *dx2 = gp_alloc(n * sizeof *dx2);
      double *prior = malloc((n + 1) * sizeof *prior);
      for (size_t b = 0; b < n; b++) {
        x[b] = gx(&rng, pat, b);
        k[b] = gn(&rng, pat, b);
        seed[b] = g_seed(&rng);
        prior[b] = dx[b] = rng_range(&rng, -1.0, 1.0);
        dx2[b] = 0.0;
        ret[b] = -12345.0;
      }
      gp_seal(x);
      gp_seal(k);
      gp_seal(seed);
      grad(n, x, k, ret, seed, dx);
      grad(n, x, k, NULL, NULL, dx2); /* seed 1, no primal output */
      for (size_t b = 0; b < n; b++) {
        double want = f(x[b], k[b]);
        int ok = ret_tol == 0.0 ? SAME(ret[b], want)
                                : close_nan_inf(ret[b], want, ret_tol);
        if (!ok) {
          print_error("%s_grad: ret n=%zu pat=%d b=%zu x=%.17g k=%d: got "
                      "%.17g want %.17g\n",
                      name, n, pat, b, x[b], k[b], ret[b], want);
          fail();
        }
        dual d = df(dv(x[b]), k[b]);
        double w1 = prior[b] + seed[b] * d.d;
        if (!close_nan_inf(dx[b], w1, dual_tol) ||
            !close_nan_inf(dx2[b], d.d, dual_tol)) {
          print_error("%s_grad: n=%zu pat=%d b=%zu x=%.17g k=%d seed=%g: "
                      "d_x=%.17g want %.17g (prior %.17g); seed 1: %.17g want "
                      "%.17g\n",
                      name, n, pat, b, x[b], k[b], seed[b], dx[b], w1, prior[b],
                      dx2[b], d.d);
          fail();
        }
        if (analytic && isfinite(d.d) && x[b] != 0.0) {
          double a = analytic(x[b]);
          if (!close_nan_inf(dx2[b], a, 1e-9)) {
            print_error("%s_grad: x=%.17g d=%.17g analytic %.17g\n", name, x[b],
                        dx2[b], a);
            fail();
          }
        }
        if (do_fd && isfinite(d.d)) {
          double fd;
          struct xn_ctx c = {f, k[b]};
          st.fd_total++;
          if (fd_trusted(xn_eval, &c, x[b], &fd)) {
            st.fd_trusted++;
            if (!close_nan_inf(dx2[b], fd, FD_TOL)) {
              print_error("%s_grad: x=%.17g k=%d d=%.17g central FD %.17g\n",
                          name, x[b], k[b], dx2[b], fd);
              fail();
            }
          }
        }
        st.checked++;
      }
      free(prior);
      gp_reset();
    }
  }
  check_fd_share(&st, name);
}

/* x in [-3, 3] (random), or spread over the lanes of a chunk. */
static double g_x(rng_t *r, int pat, size_t b) {
  switch (pat) {
  case 0:
  case 1:
    return rng_range(r, -3.0, 3.0);
  case 2:
    return (b & 1 ? -0.3 : 0.4) * (double)(b % WF + 1);
  case 3:
    return 0.7;
  default:
    return rng_range(r, -1.0, 1.0);
  }
}
static int g_n(rng_t *r, int pat, size_t b) {
  switch (pat) {
  case 0:
    return rng_below(r, 10) == 0 ? -rng_below(r, 3) : rng_below(r, 25);
  case 1:
    return rng_below(r, 3);
  case 2:
    return (int)(b % WF) * 2; /* 0, 2, 4, ...: all lanes different */
  case 3:
    return 6;
  default:
    return b % WF == 2 ? 40 : 0;
  }
}

#endif /* BATCHDIFF_LOOPS_GRAD_H */
