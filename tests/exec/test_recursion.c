/* Recursion (docs/calls.md, "Recursion"): a call of a function whose body
 * is being inlined already is made once per example on the scalar function,
 * as calls of outside functions are (the lanes that are on, in lane order,
 * on the calling thread):
 *   - cephes ndtr.c's erf and erfc as written (c_ names; built again with
 *     -DCEPHES_NAMES as erf and erfc, declared by the file so that their
 *     callers wait for the bodies): erfc calls erf for |x| < 1, erf calls
 *     erfc for |x| > 1; in each generated function one is inlined and the
 *     call that closes the cycle is on a path no example takes (batch only:
 *     its value would need a derivative, diagnostics case diff-recursion);
 *   - mutual recursion taken by every example of depth > 0 (even_part and
 *     odd_part: the call that closes the cycle is two helpers down);
 *   - direct recursion of the annotated function, of varying depth (rsum);
 *   - a helper with two recursive calls (Hermite polynomials);
 *   - in BATCHDIFF functions, a recursive helper of integers (fact(k)), whose
 *     value is a constant for the gradient, and a recursive value that is
 *     only compared (gate).
 * Every n of test_ns and 40000, inputs and outputs at guard pages. Results
 * bit for bit against the scalar loop (erf and erfc within 2 ULP where the
 * batched code runs the runtime's exp), the calls of note() (made by the
 * recursive functions, so by every scalar call) counted and hashed as the
 * scalar loop makes them, gradients against closed forms. */
#include "exec_util.h"
#ifdef CEPHES_NAMES
#define c_erf erf
#define c_erfc erfc
#define c_erf_batched erf_batched
#define c_erfc_batched erfc_batched
#endif

#include "../common/test_filter.h"

/* ---- the calls' record --------------------------------------------------- */

static uint64_t calls, hash;
/* note()'s calls in compare()'s scalar loops: the recursive paths ran. */
static uint64_t scalar_calls;

static uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  return h;
}
static uint64_t text(const char *s) {
  uint64_t h = 1469598103934665603ULL;
  while (*s)
    h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
  return h;
}
/* Called once per example where the string literal is passed (a call of
 * an outside function); counts and hashes (in any order) its calls. */
int note(const char *what, int k) {
  calls++;
  hash += mix(text(what) ^ mix((uint64_t)(uint32_t)k));
  return 0;
}
#define UNDERFLOW 4
int mtherr(char *name, int code) { return note(name, code); }

/* ---- cephes erf and erfc (ndtr.c), as written ---------------------------- */

double c_erf(double x);
double c_erfc(double a);

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

double MAXLOG = 7.09782712893383996843E2;
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

BD_BATCH double c_erfc(double a) {
  double p, q, x, y, z;

  if (a < 0.0)
    x = -a;
  else
    x = a;

  if (x < 1.0)
    return (1.0 - c_erf(a));

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

BD_BATCH double c_erf(double x) {
  double y, z;

  if (fabs(x) > 1.0)
    return (1.0 - c_erfc(x));
  z = x * x;
  y = x * polevl(z, T, 4) / p1evl(z, U, 5);
  return (y);
}

/* ---- recursion every deep example takes ---------------------------------- */

/* Mutual: alt -> even_part -> odd_part -> even_part (once per example). */
static double odd_part(double x, int k);
static double even_part(double x, int k) {
  note("even", k);
  return k <= 0 ? 1.0 : 1.0 + x * odd_part(x, k - 1);
}
static double odd_part(double x, int k) {
  return k <= 0 ? x : x - even_part(x * 0.5, k - 1);
}
BD_BATCH double alt(double x, int k) { return even_part(x, k) * 0.25; }

/* Direct: the annotated function calls itself. */
BD_BATCH double rsum(double x, int k) {
  note("rsum", k);
  if (k <= 0)
    return 1.0;
  return 1.0 + x * rsum(x, k - 1) / (k + 1);
}

/* Two recursive calls per level. */
static double hermite(int n, double x) {
  note("hermite", n);
  if (n == 0)
    return 1.0;
  if (n == 1)
    return 2.0 * x;
  return 2.0 * x * hermite(n - 1, x) - 2.0 * (n - 1) * hermite(n - 2, x);
}
BD_BATCH double herm(double x, int n) { return hermite(n, x) / (1.0 + x * x); }

/* ---- diff: recursive values that need no derivative ---------------------- */

static double fact(int k) {
  note("fact", k);
  return k <= 1 ? 1.0 : k * fact(k - 1);
}

/* x^k / k!: fact(k) is a constant for the gradient. */
BATCHDIFF double term(double x, int k) {
  double p = 1.0;
  for (int i = 0; i < k; i++)
    p *= x;
  return p / fact(k);
}

/* rsum's value is only compared. */
BATCHDIFF double gate(double x, int k) {
  if (rsum(x, k) > 1.5)
    return x * x;
  return -3.0 * x;
}

/* ---- tests --------------------------------------------------------------- */

static const size_t ns[] = {0,  1,      WF - 1,     WF,         WF + 1, WD - 1,
                            WD, WD + 1, 2 * WF + 3, 2 * WD + 3, 1000,   40000};
#define NNS (sizeof ns / sizeof ns[0])

typedef void (*bfn)(size_t, const double *, const int *, double *);

/* f(x, k) against f_batched for every n: bits (\p ulps 0) or ULPs, and
 * note()'s calls. */
static void compare(const char *what, double (*f)(double, int), bfn fb,
                    const double *xs, const int *ks, size_t n, double ulps) {
  double *r = gp_alloc(n * sizeof(double));
  double *want = malloc((n + 1) * sizeof(double));
  calls = hash = 0;
  for (size_t e = 0; e < n; e++)
    want[e] = f(xs[e], ks[e]);
  uint64_t want_calls = calls, want_hash = hash;
  scalar_calls += want_calls;
  calls = hash = 0;
  fb(n, xs, ks, r);
  if (calls != want_calls || hash != want_hash) {
    print_error("%s_batched n=%zu: %" PRIu64 " calls of note, want %" PRIu64
                " (or other arguments)\n",
                what, n, calls, want_calls);
    fail();
  }
  for (size_t e = 0; e < n; e++) {
    int same = ulps == 0 ? same_bits_or_nan(&r[e], &want[e], sizeof r[e], 1)
                         : ULP_DIST(r[e], want[e]) <= ulps;
    if (!same) {
      print_error("%s(%.17g, %d): %a, want %a\n", what, xs[e], ks[e], r[e],
                  want[e]);
      fail();
    }
  }
  free(want);
}

static double s_erf(double x, int k);
static double gen_small(rng_t *r);

/* Inputs at guard pages: x from \p gen, k in [0, kmax). */
static void run(const char *what, double (*f)(double, int), bfn fb,
                double (*gen)(rng_t *), int kmax, double ulps) {
  rng_t rng = {name_seed(what)};
  scalar_calls = 0;
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * sizeof(double));
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      x[e] = gen(&rng);
      k[e] = (int)rng_below(&rng, (uint64_t)kmax);
    }
    gp_seal(x);
    gp_seal(k);
    compare(what, f, fb, x, k, n, ulps);
    gp_reset();
  }
  if (f != s_erf && gen != gen_small && scalar_calls == 0) {
    print_error("%s: no calls of note or mtherr\n", what);
    fail();
  }
}

static double gen_unit(rng_t *r) { return rng_range(r, -1.5, 1.5); }
static double gen_small(rng_t *r) { return rng_range(r, -1.0, 1.0); }
static double gen_wide(rng_t *r) {
  return rng_below(r, 8) ? rng_range(r, -4.0, 4.0) : gen_d(r);
}

/* erf and erfc take one argument: wrap them in the (x, k) shape. */
static double s_erf(double x, int k) { return (void)k, c_erf(x); }
static double s_erfc(double x, int k) { return (void)k, c_erfc(x); }
static void b_erf(size_t n, const double *x, const int *k, double *r) {
  (void)k;
  c_erf_batched(n, x, r);
}
static void b_erfc(size_t n, const double *x, const int *k, double *r) {
  (void)k;
  c_erfc_batched(n, x, r);
}
/* Both tails, |x| < 1 (bit for bit there), 8 on both sides, underflow. */
static double gen_erf(rng_t *r) {
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

static void t_erf_erfc(void **state) {
  (void)state;
  run("c_erf", s_erf, b_erf, gen_erf, 1, 2);
  run("c_erfc", s_erfc, b_erfc, gen_erf, 1, 2);
  /* Where no exp runs in the batched code, bit for bit. */
  run("c_erf_small", s_erf, b_erf, gen_small, 1, 0);
  run("c_erfc_small", s_erfc, b_erfc, gen_small, 1, 0);
  /* y == 0 takes the goto back into the underflow block. */
  MAXLOG = 1e308;
  run("c_erfc_under", s_erfc, b_erfc, gen_erf, 1, 2);
  MAXLOG = 7.09782712893383996843E2;
}

static void t_mutual(void **state) {
  (void)state;
  run("alt", alt, alt_batched, gen_wide, 9, 0);
}

static void t_direct(void **state) {
  (void)state;
  run("rsum", rsum, rsum_batched, gen_wide, 12, 0);
}

static void t_two_calls(void **state) {
  (void)state;
  run("herm", herm, herm_batched, gen_wide, 10, 0);
}

/* term and gate: values bit for bit, gradients against closed forms (the
 * same path: gate's branch is the scalar one). */
static void t_diff(void **state) {
  (void)state;
  rng_t rng = {name_seed("recursion_diff")};
  run("term", term, term_batched, gen_wide, 15, 0);
  run("gate", gate, gate_batched, gen_unit, 6, 0);
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * sizeof(double)), *r = gp_alloc(n * sizeof(double));
    double *d = gp_alloc(n * sizeof(double));
    int *k = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -3.0, 3.0);
      k[e] = (int)rng_below(&rng, 15);
    }
    gp_seal(x);
    gp_seal(k);
    memset(d, 0, n * sizeof(double));
    term_grad(n, x, k, r, NULL, d);
    for (size_t e = 0; e < n; e++) {
      double want = 0.0, f = 1.0;
      for (int i = 1; i <= k[e]; i++)
        f *= i;
      if (k[e] > 0)
        want = k[e] * pow(x[e], k[e] - 1) / f;
      if (!close_to(d[e], want, 1e-13)) {
        print_error("term'(%.17g, %d): %.17g, want %.17g\n", x[e], k[e], d[e],
                    want);
        fail();
      }
    }
    memset(d, 0, n * sizeof(double));
    calls = hash = 0;
    for (size_t e = 0; e < n; e++)
      gate(x[e], k[e]);
    uint64_t want_calls = calls, want_hash = hash;
    calls = hash = 0;
    gate_grad(n, x, k, r, NULL, d);
    if (calls != want_calls || hash != want_hash) {
      print_error("gate_grad n=%zu: %" PRIu64 " calls, want %" PRIu64 "\n", n,
                  calls, want_calls);
      fail();
    }
    for (size_t e = 0; e < n; e++) {
      double want = rsum(x[e], k[e]) > 1.5 ? 2 * x[e] : -3.0;
      if (!close_to(d[e], want, 1e-14)) {
        print_error("gate'(%.17g, %d): %.17g, want %.17g\n", x[e], k[e], d[e],
                    want);
        fail();
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_erf_erfc), cmocka_unit_test(t_mutual),
      cmocka_unit_test(t_direct),   cmocka_unit_test(t_two_calls),
      cmocka_unit_test(t_diff),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_recursion", tests, NULL, NULL);
}
