/* File-scope data and static locals as legacy numeric C uses them (issue 13
 * section 2): coefficient tables at file scope (`static double P[]`,
 * `static const`, plain and `extern` ones defined later), global "constants"
 * that are ordinary variables (read once per call: the test changes them
 * between calls), tables passed whole or as `P + k` / `&P[k]` to a helper
 * walking them with `*p++`, tables gathered at per-example indices (one
 * ends at a PROT_NONE page, so a masked-off lane that reads past it
 * faults), `static const` local tables and read-only static locals in the
 * annotated function and in helpers, globals every example writes before
 * reading them (left as the scalar loop leaves them: example n - 1's
 * values, also on several threads), and frexp/modf with their out-pointer.
 *
 * Each function: NAME_batched against the scalar loop, bit for bit; the
 * gradient (tables are never differentiated) against dual numbers and
 * central finite differences (grad_util.h); two of them in forward mode
 * (NAME_jvp) too. */
#include "grad_util.h"
#include "../common/test_filter.h"

#include <sys/mman.h>

/* ---- file-scope data, written the old way -------------------------------- */

static double ODD[] = {1.25e-1, -3.5e-1, 2.0e0, 6.5e-1};
static double EVEN[7] = {4.0e-3, 1.0e0, -2.5e-1, 3.125e-2,
                               -7.5e-1, 5.0e-1, 1.5e0};
const float SLOPES[5] = {0.5f, -1.25f, 2.0f, 0.75f, -3.0f};
double TINY = 1.11e-16; /* a "constant" the program never writes */
double GAIN = 2.0;      /* written by the test between calls */
int NTERMS = 3;         /* likewise: the helper's loop count */
static const double KNOTS[8] = {0.0, 0.5, 1.5, 1.25, -0.5, 2.0, 3.5, 3.0};
extern const double LATE[]; /* defined at the end of the file */
/* Two pages: the second is made PROT_NONE, so the table's 512 elements end
 * at a guard page. */
static double GUARDED[1024] __attribute__((aligned(4096)));

/* Horner's rule over N + 1 coefficients, the first one highest. */
double hornerp(double x, double coef[], int N) {
  double ans;
  double *p = coef;
  int i = N;
  ans = *p++;
  do
    ans = ans * x + *p++;
  while (--i);
  return ans;
}
/* The same with an implied leading coefficient of 1. */
double horner1(double x, const double *coef, int N) {
  const double *p = coef;
  double ans = x + *p++;
  int i = N - 1;
  do
    ans = ans * x + *p++;
  while (--i);
  return ans;
}

/* The idiom of the issue: a global threshold, a goto, a table. */
BATCHDIFF BD_JVP double tb_idiom(double x) {
  if (x < TINY)
    goto small;
  return hornerp(x, ODD, 3);
small:
  return x;
}

/* Sub-tables: P + k and &P[k]. */
BATCHDIFF double tb_sub(double x) {
  double num = hornerp(x, EVEN + 2, 3);
  double den = horner1(x, &EVEN[3], 3);
  return num / (den * den + 1.0);
}

/* Piecewise linear interpolation: a gather at a per-example index. */
BATCHDIFF double tb_interp(double x) {
  double ax = fabs(x);
  if (!(ax < 7.0))
    return x;
  int i = (int)ax;
  double t = ax - (double)i;
  return KNOTS[i] + t * (KNOTS[i + 1] - KNOTS[i]);
}

/* A float table at a varying int index and at a constant one. */
BATCHDIFF float tb_float(float x, int k) {
  return x * SLOPES[k & 3] + SLOPES[4];
}

/* Mutable globals read at call time (uniform), one as a loop count. */
BATCHDIFF double tb_gain(double x) {
  return x * GAIN + hornerp(x, EVEN, NTERMS);
}

/* A table declared extern and defined after the function. */
BATCHDIFF double tb_late(double x) { return x * LATE[1] + LATE[0]; }

/* Only lanes with 0 <= i < 512 read; the others would fault. */
BATCHDIFF double tb_guard(double x, int i) {
  if (i >= 0 && i < 512)
    return GUARDED[i] * x;
  return x;
}

/* static const local tables, in the function and in a helper called twice;
 * read-only static scalars. */
static double rational(double x) {
  static const double num[3] = {1.0, -0.5, 0.125};
  static double den[4] = {1.0, 0.25, 0.0, 0.0625}; /* never written */
  static int order = 3;
  return hornerp(x, (double *)num, 2) / hornerp(x * x, den, order);
}
BATCHDIFF double tb_statics(double x) {
  static const double w[4] = {0.25, -1.0, 0.5};
  static double bias = 0.75;
  int k = x > 0.0 ? 1 : 3;
  return rational(x) * w[k] + rational(0.5 * x) + w[0] * bias;
}

/* frexp and modf write through &local; frexp also into an out-pointer
 * parameter. */
BATCHDIFF double tb_frexp(double x) {
  int e;
  double m = frexp(x, &e);
  return m * 3.0 + (double)e;
}
BATCHDIFF double tb_modf(double x) {
  double ip;
  double f = modf(x, &ip);
  return f * f + ip * 0.5;
}
BATCHDIFF float tb_frexpf(float x) {
  int e[1];
  float m = frexpf(x, &e[0]);
  float ip;
  float f = modff(x * 0.75f, &ip);
  return m + (float)e[0] * 0.125f + f - ip;
}
BATCHDIFF double tb_frexp_out(double x, int *e) { return frexp(x, e); }
BATCHDIFF double tb_modf_out(double x, double *ip) { return modf(x, ip); }

/* Globals every example writes before reading (a sign left for the caller,
 * as log-gamma routines do): per example inside, example n - 1's values
 * after the call. */
int SIGN = 0;
double LASTSCALE;
static double reflect(double x) {
  SIGN = 1;
  if (x < 0.0) {
    SIGN = -1;
    return -x;
  }
  return x;
}
BATCHDIFF BD_JVP double tb_sign(double x) {
  double a = reflect(x);
  LASTSCALE = a * 0.5 + 1.0;
  return (a * a + 1.0) * SIGN * LASTSCALE;
}

/* Stepped in a loop with a uniform trip count that only some examples
 * enter: per example, although every value written to it is uniform (a
 * loop counter analysis once kept it as one value for the whole batch). */
double STEPPED;
BATCHDIFF double tb_stepped(double x, BD_UNIFORM double u) {
  STEPPED = u;
  if (x < u) {
    int k = (int)u;
    while (k-- > 0) {
      STEPPED = STEPPED * 0.25 + k;
      u = u * 0.5 + x;
    }
  }
  return x + u; /* STEPPED is read by the caller only */
}

const double LATE[2] = {0.5, -2.0};

/* ---- differential: bit for bit ------------------------------------------- */

BITS1(tb_idiom, double, double, gen_d)
BITS1(tb_sub, double, double, gen_d)
BITS1(tb_interp, double, double, gen_d)
DIFF2(tb_float, float, CMP_BITS, 0, V, float, gen_f, V, int, gen_i32s)
BITS1(tb_late, double, double, gen_d)
BITS1(tb_statics, double, double, gen_d)
BITS1(tb_frexp, double, double, gen_d)
BITS1(tb_modf, double, double, gen_d)
BITS1(tb_frexpf, float, float, gen_f)

/* The globals are read when the call starts: changing them changes the
 * next call's results, as for the scalar loop. */
static void diff_tb_gain(void **state_) {
  (void)state_;
  static const double gains[] = {2.0, -0.5, 0.0, 1e300};
  static const int terms[] = {3, 1, 6, 2};
  rng_t rng = {name_seed("tb_gain")};
  for (size_t g = 0; g < 4; g++)
    for (size_t t = 0; t < N_TEST_NS; t++) {
      size_t n = test_ns[t];
      double *x = gbuf(n), *r = gbuf(n);
      for (size_t b = 0; b < n; b++)
        x[b] = gen_d(&rng);
      GAIN = gains[g];
      NTERMS = terms[g];
      tb_gain_batched(n, x, r);
      for (size_t b = 0; b < n; b++) {
        double want = tb_gain(x[b]);
        if (!same_bits_or_nan(&r[b], &want, sizeof want, 1)) {
          PV("x", x[b]);
          PV("got", r[b]);
          PV("want", want);
          fail();
        }
      }
      gp_reset();
    }
  GAIN = 2.0;
  NTERMS = 3;
}

/* Lanes whose index is out of range (just past the end, far past it,
 * negative) must not read GUARDED: its element 512 is on a PROT_NONE page. */
static void diff_tb_guard(void **state_) {
  (void)state_;
  for (int i = 0; i < 512; i++)
    GUARDED[i] = 0.25 * i - 3.0;
  size_t pg = gp_page();
  assert_true(pg <= 4096);
  char *end = (char *)&GUARDED[512];
  assert_int_equal(mprotect(end, 4096, PROT_NONE), 0);
  static const int idx[] = {511, 512, 0, 513, 100000, -1, 510, 1 << 30, 256};
  rng_t rng = {name_seed("tb_guard")};
  for (size_t t = 0; t < N_TEST_NS; t++) {
    size_t n = test_ns[t];
    double *x = gbuf(n), *r = gbuf(n);
    int *i = gp_alloc(n * sizeof(int));
    for (size_t b = 0; b < n; b++) {
      x[b] = gen_d(&rng);
      i[b] = idx[rng_below(&rng, sizeof idx / sizeof idx[0])];
    }
    tb_guard_batched(n, x, i, r);
    for (size_t b = 0; b < n; b++) {
      double want = tb_guard(x[b], i[b]);
      if (!same_bits_or_nan(&r[b], &want, sizeof want, 1)) {
        PV("x", x[b]);
        fail();
      }
    }
    gp_reset();
  }
  assert_int_equal(mprotect(end, 4096, PROT_READ | PROT_WRITE), 0);
}

/* Out-pointer parameters: the exponent and integral part per example. */
static void diff_tb_out(void **state_) {
  (void)state_;
  rng_t rng = {name_seed("tb_out")};
  for (size_t t = 0; t < N_TEST_NS; t++) {
    size_t n = test_ns[t];
    double *x = gbuf(n), *r = gbuf(n), *ip = gbuf(n);
    int *e = gp_alloc(n * sizeof(int));
    for (size_t b = 0; b < n; b++)
      x[b] = gen_d(&rng);
    tb_frexp_out_batched(n, x, e, 1, r);
    for (size_t b = 0; b < n; b++) {
      int we;
      double want = tb_frexp_out(x[b], &we);
      assert_true(same_bits_or_nan(&r[b], &want, sizeof want, 1));
      assert_int_equal(e[b], we);
    }
    tb_modf_out_batched(n, x, ip, 1, r);
    for (size_t b = 0; b < n; b++) {
      double wi;
      double want = tb_modf_out(x[b], &wi);
      assert_true(same_bits_or_nan(&r[b], &want, sizeof want, 1));
      assert_true(same_bits_or_nan(&ip[b], &wi, sizeof wi, 1));
    }
    gp_reset();
  }
}

/* After _batched and _grad the written globals hold what the scalar loop
 * leaves (example n - 1's values); n = 0 leaves them alone. Also split
 * over threads (chunks finish in any order). */
static void check_sign(size_t n, int threads, rng_t *rng) {
  double *x = gbuf(n), *r = gbuf(n), *d = gbuf(n);
  for (size_t b = 0; b < n; b++)
    x[b] = gen_d(rng);
  SIGN = 12345;
  LASTSCALE = -7.0;
  int want_sign = SIGN;
  double want_scale = LASTSCALE, want = 0.0;
  for (size_t b = 0; b < n; b++) {
    want = tb_sign(x[b]);
    want_sign = SIGN;
    want_scale = LASTSCALE;
  }
  for (int k = 0; k < 2; k++) {
    SIGN = 12345;
    LASTSCALE = -7.0;
    bd_set_num_threads(threads);
    if (k == 0)
      tb_sign_batched(n, x, r);
    else
      tb_sign_grad(n, x, r, NULL, d);
    bd_set_num_threads(0);
    if (SIGN != want_sign ||
        !same_bits_or_nan(&LASTSCALE, &want_scale, sizeof want_scale, 1)) {
      print_error("tb_sign %s: n=%zu threads=%d: SIGN %d (want %d) ",
                  k ? "_grad" : "_batched", n, threads, SIGN, want_sign);
      PV("LASTSCALE", LASTSCALE);
      PV("want", want_scale);
      fail();
    }
    for (size_t b = 0; b < n; b++) {
      double w = tb_sign(x[b]);
      if (!same_bits_or_nan(&r[b], &w, sizeof w, 1)) {
        PV("x", x[b]);
        fail();
      }
    }
  }
  (void)want;
  gp_reset();
}
static void diff_tb_sign(void **state_) {
  (void)state_;
  rng_t rng = {name_seed("tb_sign")};
  for (size_t t = 0; t < N_TEST_NS; t++)
    for (int rep = 0; rep < 4; rep++)
      check_sign(test_ns[t], 1, &rng);
  check_sign(BD_PARALLEL_MIN_N + 1001, 2, &rng);
  check_sign(3 * BD_PARALLEL_MIN_N + 7, 3, &rng);
}

/* ---- gradients ----------------------------------------------------------- */

#define ADAPT1(fn)                                                             \
  static double s_##fn(const double *a) { return fn(a[0]); }                   \
  static void b_##fn(size_t n, double *const *A, double *r) {                  \
    fn##_batched(n, A[0], r);                                                  \
  }                                                                            \
  static void g_##fn(size_t n, double *const *A, double *r, const double *dr,  \
                     double *const *S) {                                       \
    fn##_grad(n, A[0], r, dr, S[0]);                                           \
  }                                                                            \
  static double d_##fn(const double *a, int j) {                               \
    (void)j;                                                                   \
    return dual_##fn(dv(a[0])).d;                                              \
  }
#define CASE1(fn, SAMPLE)                                                      \
  static const gcase c_##fn = {#fn,   1,      {P_VD}, 0, 0, s_##fn,            \
                               d_##fn, b_##fn, g_##fn, SAMPLE};                \
  GTEST(c_##fn)

static dual d_hornerp(dual x, const double *coef, int n) {
  dual ans = dc(coef[0]);
  for (int i = 1; i <= n; i++)
    ans = dadd(dmul(ans, x), dc(coef[i]));
  return ans;
}
static dual d_horner1(dual x, const double *coef, int n) {
  dual ans = dadd(x, dc(coef[0]));
  for (int i = 1; i < n; i++)
    ans = dadd(dmul(ans, x), dc(coef[i]));
  return ans;
}

static dual dual_tb_idiom(dual x) {
  return x.v < TINY ? x : d_hornerp(x, ODD, 3);
}
ADAPT1(tb_idiom)

static dual dual_tb_sub(dual x) {
  dual den = d_horner1(x, &EVEN[3], 3);
  return ddiv(d_hornerp(x, EVEN + 2, 3), dadd(dmul(den, den), dc(1.0)));
}
ADAPT1(tb_sub)

static dual dual_tb_interp(dual x) {
  dual ax = dfabs(x);
  if (!(ax.v < 7.0))
    return x;
  int i = (int)ax.v;
  dual t = dsub(ax, dc((double)i));
  return dadd(dc(KNOTS[i]), dscale(t, KNOTS[i + 1] - KNOTS[i]));
}
ADAPT1(tb_interp)

static dual d_rational(dual x) {
  static const double num[3] = {1.0, -0.5, 0.125};
  static const double den[4] = {1.0, 0.25, 0.0, 0.0625};
  return ddiv(d_hornerp(x, num, 2), d_hornerp(dmul(x, x), den, 3));
}
static dual dual_tb_statics(dual x) {
  static const double w[4] = {0.25, -1.0, 0.5, 0.0};
  int k = x.v > 0.0 ? 1 : 3;
  return dadd(dadd(dscale(d_rational(x), w[k]), d_rational(dscale(x, 0.5))),
              dc(w[0] * 0.75));
}
ADAPT1(tb_statics)

static dual dual_tb_frexp(dual x) {
  int e;
  double m = frexp(x.v, &e);
  return (dual){m * 3.0 + e, x.d * ldexp(3.0, -e)};
}
ADAPT1(tb_frexp)

static dual dual_tb_modf(dual x) {
  double ip;
  double f = modf(x.v, &ip);
  return (dual){f * f + ip * 0.5, 2.0 * f * x.d};
}
ADAPT1(tb_modf)

/* Samples away from the kinks: tb_interp's knots and modf's integers. */
static void sm_wide(rng_t *r, double *a) { a[0] = rng_range(r, -6.9, 6.9); }
static void sm_frac(rng_t *r, double *a) {
  double v = rng_range(r, -20.0, 20.0);
  double f = v - trunc(v);
  if (fabs(f) < 0.01 || fabs(f) > 0.99)
    v += 0.5;
  a[0] = v;
}
static void sm_knot(rng_t *r, double *a) {
  double v = rng_below(r, 7) + rng_range(r, 0.05, 0.95);
  a[0] = rng_below(r, 2) ? v : -v;
}
/* frexp's exponent jumps at powers of two. The smallest |x| (0.55 * 2^-10)
 * stays 5e-5 from its jump, more than the finite-difference step (1e-5 for
 * |x| < 1): with exponents down to -20 a fifth of the points straddled a
 * jump and were skipped, and the skip limit (20%) failed on the 16-lane
 * build. */
static void sm_frexp(rng_t *r, double *a) {
  double v = ldexp(rng_range(r, 0.55, 0.95), rng_below(r, 30) - 10);
  a[0] = rng_below(r, 2) ? v : -v;
}

static dual dual_tb_sign(dual x) {
  dual a = x.v < 0.0 ? dneg(x) : x;
  double s = x.v < 0.0 ? -1.0 : 1.0;
  dual sc = dadd(dscale(a, 0.5), dc(1.0));
  return dmul(dscale(dadd(dmul(a, a), dc(1.0)), s), sc);
}
ADAPT1(tb_sign)

CASE1(tb_idiom, sm_wide)
CASE1(tb_sign, sm_wide)
CASE1(tb_sub, sm_wide)
CASE1(tb_interp, sm_knot)
CASE1(tb_statics, sm_wide)
CASE1(tb_frexp, sm_frexp)
CASE1(tb_modf, sm_frac)

/* Forward mode (NAME_jvp) reads the same globals and leaves the written
 * ones as NAME_batched does; its tangent against dual numbers. */
static void diff_tb_jvp(void **state_) {
  (void)state_;
  rng_t rng = {name_seed("tb_jvp")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *x = gbuf(n), *t = gbuf(n), *r = gbuf(n), *d = gbuf(n);
    for (size_t b = 0; b < n; b++) {
      sm_wide(&rng, &x[b]);
      t[b] = rng_range(&rng, -2.0, 2.0);
    }
    for (int f = 0; f < 2; f++) {
      SIGN = 12345;
      if (f == 0)
        tb_idiom_jvp(n, x, t, r, d);
      else
        tb_sign_jvp(n, x, t, r, d);
      int got_sign = SIGN;
      for (size_t b = 0; b < n; b++) {
        double want = f == 0 ? tb_idiom(x[b]) : tb_sign(x[b]);
        dual dx = dv(x[b]);
        double dd = (f == 0 ? dual_tb_idiom(dx) : dual_tb_sign(dx)).d * t[b];
        if (!same_bits_or_nan(&r[b], &want, sizeof want, 1) ||
            fabs(d[b] - dd) > 1e-12 * (1.0 + fabs(dd))) {
          print_error("%s_jvp: b=%zu ", f ? "tb_sign" : "tb_idiom", b);
          PV("x", x[b]);
          PV("d", d[b]);
          PV("want", dd);
          fail();
        }
      }
      if (f == 1 && n > 0 && got_sign != SIGN) {
        print_error("tb_sign_jvp: n=%zu: SIGN %d, the loop leaves %d\n", n,
                    got_sign, SIGN);
        fail();
      }
    }
    gp_reset();
  }
}

/* STEPPED after the call is what the scalar loop leaves; results bitwise. */
static void diff_tb_stepped(void **state_) {
  (void)state_;
  rng_t rng = {name_seed("tb_stepped")};
  for (size_t t = 0; t < N_TEST_NS; t++) {
    size_t n = test_ns[t];
    double *x = gbuf(n), *r = gbuf(n), *d = gbuf(n), du = 0.0;
    for (size_t b = 0; b < n; b++)
      x[b] = rng_range(&rng, 0.0, 6.0);
    STEPPED = -7.0;
    double want_stepped = STEPPED;
    for (size_t b = 0; b < n; b++) {
      tb_stepped(x[b], 3.5);
      want_stepped = STEPPED;
    }
    for (int k = 0; k < 2; k++) {
      STEPPED = -7.0;
      if (k == 0)
        tb_stepped_batched(n, x, 3.5, r);
      else
        tb_stepped_grad(n, x, 3.5, r, NULL, d, &du);
      if (!same_bits_or_nan(&STEPPED, &want_stepped, sizeof want_stepped, 1)) {
        print_error("tb_stepped %s: n=%zu: ", k ? "_grad" : "_batched", n);
        PV("STEPPED", STEPPED);
        PV("want", want_stepped);
        fail();
      }
      for (size_t b = 0; b < n; b++) {
        double w = tb_stepped(x[b], 3.5);
        if (!same_bits_or_nan(&r[b], &w, sizeof w, 1)) {
          PV("x", x[b]);
          fail();
        }
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T_(tb_idiom),      T_(tb_sub),         T_(tb_interp),
      T_(tb_float),      T_(tb_late),        T_(tb_statics),
      T_(tb_frexp),      T_(tb_modf),        T_(tb_frexpf),
      T_(tb_gain),       T_(tb_guard),       T_(tb_out),
      T_(tb_sign),       GT_(c_tb_sign),     T_(tb_jvp),
      GT_(c_tb_idiom),   GT_(c_tb_sub),      GT_(c_tb_interp),
      GT_(c_tb_statics), GT_(c_tb_frexp),    GT_(c_tb_modf),
      T_(tb_stepped),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_tables", tests, NULL, NULL);
}
