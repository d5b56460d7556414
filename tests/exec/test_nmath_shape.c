/* Numeric C in the shape of R's standalone math library (nmath), annotated
 * as it is written there (the functions are this test's own):
 *   - a warning macro whose body only runs for some codes: `{ if (code >
 *     DOMAIN) { char *msg = ""; switch (code) { ... } report(msg, who); }
 *     }`, and `WARN_return_NAN`, which passes the one code it never runs
 *     for: the branch whose condition is a constant is not lowered (as
 *     clang does not emit it), so what it holds need not be supported;
 *   - `int give_log`, `lower_tail`, `log_p` flags that differ per example,
 *     boundary macros of quantile functions, R_FINITE/ISNAN macros;
 *   - the same macro where it runs (a code above DOMAIN), whose `msg` is a
 *     local pointer to string literals passed to the reporter, and such
 *     pointers chosen per example (`?:`, assignments in branches): the
 *     reporter gets each example's literal, once per example that calls it;
 *   - a constant-true condition whose else holds a long double, and a
 *     constant-false block entered by a goto (it is lowered: it holds a
 *     label).
 * NAME_batched against the scalar function bit for bit (guard pages, every
 * example's flags drawn on their own), NAME_grad against central
 * differences of the scalar function at >= 1000 points per function. */
#include "exec_util.h"

#include <float.h>

#include "../common/test_filter.h"

/* ---- the reporter (what nmath's MATHLIB_WARNING prints) ----------------- */

static uint64_t reports, report_hash;
static uint64_t text_hash(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  while (*s)
    h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
  return h;
}
void nm_report(const char *fmt, const char *who) {
  reports++;
  report_hash += text_hash(fmt) * 31 + text_hash(who);
}

/* ---- macros in nmath's shape --------------------------------------------- */

#define NM_DOMAIN 1
#define NM_RANGE 2
#define NM_NOCONV 4
#define NM_PRECISION 8

#define NM_WARNING(code, who)                                                  \
  {                                                                            \
    if (code > NM_DOMAIN) {                                                    \
      char *msg = "";                                                          \
      switch (code) {                                                          \
      case NM_DOMAIN:                                                          \
        msg = "argument out of domain in '%s'\n";                              \
        break;                                                                 \
      case NM_RANGE:                                                           \
        msg = "value out of range in '%s'\n";                                  \
        break;                                                                 \
      case NM_NOCONV:                                                          \
        msg = "no convergence in '%s'\n";                                      \
        break;                                                                 \
      case NM_PRECISION:                                                       \
        msg = "full precision may not have been reached in '%s'\n";            \
        break;                                                                 \
      }                                                                        \
      nm_report(msg, who);                                                     \
    }                                                                          \
  }
#define NM_WARN_return_NAN                                                     \
  {                                                                            \
    NM_WARNING(NM_DOMAIN, "");                                                 \
    return NAN;                                                                \
  }
#define NM_ISNAN(x) (isnan(x) != 0)
#define NM_FINITE(x) isfinite(x)
#define NM_D0 (give_log ? -INFINITY : 0.)
#define NM_LN2 0.693147180559945309417232121458

/* Quantile boundaries, for flags lower_tail and log_p. */
#define NM_Q_P01_BOUNDARIES(p, LEFT, RIGHT)                                    \
  if (log_p) {                                                                 \
    if (p > 0)                                                                 \
      NM_WARN_return_NAN;                                                      \
    if (p == 0)                                                                \
      return lower_tail ? RIGHT : LEFT;                                        \
    if (p == -INFINITY)                                                        \
      return lower_tail ? LEFT : RIGHT;                                        \
  } else {                                                                     \
    if (p < 0 || p > 1)                                                        \
      NM_WARN_return_NAN;                                                      \
    if (p == 0)                                                                \
      return lower_tail ? LEFT : RIGHT;                                        \
    if (p == 1)                                                                \
      return lower_tail ? RIGHT : LEFT;                                        \
  }

/* ---- annotated functions ------------------------------------------------- */

/* A Laplace density with a give_log flag. */
BATCHDIFF double nm_dlaplace(double x, double m, double b, int give_log) {
  if (NM_ISNAN(x) || NM_ISNAN(m) || NM_ISNAN(b))
    return x + m + b;
  if (b < 0)
    NM_WARN_return_NAN;
  if (!NM_FINITE(b))
    return NM_D0;
  if (b == 0)
    return (x == m) ? INFINITY : NM_D0;
  double z = fabs(x - m) / b;
  if (!NM_FINITE(z))
    return NM_D0;
  if (give_log)
    return -(NM_LN2 + z + log(b));
  return 0.5 * exp(-z) / b;
}

/* A logistic quantile with lower_tail and log_p flags. */
BATCHDIFF double nm_qlogistic(double p, double m, double s, int lower_tail,
                              int log_p) {
  if (NM_ISNAN(p) || NM_ISNAN(m) || NM_ISNAN(s))
    return p + m + s;
  NM_Q_P01_BOUNDARIES(p, -INFINITY, INFINITY);
  if (s < 0.)
    NM_WARN_return_NAN;
  if (s == 0.)
    return m;
  double q; /* log(P / (1 - P)) of the lower-tail probability P */
  if (log_p)
    q = lower_tail ? p - log1p(-exp(p)) : log1p(-exp(p)) - p;
  else
    q = log(lower_tail ? (p / (1. - p)) : ((1. - p) / p));
  return m + s * q;
}

/* A constant-true condition: its else (long double, not supported in a
 * batch function) never runs. */
BATCHDIFF double nm_spacing(double x) {
  if (DBL_MANT_DIG == 53 && FLT_RADIX == 2)
    return fabs(x) * 0x1p-52 + 0x1p-1074;
  else {
    long double w = x;
    return (double)(w * LDBL_EPSILON);
  }
}

/* A constant-false block entered by a goto: lowered (it holds a label). */
BATCHDIFF double nm_entered(double x) {
  if (x > 4.0)
    goto big;
  if (0) {
  big:
    return 0.5 * x * x - 4.0;
  }
  return x;
}

/* A live warning (the code's message, chosen by a switch on a constant),
 * and messages chosen per example: by '?:', and by assignments in branches
 * (the reporter gets each example's literal). */
BATCHDIFF double nm_plogis_far(double x, double s, int lower_tail, int log_p) {
  if (NM_ISNAN(x) || NM_ISNAN(s))
    return x + s;
  if (s <= 0)
    NM_WARN_return_NAN;
  double z = x / s;
  const char *side = z < 0 ? "left" : "right";
  if (fabs(z) > 30) {
    NM_WARNING(NM_PRECISION, "nm_plogis_far");
    nm_report("far out in the %s tail\n", side);
  }
  char *why;
  if (z > 700)
    why = "overflow in '%s'\n";
  else if (z < -700)
    why = "underflow in '%s'\n";
  else
    why = "";
  if (fabs(z) > 700)
    nm_report(why, "nm_plogis_far");
  double e = lower_tail ? -z : z; /* P = 1 / (1 + exp(e)) */
  double t = exp(-fabs(e));
  if (log_p)
    return e > 0 ? -(e + log1p(t)) : -log1p(t);
  return e > 0 ? t / (1 + t) : 1 / (1 + t);
}

/* ---- the harness ----------------------------------------------------------
 */

/* An example: up to 3 doubles and 2 flags. */
typedef struct {
  const char *name;
  int nd, nk;
  double (*scalar)(const double *a, const int *k);
  void (*batched)(size_t n, double *const *A, int *const *K, double *r);
  void (*grad)(size_t n, double *const *A, int *const *K, double *r,
               double *const *D);
  void (*gen)(rng_t *r, double *a, int *k);
  size_t min_fd; /* gradients to resolve by central differences */
  /* 0: bit for bit; else the relative error allowed (log, exp, log1p
   * within their bounds of glibc's, docs/runtime.md) */
  double tol;
} ncase;

static int near(double got, double want, double tol) {
  if (isnan(got) || isnan(want))
    return isnan(got) && isnan(want);
  if (tol == 0 || isinf(want))
    return CMP_BITS(got, want);
  return fabs(got - want) <= tol * (1e-300 + fabs(want));
}

#define S_ARGS3 a[0], a[1], a[2]
static double s_dlaplace(const double *a, const int *k) {
  return nm_dlaplace(S_ARGS3, k[0]);
}
static void b_dlaplace(size_t n, double *const *A, int *const *K, double *r) {
  nm_dlaplace_batched(n, A[0], A[1], A[2], K[0], r);
}
static void g_dlaplace(size_t n, double *const *A, int *const *K, double *r,
                       double *const *D) {
  nm_dlaplace_grad(n, A[0], A[1], A[2], K[0], r, NULL, D[0], D[1], D[2]);
}
static void gen_dlaplace(rng_t *r, double *a, int *k) {
  a[0] = rng_range(r, -6.0, 6.0);
  a[1] = rng_range(r, -2.0, 2.0);
  a[2] = rng_range(r, 0.05, 3.0);
  k[0] = rng_below(r, 2);
  switch (rng_below(r, 16)) {
  case 0:
    a[2] = -a[2]; /* the warning's NaN */
    break;
  case 1:
    a[2] = 0.0, a[0] = rng_below(r, 2) ? a[1] : a[0];
    break;
  case 2:
    a[2] = INFINITY;
    break;
  case 3:
    a[rng_below(r, 3)] = NAN;
    break;
  case 4: /* exp(-z) underflows (z overflowing would make the reverse
           * sweep's 0 * inf, docs/abi.md) */
    a[2] = 1e-300;
    break;
  }
}

static double s_qlogistic(const double *a, const int *k) {
  return nm_qlogistic(S_ARGS3, k[0], k[1]);
}
static void b_qlogistic(size_t n, double *const *A, int *const *K, double *r) {
  nm_qlogistic_batched(n, A[0], A[1], A[2], K[0], K[1], r);
}
static void g_qlogistic(size_t n, double *const *A, int *const *K, double *r,
                        double *const *D) {
  nm_qlogistic_grad(n, A[0], A[1], A[2], K[0], K[1], r, NULL, D[0], D[1], D[2]);
}
static void gen_qlogistic(rng_t *r, double *a, int *k) {
  k[0] = rng_below(r, 2);
  k[1] = rng_below(r, 2);
  a[0] = rng_range(r, 0.01, 0.99);
  if (k[1])
    a[0] = log(a[0]);
  a[1] = rng_range(r, -3.0, 3.0);
  a[2] = rng_range(r, 0.1, 4.0);
  switch (rng_below(r, 12)) {
  case 0: /* outside [0, 1] (log: above 0): NaN */
    a[0] = k[1] ? rng_range(r, 0.01, 2.0) : rng_range(r, 1.01, 3.0);
    break;
  case 1: /* the boundaries */
    a[0] = k[1] ? (rng_below(r, 2) ? 0.0 : -INFINITY) : rng_below(r, 2);
    break;
  case 2:
    a[2] = -a[2];
    break;
  case 3:
    a[2] = 0.0;
    break;
  case 4:
    a[rng_below(r, 3)] = NAN;
    break;
  }
}

static double s_spacing(const double *a, const int *k) {
  (void)k;
  return nm_spacing(a[0]);
}
static void b_spacing(size_t n, double *const *A, int *const *K, double *r) {
  (void)K;
  nm_spacing_batched(n, A[0], r);
}
static void g_spacing(size_t n, double *const *A, int *const *K, double *r,
                      double *const *D) {
  (void)K;
  nm_spacing_grad(n, A[0], r, NULL, D[0]);
}
static void gen_wide(rng_t *r, double *a, int *k) {
  (void)k;
  a[0] = rng_below(r, 8) ? rng_range(r, -8.0, 8.0) : gen_d(r);
}

static double s_entered(const double *a, const int *k) {
  (void)k;
  return nm_entered(a[0]);
}
static void b_entered(size_t n, double *const *A, int *const *K, double *r) {
  (void)K;
  nm_entered_batched(n, A[0], r);
}
static void g_entered(size_t n, double *const *A, int *const *K, double *r,
                      double *const *D) {
  (void)K;
  nm_entered_grad(n, A[0], r, NULL, D[0]);
}

static double s_plogis_far(const double *a, const int *k) {
  return nm_plogis_far(a[0], a[1], k[0], k[1]);
}
static void b_plogis_far(size_t n, double *const *A, int *const *K, double *r) {
  nm_plogis_far_batched(n, A[0], A[1], K[0], K[1], r);
}
static void g_plogis_far(size_t n, double *const *A, int *const *K, double *r,
                         double *const *D) {
  nm_plogis_far_grad(n, A[0], A[1], K[0], K[1], r, NULL, D[0], D[1]);
}
static void gen_plogis_far(rng_t *r, double *a, int *k) {
  k[0] = rng_below(r, 2);
  k[1] = rng_below(r, 2);
  a[1] = rng_range(r, 0.2, 3.0);
  switch (rng_below(r, 8)) {
  case 0: /* past 30 (a warning and a report) */
    a[0] = a[1] * rng_range(r, 30.5, 60.0) * (rng_below(r, 2) ? 1 : -1);
    break;
  case 1: /* past 700 (three reports) */
    a[0] = a[1] * rng_range(r, 701.0, 900.0) * (rng_below(r, 2) ? 1 : -1);
    break;
  case 2:
    a[1] = rng_below(r, 2) ? -a[1] : 0.0;
    a[0] = rng_range(r, -5.0, 5.0);
    break;
  case 3:
    a[rng_below(r, 2)] = NAN;
    break;
  default:
    a[0] = rng_range(r, -20.0, 20.0);
  }
}

static const ncase cases[] = {
    {"nm_dlaplace", 3, 1, s_dlaplace, b_dlaplace, g_dlaplace, gen_dlaplace,
     1000, 1e-14},
    {"nm_qlogistic", 3, 2, s_qlogistic, b_qlogistic, g_qlogistic, gen_qlogistic,
     1000, 1e-13},
    {"nm_spacing", 1, 0, s_spacing, b_spacing, g_spacing, gen_wide, 1000, 0},
    {"nm_entered", 1, 0, s_entered, b_entered, g_entered, gen_wide, 1000, 0},
    {"nm_plogis_far", 2, 2, s_plogis_far, b_plogis_far, g_plogis_far,
     gen_plogis_far, 1000, 1e-13},
};

/* d f / d a[j] at a by central differences; 0 if unresolved (a kink, a
 * boundary, rounding): two step sizes must agree. */
static int central(const ncase *c, const double *a, const int *k, int j,
                   double *fd) {
  double h = 1e-5 * fmax(1.0, fabs(a[j])), e[2];
  for (int s = 0; s < 2; s++, h *= 0.25) {
    double p[3], m[3];
    memcpy(p, a, sizeof p);
    memcpy(m, a, sizeof m);
    p[j] += h;
    m[j] -= h;
    e[s] = (c->scalar(p, k) - c->scalar(m, k)) / (2 * h);
  }
  if (!isfinite(e[0]) || !isfinite(e[1]) ||
      fabs(e[0] - e[1]) > 1e-6 * (fabs(e[1]) + 1e-3))
    return 0;
  *fd = e[1];
  return 1;
}

static const size_t ns[] = {0, 1, WD - 1, WD, WD + 1, 2 * WF + 3, 4099};
#define NNS (sizeof ns / sizeof ns[0])

static void run_case(const ncase *c) {
  rng_t rng = {name_seed(c->name)};
  size_t fd_checked = 0;
  uint64_t scalar_reports = 0;
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *A[3], *D[3];
    int *K[2];
    for (int j = 0; j < 3; j++)
      A[j] = gp_alloc(n * sizeof(double)), D[j] = gp_alloc(n * sizeof(double));
    for (int j = 0; j < 2; j++)
      K[j] = gp_alloc(n * sizeof(int));
    double *r = gp_alloc(n * sizeof(double)),
           *rg = gp_alloc(n * sizeof(double));
    double *want = malloc((n + 1) * sizeof(double));
    for (size_t e = 0; e < n; e++) {
      double a[3] = {0, 0, 0};
      int k[2] = {0, 0};
      c->gen(&rng, a, k);
      for (int j = 0; j < 3; j++)
        A[j][e] = a[j], D[j][e] = 0.0;
      for (int j = 0; j < 2; j++)
        K[j][e] = k[j];
    }
    for (int j = 0; j < 3; j++)
      gp_seal(A[j]);
    for (int j = 0; j < 2; j++)
      gp_seal(K[j]);
    reports = report_hash = 0;
    for (size_t e = 0; e < n; e++) {
      double a[3] = {A[0][e], A[1][e], A[2][e]};
      int k[2] = {K[0][e], K[1][e]};
      want[e] = c->scalar(a, k);
    }
    uint64_t want_reports = reports, want_hash = report_hash;
    scalar_reports += want_reports;
    reports = report_hash = 0;
    c->batched(n, A, K, r);
    if (reports != want_reports || report_hash != want_hash) {
      print_error("%s_batched n=%zu: %" PRIu64 " reports, want %" PRIu64 "\n",
                  c->name, n, reports, want_reports);
      fail();
    }
    reports = report_hash = 0;
    c->grad(n, A, K, rg, D);
    if (reports != want_reports || report_hash != want_hash) {
      print_error("%s_grad n=%zu: %" PRIu64 " reports, want %" PRIu64 "\n",
                  c->name, n, reports, want_reports);
      fail();
    }
    for (size_t e = 0; e < n; e++) {
      double a[3] = {A[0][e], A[1][e], A[2][e]};
      int k[2] = {K[0][e], K[1][e]};
      if (!near(r[e], want[e], c->tol) || !CMP_BITS(rg[e], r[e])) {
        print_error("%s(%.17g, %.17g, %.17g, %d, %d): batched %.17g, grad's "
                    "%.17g, want %.17g\n",
                    c->name, a[0], a[1], a[2], k[0], k[1], r[e], rg[e],
                    want[e]);
        fail();
      }
      if (!isfinite(want[e]))
        continue;
      for (int j = 0; j < c->nd; j++) {
        double fd;
        if (!central(c, a, k, j, &fd))
          continue;
        fd_checked++;
        if (!(fabs(D[j][e] - fd) <= 1e-6 * (fabs(fd) + 1e-3))) {
          print_error("%s(%.17g, %.17g, %.17g, %d, %d): d/da%d %.17g, central "
                      "differences %.17g\n",
                      c->name, a[0], a[1], a[2], k[0], k[1], j, D[j][e], fd);
          fail();
        }
      }
    }
    free(want);
    gp_reset();
  }
  print_message("%s: %zu gradients checked by central differences, %" PRIu64
                " reports\n",
                c->name, fd_checked, scalar_reports);
  if (fd_checked < c->min_fd) {
    print_error("%s: too few gradients checked (want %zu)\n", c->name,
                c->min_fd);
    fail();
  }
}

static void t_cases(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    run_case(&cases[i]);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_cases),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_nmath_shape", tests, NULL, NULL);
}
