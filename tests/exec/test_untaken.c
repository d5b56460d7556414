/* Gradients through the side a lane did not take (docs/abi.md, NAME_grad:
 * "the gradient of the path that example took"). Both sides of a `?:` with
 * cheap arms, of a branch-free if and of a loop body whose lanes are off
 * are computed for every lane; the untaken side's adjoint is zero, and an
 * infinite partial there (x = inf, a division by x = 0, y * x*x with x*x
 * overflowing, a hoisted loop invariant of a loop that ran zero times) must
 * not turn that zero into NaN: every lane's gradient and tangent equal the
 * derivative of its own path, written out by hand below. Special lanes sit
 * among ordinary ones at every position of a chunk (n = 1 .. 37), and each
 * example alone (n = 1) gives the bits it gets in the batch. */
#include "exec_util.h"

#include "../common/test_filter.h"

/* ?: with cheap arms (a select): the untaken x*y has partial x = inf. */
BATCHDIFF BD_JVP double u_tern(double x, double y) {
  return isinf(x) ? y : x * y;
}
static void d_tern(double x, double y, int n, double *d) {
  (void)n;
  d[0] = isinf(x) ? 0.0 : y;
  d[1] = isinf(x) ? 1.0 : x;
}
/* An arm whose inner value overflows: y * (x*x) with x*x = inf. */
BATCHDIFF BD_JVP double u_square(double x, double y) {
  return x < 1e100 ? y * (x * x) : y;
}
static void d_square(double x, double y, int n, double *d) {
  (void)n;
  d[0] = x < 1e100 ? 2.0 * x * y : 0.0;
  d[1] = x < 1e100 ? x * x : 1.0;
}
/* Nested selects, division by zero in the untaken arm. */
BATCHDIFF BD_JVP double u_nested(double x, double y) {
  return x != 0.0 ? (x > 1e100 ? y : y / x + x * x) : 0.5 * y;
}
static void d_nested(double x, double y, int n, double *d) {
  (void)n;
  if (x == 0.0) {
    d[0] = 0.0, d[1] = 0.5;
  } else if (x > 1e100) {
    d[0] = 0.0, d[1] = 1.0;
  } else {
    d[0] = -y / (x * x) + 2.0 * x, d[1] = 1.0 / x;
  }
}
/* A branch-free per-lane if/else. */
BATCHDIFF BD_JVP double u_ifelse(double x, double y) {
  double r;
  if (x != 0.0)
    r = y / x;
  else
    r = y * 3.0;
  return r;
}
static void d_ifelse(double x, double y, int n, double *d) {
  (void)n;
  d[0] = x != 0.0 ? -y / (x * x) : 0.0;
  d[1] = x != 0.0 ? 1.0 / x : 3.0;
}
/* A masked if: its side reads an array parameter, so it is not
 * branch-free (docs/loops.md). */
BATCHDIFF BD_JVP double u_masked(double x, double y, const double a[2]) {
  double r = y;
  if (x != 0.0)
    r = a[1] * y / x;
  return r;
}
static void d_masked(double x, double y, int n, double *d) {
  (void)n; /* a[1] = 2 */
  d[0] = x != 0.0 ? -2.0 * y / (x * x) : 0.0;
  d[1] = x != 0.0 ? 2.0 / x : 1.0;
}
/* Loops: the invariant y / x (hoisted in front of the loop) is used only
 * in lanes that run the body and take the if. */
BATCHDIFF BD_JVP double u_loopif(double x, double y, int n) {
  double s = y;
  for (int i = 0; i < n; i++)
    if (x != 0.0)
      s -= y / x;
  return s;
}
static void d_loopif(double x, double y, int n, double *d) {
  int k = x != 0.0 && n > 0 ? n : 0;
  d[0] = k ? k * y / (x * x) : 0.0;
  d[1] = 1.0 - (k ? k / x : 0.0);
}
/* sqrt(x) at x = 0 (infinite derivative) in a loop that runs zero times. */
BATCHDIFF BD_JVP double u_loopoff(double x, double y, int n) {
  double s = y;
  for (int i = 0; i < n; i++)
    s = s * 0.5 + sqrt(x) * y;
  return s;
}
static void d_loopoff(double x, double y, int n, double *d) {
  double s = y, ds_dx = 0.0, ds_dy = 1.0;
  for (int i = 0; i < n; i++) {
    ds_dx = ds_dx * 0.5 + 0.5 / sqrt(x) * y;
    ds_dy = ds_dy * 0.5 + sqrt(x);
    s = s * 0.5 + sqrt(x) * y;
  }
  d[0] = n > 0 ? ds_dx : 0.0;
  d[1] = ds_dy;
}

typedef void (*deriv_fn)(double, double, int, double *);
typedef struct {
  const char *name;
  deriv_fn deriv;
  /* grad: shadows dx, dy; jvp: tangents tx, ty into dret */
  void (*grad)(size_t, const double *, const double *, const int *, double *,
               double *);
  void (*jvp)(size_t, const double *, const double *, const int *,
              const double *, const double *, double *);
  double special;   /* the x that makes the untaken side infinite */
  int special_runs; /* loops: special lanes run the body too (else 0 times) */
} ucase;

#define ADAPT2(f)                                                              \
  static void g_##f(size_t n, const double *x, const double *y, const int *k,  \
                    double *dx, double *dy) {                                  \
    (void)k;                                                                   \
    f##_grad(n, x, y, NULL, NULL, dx, dy);                                     \
  }                                                                            \
  static void j_##f(size_t n, const double *x, const double *y, const int *k,  \
                    const double *tx, const double *ty, double *dr) {          \
    (void)k;                                                                   \
    f##_jvp(n, x, y, tx, ty, NULL, dr);                                        \
  }
#define ADAPT3(f)                                                              \
  static void g_##f(size_t n, const double *x, const double *y, const int *k,  \
                    double *dx, double *dy) {                                  \
    f##_grad(n, x, y, k, NULL, NULL, dx, dy);                                  \
  }                                                                            \
  static void j_##f(size_t n, const double *x, const double *y, const int *k,  \
                    const double *tx, const double *ty, double *dr) {          \
    f##_jvp(n, x, y, k, tx, ty, NULL, dr);                                     \
  }
ADAPT2(u_tern)
ADAPT2(u_square)
ADAPT2(u_nested)
ADAPT2(u_ifelse)
ADAPT3(u_loopif)
ADAPT3(u_loopoff)

/* a[1] = 2 for every example (stride 2), no shadow for a. */
static const double u_a[2 * 64] = {
#define A2 1.0, 2.0
    A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2,
    A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2,
    A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2,
    A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2, A2,
#undef A2
};
static void g_u_masked(size_t n, const double *x, const double *y, const int *k,
                       double *dx, double *dy) {
  (void)k;
  u_masked_grad(n, x, y, u_a, 2, NULL, NULL, dx, dy, NULL, 0);
}
static void j_u_masked(size_t n, const double *x, const double *y, const int *k,
                       const double *tx, const double *ty, double *dr) {
  (void)k;
  u_masked_jvp(n, x, y, u_a, 2, tx, ty, NULL, 0, NULL, dr);
}

static int close_or_nan(double got, double want) {
  if (isnan(got) || isnan(want))
    return isnan(got) && isnan(want);
  return fabs(got - want) <= 1e-12 * fmax(1.0, fabs(want));
}

/* n examples; lane s and every third one past it get the special x. */
static void run_case(const ucase *c) {
  rng_t r = {0x9e3779b97f4a7c15ull};
  enum { N = 37 };
  for (size_t n = 1; n <= N; n++) {
    for (size_t s = 0; s < n; s++) {
      double *x = gp_alloc(n * sizeof *x), *y = gp_alloc(n * sizeof *y);
      double *tx = gp_alloc(n * sizeof *tx), *ty = gp_alloc(n * sizeof *ty);
      int *k = gp_alloc(n * sizeof *k);
      double *dx = gp_alloc(n * sizeof *dx), *dy = gp_alloc(n * sizeof *dy);
      double *dr = gp_alloc(n * sizeof *dr);
      for (size_t b = 0; b < n; b++) {
        int sp = b >= s && (b - s) % 3 == 0;
        x[b] = sp ? c->special : 0.25 + 3.0 * rng_unit(&r);
        y[b] = -2.0 + 4.0 * rng_unit(&r);
        tx[b] = -1.0 + 2.0 * rng_unit(&r);
        ty[b] = -1.0 + 2.0 * rng_unit(&r);
        /* loops: 0..4 iterations (special lanes: 0 unless special_runs) */
        k[b] = sp && !c->special_runs ? 0 : (int)(rng_u64(&r) % 5);
        dx[b] = dy[b] = dr[b] = 0.0;
      }
      c->grad(n, x, y, k, dx, dy);
      c->jvp(n, x, y, k, tx, ty, dr);
      for (size_t b = 0; b < n; b++) {
        double d[2], one[2] = {0.0, 0.0}, onej = 0.0;
        c->deriv(x[b], y[b], k[b], d);
        double jv = d[0] * tx[b] + d[1] * ty[b];
        if (!close_or_nan(dx[b], d[0]) || !close_or_nan(dy[b], d[1]) ||
            !close_or_nan(dr[b], jv))
          fail_msg("%s n=%zu lane %zu x=%a y=%a k=%d: grad (%a, %a) jvp %a, "
                   "expected (%a, %a) jvp %a",
                   c->name, n, b, x[b], y[b], k[b], dx[b], dy[b], dr[b], d[0],
                   d[1], jv);
        c->grad(1, x + b, y + b, k + b, &one[0], &one[1]);
        c->jvp(1, x + b, y + b, k + b, tx + b, ty + b, &onej);
        if (memcmp(one, (double[2]){dx[b], dy[b]}, sizeof one) ||
            memcmp(&onej, &dr[b], sizeof onej))
          fail_msg("%s n=%zu lane %zu: alone differs from the batch", c->name,
                   n, b);
      }
      gp_reset();
    }
  }
}

#define CASE(f, sp, runs)                                                      \
  static void test_##f(void **state) {                                         \
    (void)state;                                                               \
    static const ucase c = {#f, d_##f, g_u_##f, j_u_##f, sp, runs};            \
    run_case(&c);                                                              \
  }
CASE(tern, INFINITY, 0)
CASE(square, 1e200, 0)
CASE(nested, 0.0, 0)
CASE(ifelse, 0.0, 0)
CASE(masked, 0.0, 0)
CASE(loopif, 0.0, 1)
CASE(loopoff, 0.0, 0)

/* Also the other specials of each case: -inf, a huge x in u_nested. */
static void test_more(void **state) {
  (void)state;
  static const ucase c[] = {
      {"tern-", d_tern, g_u_tern, j_u_tern, -INFINITY, 0},
      {"nested+", d_nested, g_u_nested, j_u_nested, 1e200, 0},
      {"square-", d_square, g_u_square, j_u_square, 1e300, 0},
  };
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
    run_case(&c[i]);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_tern),    cmocka_unit_test(test_square),
      cmocka_unit_test(test_nested),  cmocka_unit_test(test_ifelse),
      cmocka_unit_test(test_masked),  cmocka_unit_test(test_loopif),
      cmocka_unit_test(test_loopoff), cmocka_unit_test(test_more),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_untaken", tests, NULL, NULL);
}
