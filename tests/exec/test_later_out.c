/* A function declared in a header returning void or an integer, called with
 * out-pointers or a read-only array and defined later in the same file, is
 * inlined (batched and differentiated) rather than called once per example:
 * ERFA's eraEe00a calls eraPr00(date1, date2, &dpsipr, &depspr), which
 * pr00.c defines after it when all ERFA's sources are one translation unit.
 * (Taking numbers only, such a call is made once per example at once:
 * test_extern_calls.c.)
 *   - lo_ee: eraEe00a's shape, the corrections through out-pointers;
 *   - lo_ew: a polynomial whose coefficients are a BD_UNIFORM array passed
 *     whole, a value through an out-pointer, the status in a branch.
 * NAME_batched bit for bit against the scalar function; NAME_grad against
 * Richardson differences (exec_fd.h), for the varying input and, summed
 * over the batch, the BD_UNIFORM coefficients; NAME_jvp against NAME_grad.
 * Before, diff-extern-out for lo_ee: the out-pointers' values carried no
 * derivative. */
#include "exec_fd.h"

#include "../common/test_filter.h"
#include "later_out.h"

BATCHDIFF BD_JVP double lo_ee(double t, BD_UNIFORM const double w[3]) {
  double dpsi, deps;
  lo_pr(t, &dpsi, &deps);
  return dpsi * deps + w[0] * t;
}

BATCHDIFF BD_JVP double lo_ew(double t, BD_UNIFORM const double w[3]) {
  double y;
  if (lo_poly(w, t, &y))
    y = -y;
  return y * t;
}

/* ---- defined after their caller ------------------------------------------ */

void lo_pr(double t, double *dpsi, double *deps) {
  *dpsi = -0.29965 * t;
  *deps = -0.02524 * t * t + 0.5;
}

int lo_poly(const double *w, double x, double *y) {
  *y = w[0] + x * (w[1] + x * w[2]);
  return x > 1.0;
}

typedef double (*lo_fn)(double, const double *);
typedef void (*lo_batched_fn)(size_t, const double *, const double *, double *);
typedef void (*lo_grad_fn)(size_t, const double *, const double *, double *,
                           const double *, double *, double *);
typedef void (*lo_jvp_fn)(size_t, const double *, const double *,
                          const double *, const double *, double *, double *);

typedef struct {
  lo_fn f;
  const double *t;
  size_t n;
  double w[3];
  int j; /* -1: t[e] varies, else w[j] for the batch's sum */
  size_t e;
} ee_ctx;
static double ee_of(double v, const void *p) {
  const ee_ctx *c = p;
  double w[3] = {c->w[0], c->w[1], c->w[2]};
  if (c->j < 0)
    return c->f(v, w);
  w[c->j] = v;
  double s = 0.0;
  for (size_t e = 0; e < c->n; e++)
    s += c->f(c->t[e], w);
  return s;
}

static void check(const char *name, lo_fn f, lo_batched_fn fb, lo_grad_fn fg,
                  lo_jvp_fn fj) {
  rng_t rng = {0x9E3779B97F4A7C15ULL};
  fd_count fc = {0, 256};
  for (size_t k = 0; k < N_TEST_NS; k++) {
    size_t n = test_ns[k];
    double w[3] = {rng_range(&rng, -2.0, 2.0), rng_range(&rng, -2.0, 2.0),
                   rng_range(&rng, -2.0, 2.0)};
    double *t = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *dr = gp_alloc(n * 8), *dt = gp_alloc(n * 8), *tr = gp_alloc(n * 8);
    double *tt = gp_alloc(n * 8), *r3 = gp_alloc(n * 8);
    double dw[3] = {0.0, 0.0, 0.0}, tw[3] = {0.0, 0.0, 0.0};
    for (size_t e = 0; e < n; e++) {
      t[e] = rng_range(&rng, -3.0, 3.0);
      dr[e] = 1.0;
      dt[e] = 0.0;
      tt[e] = 1.0;
    }
    fb(n, t, w, r);
    fg(n, t, w, r2, dr, dt, dw);
    fj(n, t, w, tt, tw, r3, tr);
    for (size_t e = 0; e < n; e++) {
      double want = f(t[e], w);
      if (memcmp(&r[e], &want, 8) || memcmp(&r2[e], &want, 8) ||
          memcmp(&r3[e], &want, 8)) {
        print_error("%s example %zu: %.17g (grad's %.17g), want %.17g\n", name,
                    e, r[e], r2[e], want);
        fail();
      }
      ee_ctx c = {f, t, n, {w[0], w[1], w[2]}, -1, e};
      fd_check(&fc, name, ee_of, &c, t[e], dt[e]);
      if (!close_to(tr[e], dt[e], 1e-12)) {
        print_error("%s jvp example %zu: %.17g, grad %.17g\n", name, e, tr[e],
                    dt[e]);
        fail();
      }
    }
    if (n > 0)
      for (int j = 0; j < 3; j++) {
        ee_ctx c = {f, t, n, {w[0], w[1], w[2]}, j, 0};
        fd_check(&fc, name, ee_of, &c, w[j], dw[j]);
      }
    gp_reset();
  }
  fd_expect(&fc, name, 800);
}

static void t_ee(void **state) {
  (void)state;
  check("lo_ee", lo_ee, lo_ee_batched, lo_ee_grad, lo_ee_jvp);
}

static void t_ew(void **state) {
  (void)state;
  check("lo_ew", lo_ew, lo_ew_batched, lo_ew_grad, lo_ew_jvp);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_ee),
      cmocka_unit_test(t_ew),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_later_out", tests, NULL, NULL);
}
