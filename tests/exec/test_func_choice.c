/* A per-example choice of function (docs/calls.md): a function
 * pointer that may be one of several known functions is a per-lane
 * position among them, and a call through it an if/else chain with one
 * inlined call per candidate:
 *   - fs_cond: a '?:' of functions (nested) as a helper's argument, and
 *     called directly;
 *   - fs_local: a local function pointer assigned on some paths, assigned
 *     a '?:' and another such pointer, passed to a helper;
 *   - fs_param: a helper assigning its function pointer parameter;
 *   - fs_masked: a choice inside an outer branch and a loop (masked lanes
 *     call nothing), re-assigned in the loop;
 *   - fs_table: a static const table of functions indexed per example, an
 *     element at a constant index, a local static table with a function
 *     twice, an index checked by the caller (lanes out of range never call);
 *   - fs_utable: a table indexed by a uniform parameter;
 *   - fs_math: <math.h> functions among the candidates.
 * Each NAME_batched against the scalar function bit for bit (fs_math within
 * the math functions' bounds) over inputs where lanes choose different
 * functions, and where whole vectors choose one; NAME_grad against
 * Richardson-extrapolated central differences and against NAME_jvp; for
 * fs_local NAME_hvp's gradient against NAME_grad and its H.v against
 * differences of NAME_grad. */
#include "exec_fd.h"
#include "exec_util.h"

#include "../common/test_filter.h"

typedef double (*fn)(double);

static double sq(double t) { return t * t; }
static double cube(double t) { return t * t * t; }
static double lin(double t) { return 0.5 * t - 1.0; }
static double rat(double t) { return t / (1.0 + t * t); }

static double apply(double (*f)(double), double x) { return f(x) + 1.0; }
static double apply2(fn f, double x) { return f(f(x)) - (*f)(0.5 * x); }

#define FS __attribute__((batch, diff, diff(forward)))

FS double fs_cond(double x, int k) {
  double y = apply(x > 0.0 ? sq : cube, x);
  y += apply2(x < -1.0 ? lin : x < 1.0 ? cube : &sq, 0.5 * x);
  return y + (k > 1 ? rat : lin)(x) * (x > 2.0 ? sq : rat)(0.25 * x);
}

__attribute__((batch, diff, diff(forward), diff(hvp))) double fs_local(double x,
                                                                       int k) {
  double (*f)(double) = sq;
  if (x < 0.0)
    f = cube;
  double y = f(x);
  fn g;
  g = (k == 1) ? lin : (k == 2 ? sq : rat);
  y += apply(g, 0.5 * y);
  if (k > 2)
    g = f;
  return y + g(0.5 * x);
}

static double twist(fn f, double x) {
  if (x > 1.0)
    f = lin;
  return f(x) * f(-0.5 * x);
}
FS double fs_param(double x, int k) {
  return twist(sq, x) + twist(k & 1 ? cube : rat, 0.5 * x);
}

FS double fs_masked(double x, int k) {
  double s = 0.0;
  if (x > -1.0) {
    fn f = k % 2 ? cube : sq;
    for (int i = 0; i < 3; i++) {
      s += f(x - i);
      if (i == 1 && k > 2)
        f = lin;
    }
  } else {
    s = x;
  }
  return s;
}

static double (*const ops[])(double) = {sq, cube, lin, rat};

FS double fs_table(double x, int k) {
  static fn const twice[] = {rat, sq, rat, lin};
  double y = ops[k](x) + 2.0 * (*ops[(k + 1) % 4])(0.5 * x) + ops[2](x);
  y += apply(twice[k], x);
  if (k >= 0 && k < 2) /* the others never call */
    y += ops[k + 2](-x);
  return y;
}

FS double fs_utable(double x, BD_UNIFORM int k) {
  return apply(ops[k], x) * ops[3 - k](x);
}

FS double fs_math(double x, int k) {
  double (*f)(double) = k > 0 ? sin : exp;
  if (k > 1)
    f = rat;
  return f(x) + (x > 0.0 ? cos : sq)(x);
}

/* Given another pointer declared after it (`f = g;`, and back: `g = f;`):
 * fuzz seeds 44 and 89 of the eleventh round's new constructs. */
FS double fs_later(double x, int k) {
  double (*f)(double) = sq;
  double (*g)(double) = cube;
  fn h;
  if (x > 0.3)
    f = g;
  h = k > 1 ? lin : rat;
  if (x < -0.2)
    g = f;
  if (k == 3)
    g = h;
  return f(x) + g(0.5 * x);
}

/* ---- tests ------------------------------------------------------------- */

typedef double (*sfn)(double, int);
typedef void (*bfn)(size_t, const double *, const int *, double *);
typedef void (*gfn)(size_t, const double *, const int *, double *,
                    const double *, double *);
typedef void (*jfn)(size_t, const double *, const int *, const double *,
                    double *, double *);

static void fs_utable_b(size_t n, const double *x, const int *k, double *r) {
  fs_utable_batched(n, x, n ? k[0] : 0, r);
}
static void fs_utable_g(size_t n, const double *x, const int *k, double *r,
                        const double *dr, double *dx) {
  fs_utable_grad(n, x, n ? k[0] : 0, r, dr, dx);
}
static void fs_utable_j(size_t n, const double *x, const int *k,
                        const double *tx, double *r, double *dr) {
  fs_utable_jvp(n, x, n ? k[0] : 0, tx, r, dr);
}

static const size_t ns[] = {0,  1,      WF - 1,     WF,         WF + 1, WD - 1,
                            WD, WD + 1, 2 * WF + 3, 2 * WD + 3, 1000,   4099};
#define NNS (sizeof ns / sizeof ns[0])

/* f(., k) of one example, for the differences. */
struct at_k {
  sfn f;
  int k;
};
static double at(double x, const void *c) {
  const struct at_k *a = c;
  return a->f(x, a->k);
}

/* Choices per example (mode 0), the same choice for blocks of 16 examples
 * (mode 1: whole vectors choose one function), one for the batch (mode 2). */
static void gen_k(rng_t *rng, int *k, size_t n, int mode, int klo, int khi) {
  int same = klo + rng_below(rng, khi - klo);
  for (size_t e = 0; e < n; e++) {
    if (mode == 1 && e % 16 == 0)
      same = klo + rng_below(rng, khi - klo);
    k[e] = mode == 0 ? klo + rng_below(rng, khi - klo) : same;
  }
}

static void run(const char *what, sfn f, bfn fb, gfn fg, jfn fj, int klo,
                int khi, int uniform, double tol, size_t min_fd) {
  rng_t rng = {0x9E3779B97F4A7C15ULL ^ (uint64_t)min_fd ^ (uint64_t)khi};
  fd_count fc = {0, 64};
  for (int mode = uniform ? 2 : 0; mode < 3; mode++)
    for (size_t ni = 0; ni < NNS; ni++) {
      size_t n = ns[ni];
      double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8);
      double *r2 = gp_alloc(n * 8), *r3 = gp_alloc(n * 8);
      double *d = gp_alloc(n * 8), *t = gp_alloc(n * 8);
      double *dj = gp_alloc(n * 8);
      int *k = gp_alloc(n * sizeof(int));
      for (size_t e = 0; e < n; e++)
        x[e] = rng_range(&rng, -3.0, 3.0), d[e] = 0.0, t[e] = 1.0;
      if (n > 2)
        x[0] = -1.0, x[1] = 0.0;
      gen_k(&rng, k, n, mode, klo, khi);
      gp_seal(x);
      gp_seal(k);
      fb(n, x, k, r);
      fg(n, x, k, r2, NULL, d);
      fj(n, x, k, t, r3, dj);
      for (size_t e = 0; e < n; e++) {
        same_result(what, e, r[e], f(x[e], k[e]), tol);
        same_result(what, e, r2[e], r[e], 0.0);
        same_result(what, e, r3[e], r[e], 0.0);
        same_result(what, e, dj[e], d[e], 1e-13);
        struct at_k c = {f, k[e]};
        if (e < 1500)
          fd_check(&fc, what, at, &c, x[e], d[e]);
      }
      gp_reset();
    }
  fd_expect(&fc, what, min_fd);
}

#define RUN(name, klo, khi, tol, min_fd)                                       \
  static void t_##name(void **state) {                                         \
    (void)state;                                                               \
    run(#name, name, name##_batched, name##_grad, name##_jvp, klo, khi, 0,     \
        tol, min_fd);                                                          \
  }

RUN(fs_cond, 0, 3, 0.0, 7000)
RUN(fs_local, 0, 4, 0.0, 7000)
RUN(fs_param, 0, 4, 0.0, 7000)
RUN(fs_masked, 0, 4, 0.0, 7000)
RUN(fs_table, 0, 4, 0.0, 7000)
RUN(fs_math, 0, 3, 1e-15, 7000)
RUN(fs_later, 0, 4, 0.0, 7000)

static void t_fs_utable(void **state) {
  (void)state;
  for (int k = 0; k < 4; k++)
    run("fs_utable", fs_utable, fs_utable_b, fs_utable_g, fs_utable_j, k, k + 1,
        1, 0.0, 1000);
}

/* fs_local_hvp: the gradient bit for bit as fs_local_grad's, H.v (v = 1)
 * against central differences of fs_local_grad. */
static void t_fs_local_hvp(void **state) {
  (void)state;
  rng_t rng = {0x243F6A8885A308D3ULL};
  size_t n = 1000, checked = 0;
  double *x = gp_alloc(n * 8), *t = gp_alloc(n * 8), *d = gp_alloc(n * 8);
  double *d2 = gp_alloc(n * 8), *h = gp_alloc(n * 8), *xs = gp_alloc(n * 8);
  double *gp = gp_alloc(n * 8), *gm = gp_alloc(n * 8);
  int *k = gp_alloc(n * sizeof(int));
  for (size_t e = 0; e < n; e++) {
    x[e] = rng_range(&rng, -3.0, 3.0), t[e] = 1.0;
    d[e] = d2[e] = h[e] = gp[e] = gm[e] = 0.0;
  }
  gen_k(&rng, k, n, 0, 0, 4);
  fs_local_grad(n, x, k, NULL, NULL, d);
  fs_local_hvp(n, x, k, t, NULL, NULL, d2, h);
  double step = 1e-5;
  for (size_t e = 0; e < n; e++)
    xs[e] = x[e] + step;
  fs_local_grad(n, xs, k, NULL, NULL, gp);
  for (size_t e = 0; e < n; e++)
    xs[e] = x[e] - step;
  fs_local_grad(n, xs, k, NULL, NULL, gm);
  for (size_t e = 0; e < n; e++) {
    same_result("fs_local_hvp gradient", e, d2[e], d[e], 0.0);
    double fd = (gp[e] - gm[e]) / (2 * step);
    /* skip switch points: the one-sided differences disagree */
    double right = gp[e] - d[e], left = d[e] - gm[e];
    if (!isfinite(fd) || fabs(right - left) > 1e-3 * fabs(gp[e] - gm[e]) + 1e-9)
      continue;
    same_result("fs_local_hvp H.v", e, h[e], fd, 1e-5);
    checked++;
  }
  gp_reset();
  if (checked < 800) {
    print_error("fs_local_hvp: %zu checked, want >= 800\n", checked);
    fail();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_fs_cond),  cmocka_unit_test(t_fs_local),
      cmocka_unit_test(t_fs_param), cmocka_unit_test(t_fs_masked),
      cmocka_unit_test(t_fs_table), cmocka_unit_test(t_fs_utable),
      cmocka_unit_test(t_fs_math),  cmocka_unit_test(t_fs_local_hvp),
      cmocka_unit_test(t_fs_later),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_func_choice", tests, NULL, NULL);
}
