/* cephes as it is found, with its gotos into blocks (docs/subset.md, goto):
 *   - gamma (gamma.c with NANS and INFINITIES): `small:` at the end, reached
 *     from two loops, then `goto gamnan;` back into
 *     `if (q > 33) { if (x < 0) { ... if (p == q) { gamnan: mtherr(...);
 *     return NAN; } ... } }`; sgngam, the global it writes on every path;
 *   - erfc (ndtr.c): `if (z < -MAXLOG) { under: mtherr(...); if (a < 0)
 *     return 2.0; else return 0.0; }` and later `if (y == 0.0) goto under;`
 *   - incbi's shape (c_newton_under): `goto under;` from before a loop and
 *     from inside it into `if (...) { under: mtherr(...); x = 0.0; goto
 *     done; }`, whose statements leave by a goto to the end;
 *     (its erf for |x| < 1 written as a helper of its own here: with erf
 *     calling erfc back, c_erfc_grad would need the recursive call's
 *     derivative, diff-recursion; tests/exec/test_recursion.c batches the
 *     pair).
 * A goto into a block whose statements from the label on always return (or
 * leave by a goto that could be made where the first goto is) is lowered
 * as a copy of them. NAME_batched against the scalar function
 * (within the math functions' bounds: exp, pow, sin), mtherr's calls
 * (counted, with their arguments hashed) as the scalar loop makes them,
 * NAME_grad against Richardson-extrapolated central differences (check_fd)
 * and, on gamma's x == 2.0 path, against that path's own derivative
 * (gamma_at_two), with a minimum of points checked. */
#include "exec_util.h"

#include "../common/test_filter.h"

#define DOMAIN 1
#define UNDERFLOW 4
static uint64_t reports, report_hash;
static uint64_t text_hash(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  while (*s)
    h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
  return h;
}
/* cephes' mtherr, counting instead of printing. */
int mtherr(char *name, int code) {
  reports++;
  report_hash += text_hash(name) * 31 + (uint64_t)code;
  return 0;
}

/* cephes' polevl, as found. */
static double polevl(double x, double coef[], int N) {
  double ans;
  int i;
  double *p;
  p = coef;
  ans = *p++;
  i = N;
  do
    ans = ans * x + *p++;
  while (--i);
  return (ans);
}
static double p1evl(double x, double coef[], int N) {
  double ans;
  double *p;
  int i;
  p = coef;
  ans = x + *p++;
  i = N - 1;
  do
    ans = ans * x + *p++;
  while (--i);
  return (ans);
}

/* ---- gamma ------------------------------------------------------------- */

static double gP[] = {1.60119522476751861407E-4, 1.19135147006586384913E-3,
                      1.04213797561761569935E-2, 4.76367800457137231464E-2,
                      2.07448227648435975150E-1, 4.94214826801497100753E-1,
                      9.99999999999999996796E-1};
static double gQ[] = {-2.31581873324120129819E-5, 5.39605580493303397842E-4,
                      -4.45641913851797240494E-3, 1.18139785222060435552E-2,
                      3.58236398605498653373E-2,  -2.34591795718243348568E-1,
                      7.14304917030273074085E-2,  1.00000000000000000320E0};
static double STIR[5] = {7.87311395793093628397E-4, -2.29549961613378126380E-4,
                         -2.68132617805781232825E-3, 3.47222221605458667310E-3,
                         8.33333333333482257126E-2};
static double MAXSTIR = 143.01608;
static double SQTPI = 2.50662827463100050242E0;
static double PI = 3.14159265358979323846;
int sgngam = 0;

static double stirf(double x) {
  double y, w, v;
  w = 1.0 / x;
  w = 1.0 + w * polevl(w, STIR, 4);
  y = exp(x);
  if (x > MAXSTIR) { /* Avoid overflow in pow() */
    v = pow(x, 0.5 * x - 0.25);
    y = v * (v / y);
  } else {
    y = pow(x, x - 0.5) / y;
  }
  y = SQTPI * y * w;
  return (y);
}

BATCHDIFF double c_gamma(double x) {
  double p, q, z;
  int i;

  sgngam = 1;
  if (isnan(x))
    return (x);
  if (x == INFINITY)
    return (x);
  if (x == -INFINITY)
    return (NAN);
  q = fabs(x);

  if (q > 33.0) {
    if (x < 0.0) {
      p = floor(q);
      if (p == q) {
      gamnan:
        mtherr("gamma", DOMAIN);
        return (NAN);
      }
      i = p;
      if ((i & 1) == 0)
        sgngam = -1;
      z = q - p;
      if (z > 0.5) {
        p += 1.0;
        z = q - p;
      }
      z = q * sin(PI * z);
      if (z == 0.0) {
        return (sgngam * INFINITY);
      }
      z = fabs(z);
      z = PI / (z * stirf(q));
    } else {
      z = stirf(x);
    }
    return (sgngam * z);
  }

  z = 1.0;
  while (x >= 3.0) {
    x -= 1.0;
    z *= x;
  }

  while (x < 0.0) {
    if (x > -1.E-9)
      goto small;
    z /= x;
    x += 1.0;
  }

  while (x < 2.0) {
    if (x < 1.e-9)
      goto small;
    z /= x;
    x += 1.0;
  }

  if (x == 2.0)
    return (z);

  x -= 2.0;
  p = polevl(x, gP, 6);
  q = polevl(x, gQ, 7);
  return (z * p / q);

small:
  if (x == 0.0) {
    goto gamnan;
  } else
    return (z / ((1.0 + 0.5772156649015329 * x) * x));
}

/* ---- erfc -------------------------------------------------------------- */

double MAXLOG = 7.09782712893383996843E2; /* const.c's, not const */
static double P[] = {2.46196981473530512524E-10, 5.64189564831068821977E-1,
                     7.46321056442269912687E0,   4.86371970985681366614E1,
                     1.96520832956077098242E2,   5.26445194995477358631E2,
                     9.34528527171957607540E2,   1.02755188689515710272E3,
                     5.57535335369399327526E2};
static double Q[] = {1.32281951154744992508E1, 8.67072140885989742329E1,
                     3.54937778887819891062E2, 9.75708501743205489753E2,
                     1.82390916687909736289E3, 2.24633760818710981792E3,
                     1.65666309194161350182E3, 5.57535340817727675546E2};
static double R[] = {5.64189583547755073984E-1, 1.27536670759978104416E0,
                     5.01905042251180477414E0,  6.16021097993053585195E0,
                     7.40974269950448939160E0,  2.97886665372100240670E0};
static double S[] = {2.26052863220117276590E0, 9.39603524938001434673E0,
                     1.20489539808096656605E1, 1.70814450747565897222E1,
                     9.60896809063285878198E0, 3.36907645100081516050E0};
static double T[] = {9.60497373987051638749E0, 9.00260197203842689217E1,
                     2.23200534594684319226E3, 7.00332514112805075473E3,
                     5.55923013010394962768E4};
static double U[] = {3.35617141647503099647E1, 5.21357949780152679795E2,
                     4.59432382970980127987E3, 2.26290000613890934246E4,
                     4.92673942608635921086E4};

/* erf's |x| <= 1 branch (ndtr.c's erf calls erfc beyond). */
static double erf_small(double x) {
  double y, z;
  z = x * x;
  y = x * polevl(z, T, 4) / p1evl(z, U, 5);
  return (y);
}

BATCHDIFF double c_erfc(double a) {
  double p, q, x, y, z;

  if (a < 0.0)
    x = -a;
  else
    x = a;

  if (x < 1.0)
    return (1.0 - erf_small(a));

  z = -a * a;

  if (z < -MAXLOG) {
  under:
    mtherr("erfc", UNDERFLOW);
    if (a < 0)
      return (2.0);
    else
      return (0.0);
  }

  z = exp(z);

  if (x < 8.0) {
    p = polevl(x, P, 8);
    q = p1evl(x, Q, 8);
  } else {
    p = polevl(x, R, 5);
    q = p1evl(x, S, 6);
  }
  y = (z * p) / q;

  if (a < 0)
    y = 2.0 - y;

  if (y == 0.0)
    goto under;

  return (y);
}

/* ---- tests ------------------------------------------------------------- */

static const size_t ns[] = {0,  1,      WF - 1,     WF,         WF + 1, WD - 1,
                            WD, WD + 1, 2 * WF + 3, 2 * WD + 3, 1000,   40000};
#define NNS (sizeof ns / sizeof ns[0])

static int near(double got, double want, double tol) {
  if (isnan(got) || isnan(want))
    return isnan(got) && isnan(want);
  if (isinf(want))
    return got == want;
  return fabs(got - want) <= tol * (1e-300 + fabs(want));
}

/* Points whose gradient a difference quotient resolved to 1e-6 (its
 * rounding error below the relative tolerance), per run(): a minimum is
 * asserted, so that skipping cannot make the check vacuous. */
static size_t fd_checked;
/* Gradients of gamma's x == 2.0 path checked against gamma_at_two. */
static size_t at_two;
/* mtherr's calls in the scalar loops of run(): the gotos were taken. */
static uint64_t scalar_reports;

/* Central differences where the function is smooth around x (steps h and
 * 2h agree to 1e-5), Richardson-extrapolated, (4 d1 - d2) / 3, to cancel
 * the h^2 term (near gamma's poles it alone is 1e-6 of the derivative):
 * relative 1e-6 plus the quotients' own rounding error, the values' last
 * bits over the step (erfc(-13) is 2 - 1e-74, 2.0 at every step, so the
 * quotient is 0 and says nothing of the 1e-72 gradient; it still bounds
 * it, by that rounding error). Where the values are below 2^-1000 the
 * gradient's own adjoints are subnormal (erfc's y = z * p / q at a = 26.9,
 * with MAXLOG out of reach: the adjoint of p, dy / q * z, is a few quanta),
 * and reverse mode loses relative precision there as it would in scalar
 * code: relative 1e-2, and not counted. */
static void check_fd(const char *what, double (*f)(double), double x,
                     double g) {
  double h = 1e-6 * (1.0 + fabs(x));
  double fp = f(x + h), fm = f(x - h), fp2 = f(x + 2 * h), fm2 = f(x - 2 * h);
  double d1 = (fp - fm) / (2 * h);
  double d2 = (fp2 - fm2) / (4 * h);
  double big = fmax(fmax(fabs(fp), fabs(fm)), fmax(fabs(fp2), fabs(fm2)));
  double noise = 4 * (DBL_EPSILON * big + DBL_TRUE_MIN) / h;
  if (!isfinite(d1) || !isfinite(d2) || fabs(d1 - d2) > 1e-5 * fabs(d1) + noise)
    return; /* a kink, a pole, a NaN */
  double dr = (4 * d1 - d2) / 3;
  double tol = big < 0x1p-1000 ? 1e-2 : 1e-6;
  if (!(fabs(g - dr) <= tol * fabs(dr) + noise)) {
    print_error("%s'(%.17g): %.17g, central differences %.17g (+- %.3g)\n",
                what, x, g, dr, tol * fabs(dr) + noise);
    fail();
  }
  fd_checked += tol == 1e-6 && noise <= 1e-6 * fabs(dr);
}

/* gamma's reduction for |x| <= 33 with its derivative carried along
 * (forward mode by hand, the same operations): 1 where it ends at exactly
 * x == 2.0 (x an integer from 1 to 33, or a value that rounds there), where
 * gamma returns the product z. That path's derivative is z's, not the
 * neighbourhood's (which has the polynomials' too), so central differences
 * cannot check it; *dz is what the gradient must be there. */
static int gamma_at_two(double x, double *dz) {
  double z = 1.0, d = 0.0;
  if (!(fabs(x) <= 33.0))
    return 0;
  while (x >= 3.0) {
    x -= 1.0;
    d = d * x + z;
    z *= x;
  }
  while (x < 0.0) {
    if (x > -1.E-9)
      return 0;
    d = (d * x - z) / (x * x);
    z /= x;
    x += 1.0;
  }
  while (x < 2.0) {
    if (x < 1.e-9)
      return 0;
    d = (d * x - z) / (x * x);
    z /= x;
    x += 1.0;
  }
  *dz = d;
  return x == 2.0;
}

/* ---- incbi's shape ----------------------------------------------------- */

/* cephes' incbi reaches its underflow report from before its loop and from
 * inside it: `goto under;` into `if (x <= 0.0) { under: mtherr(...); x =
 * 0.0; goto done; }`, whose statements leave by a goto to `done:` at the
 * end (the only goto to `done:` here: the statements between the loop and
 * the block must not run again after the copy's `goto done`). Here with a
 * Newton iteration for smoothstep(x) = y0. */
BATCHDIFF double c_newton_under(double y0) {
  double x, y, d;
  int i;
  if (y0 <= 0.0)
    goto under;
  if (y0 >= 1.0)
    return 1.0;
  x = 0.5;
  for (i = 0; i < 50; i++) {
    y = x * x * (3.0 - 2.0 * x) - y0;
    d = 6.0 * x * (1.0 - x);
    if (d < 1e-12)
      goto under;
    x -= y / d;
    if (fabs(y) < 1e-15)
      break;
  }
  if (x < 1e-3) {
  under:
    mtherr("c_newton_under", UNDERFLOW);
    x = 0.0;
    goto done;
  }
  x = x * (1.0 - 0.25 * y0 * y0);
done:
  return x;
}

typedef double (*fn1)(double);
typedef void (*bfn1)(size_t, const double *, double *);
typedef void (*gfn1)(size_t, const double *, double *, const double *,
                     double *);

static void run(const char *what, fn1 f, bfn1 fb, gfn1 fg, rng_t *rng,
                double (*gen)(rng_t *)) {
  fd_checked = at_two = 0;
  scalar_reports = 0;
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *d = gp_alloc(n * 8);
    int *sg = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++)
      x[e] = gen(rng), d[e] = 0.0;
    gp_seal(x);
    reports = report_hash = 0;
    for (size_t e = 0; e < n; e++) {
      r2[e] = f(x[e]);
      sg[e] = sgngam;
    }
    uint64_t want = reports, want_hash = report_hash;
    scalar_reports += want;
    reports = report_hash = 0;
    sgngam = 12345;
    fb(n, x, r);
    if (reports != want || report_hash != want_hash) {
      print_error("%s_batched n=%zu: %" PRIu64 " reports, want %" PRIu64 "\n",
                  what, n, reports, want);
      fail();
    }
    if (f == c_gamma && n > 0 && sgngam != sg[n - 1]) {
      print_error("sgngam after n=%zu: %d, want %d\n", n, sgngam, sg[n - 1]);
      fail();
    }
    reports = report_hash = 0;
    fg(n, x, r, NULL, d);
    if (reports != want || report_hash != want_hash) {
      print_error("%s_grad n=%zu: %" PRIu64 " reports, want %" PRIu64 "\n",
                  what, n, reports, want);
      fail();
    }
    for (size_t e = 0; e < n; e++) {
      if (!near(r[e], r2[e], 1e-14)) {
        print_error("%s(%.17g): %.17g, want %.17g\n", what, x[e], r[e], r2[e]);
        fail();
      }
      double dz;
      if (e >= 2000)
        continue;
      if (f == c_gamma && gamma_at_two(x[e], &dz)) {
        if (!close_to(d[e], dz, 1e-13)) {
          print_error("%s'(%.17g) (the x == 2.0 path): %.17g, want %.17g\n",
                      what, x[e], d[e], dz);
          fail();
        }
        at_two++;
        continue;
      }
      check_fd(what, f, x[e], d[e]);
    }
    gp_reset();
  }
}

/* Integers (poles, gamnan), zero and tiny values (small), both sides of
 * 33, the loops' ranges. */
static double gen_gamma(rng_t *r) {
  switch (rng_below(r, 8)) {
  case 0:
    return -(double)rng_below(r, 60);
  case 1:
    return rng_below(r, 2) ? 0.0 : -0.0;
  case 2:
    return rng_range(r, -1e-9, 1e-9);
  case 3:
    return rng_range(r, -60.0, -33.0);
  case 4:
    return rng_range(r, 33.0, 170.0);
  case 5:
    return gen_d(r) * 1e-300 + (double)(int)rng_range(r, -5, 5);
  default:
    return rng_range(r, -33.0, 33.0);
  }
}

/* Both tails, |x| < 1, 8 on both sides, the underflow. */
static double gen_erfc(rng_t *r) {
  switch (rng_below(r, 5)) {
  case 0:
    return rng_range(r, -1.0, 1.0);
  case 1:
    return rng_range(r, 25.0, 30.0) * (rng_below(r, 2) ? 1 : -1);
  case 2:
    return gen_d(r);
  default:
    return rng_range(r, -10.0, 10.0);
  }
}

/* What run() checked: at least \p min_fd gradients resolved by central
 * differences, \p min_two on gamma's x == 2.0 path, one mtherr call. */
static void expect_checked(const char *what, size_t min_fd, size_t min_two) {
  print_message("%s: %zu gradients checked by central differences, %zu on "
                "the x == 2.0 path, %" PRIu64 " mtherr calls\n",
                what, fd_checked, at_two, scalar_reports);
  if (fd_checked < min_fd || at_two < min_two || scalar_reports == 0) {
    print_error("%s: too few points checked (want %zu and %zu)\n", what, min_fd,
                min_two);
    fail();
  }
}

static void t_gamma(void **state) {
  (void)state;
  rng_t rng = {name_seed("cephes_gamma")};
  run("c_gamma", c_gamma, c_gamma_batched, c_gamma_grad, &rng, gen_gamma);
  expect_checked("c_gamma", 1000, 50);
}

static void t_erfc(void **state) {
  (void)state;
  rng_t rng = {name_seed("cephes_erfc")};
  run("c_erfc", c_erfc, c_erfc_batched, c_erfc_grad, &rng, gen_erfc);
  expect_checked("c_erfc", 1000, 0);
  /* With MAXLOG out of reach, exp(-a * a) underflows to 0 and y == 0
   * takes the backward goto into the block. */
  MAXLOG = 1e308;
  run("c_erfc", c_erfc, c_erfc_batched, c_erfc_grad, &rng, gen_erfc);
  expect_checked("c_erfc (MAXLOG 1e308)", 1000, 0);
  MAXLOG = 7.09782712893383996843E2;
}

/* Both gotos to `under:` (y0 <= 0; tiny y0, whose Newton steps reach
 * d < 1e-12), the block entered in order (x < 1e-3), y0 >= 1, the rest. */
static double gen_newton(rng_t *r) {
  switch (rng_below(r, 6)) {
  case 0:
    return rng_range(r, -0.5, 0.0);
  case 1:
    return rng_range(r, 0.0, 1e-5) * rng_range(r, 0.0, 1e-5);
  case 2:
    return rng_range(r, 1.0, 1.5);
  default:
    return rng_range(r, 0.0, 1.0);
  }
}

static void t_newton_under(void **state) {
  (void)state;
  rng_t rng = {name_seed("cephes_newton_under")};
  run("c_newton_under", c_newton_under, c_newton_under_batched,
      c_newton_under_grad, &rng, gen_newton);
  expect_checked("c_newton_under", 1000, 0);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_gamma),
      cmocka_unit_test(t_erfc),
      cmocka_unit_test(t_newton_under),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_cephes_goto", tests, NULL, NULL);
}
