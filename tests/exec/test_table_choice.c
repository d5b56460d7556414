/* A pointer into one of several read-only tables, chosen per example
 * (docs/subset.md, pointers): cephes/fdlibm pick a coefficient table per
 * argument range with `?:` or if/else and pass it to polevl. Tables at file
 * scope (const and not, of different lengths) and static local ones; float
 * and int tables; three tables; walks to an end pointer; comparisons; a
 * pointer re-pointed after a read; calls in a '?:' condition (cephes'
 * `fabs(x) < 0.5 ? P : Q`, a helper writing a local, run once) and math
 * calls in its arms (a nested `fabs(x) < 1 ? B : C`, `PA + (int)fmin(..)`).
 *
 * Each function: NAME_batched against the scalar loop, bit for bit, inputs
 * and outputs at guard pages. SHORT ends at a PROT_NONE page while lanes
 * that chose LONG walk to offset 8: a read of SHORT at a lane's offset in
 * LONG would fault (as it did before the loads were clamped). Gradients (tables
 * are constants) against dual numbers and central finite differences
 * (grad_util.h), and NAME_jvp against dual numbers. */
#include "grad_util.h"

#include "../common/test_filter.h"

#include <sys/mman.h>

static const double PA[4] = {0.5, -1.25, 2.0, 0.75};
static const double PB[4] = {-0.25, 1.5, 0.125, -3.0};

/* The report's example: the choice as '?:', read by index. */
BATCHDIFF BD_JVP double tc_cond(double x) {
  const double *c = x > 0.5 ? PA : PB;
  double s = 0.0;
  for (int i = 0; i < 4; i++)
    s = s * x + c[i];
  return s;
}

/* cephes' polevl and p1evl, as written there. */
static double polevl(double x, const double coef[], int N) {
  const double *p = coef;
  double ans = *p++;
  int i = N;
  do
    ans = ans * x + *p++;
  while (--i);
  return ans;
}
static double p1evl(double x, const double coef[], int N) {
  const double *p = coef;
  double ans = x + *p++;
  int i = N - 1;
  do
    ans = ans * x + *p++;
  while (--i);
  return ans;
}

/* Tables of different lengths, not const, as cephes declares them. SHORT
 * ends where a page ends and GUARD, the next page, starts (laid out in
 * assembly: the order of C definitions in a section is not kept). */
__asm__(".pushsection bd_tc_tables, \"aw\"\n"
        ".balign 4096\n"
        ".skip 4064\n"
        "bd_tc_short:\n"
        ".double 1.0, -0.5, 0.25, 2.0\n"
        "bd_tc_guard:\n"
        ".skip 4096\n"
        ".popsection\n");
extern double SHORT[4] __asm__("bd_tc_short");
extern char GUARD[4096] __asm__("bd_tc_guard");
static double LONG[9] = {2.5e-2, -1.0e-1, 3.0e-1, 1.0, -2.0,
                         1.5,    0.5,     -0.75,  1.25};
static double Q[3] = {0.5, 2.0, 3.0};

BATCHDIFF double tc_ranges(double x) {
  double *p;
  int n;
  if (x < 2.0) {
    p = SHORT;
    n = 3;
  } else {
    p = LONG;
    n = 8;
  }
  return polevl(x, p, n) / p1evl(x, Q, 3);
}

/* Three static local tables, chosen by if / else if / else in a helper
 * inlined twice. */
static double rat3(double x) {
  static const double A[3] = {1.0, 0.5, -0.25};
  static const double B[3] = {0.75, -1.0, 0.125};
  static const double C[3] = {-0.5, 0.25, 1.5};
  const double *p;
  if (x < -1.0)
    p = A;
  else if (x < 1.0)
    p = B;
  else
    p = C;
  return polevl(x, p, 2);
}
BATCHDIFF double tc_statics(double x) { return rat3(x) * rat3(0.5 * x + 0.25); }

/* Float and int tables; a '?:' of a '?:' (three tables); per-lane indices
 * into the chosen table. */
static const float FA[3] = {0.5f, -1.5f, 2.0f};
static const float FB[3] = {1.25f, 0.75f, -0.5f};
static const float FC[3] = {-2.0f, 0.125f, 3.0f};
static const int KA[4] = {1, 2, 3, 4};
static const int KB[4] = {-1, 5, 7, 0};
BATCHDIFF float tc_float(float x, int k) {
  const float *w = x < 0.0f ? FA : x < 1.0f ? FB : FC;
  const int *m = k & 4 ? KA : KB;
  return w[k & 1] * x + w[2] + (float)m[k & 3];
}

/* Walks to an end pointer, comparisons between pointers into the tables, a
 * pointer re-pointed after a read (outside loops), p - q (in one table). */
BATCHDIFF double tc_walk(double x, int k) {
  const double *p = k & 1 ? PA : PB;
  const double *q = k & 2 ? PA : PB;
  const double *end = p + 4;
  double s = 0.0;
  while (p < end)
    s = s * x + *p++;
  if (q == PA)
    s += 1.0;
  if (p - 1 != q + 3) /* (p itself is one past the end) */
    s *= 2.0;
  const double *r = PA + 1;
  s += r[1];
  r = k & 8 ? q + 2 : PB;
  s += *r;
  if (k & 8)
    s += (double)(r - q);
  return s;
}

/* cephes' ndtr/erf choice, 'p = fabs(x) < 0.5 ? P : Q; ... polevl(x, p, 3)':
 * a call in the condition (it runs once, before the arms). */
BATCHDIFF double tc_fabs(double x) {
  const double *p = fabs(x) < 0.5 ? PA : PB;
  return polevl(x, p, 3);
}

/* A '?:' of a '?:' whose inner condition calls fabs (both arms of the outer
 * one run in every lane: only <math.h> calls are allowed there), SHORT at
 * its guard page; an arm offset by a math call. */
BATCHDIFF double tc_nested(double x) {
  const double *p = x < -1.0 ? PA : fabs(x) < 1.0 ? PB : SHORT;
  const double *q = floor(x) > 0.0 ? PA + (int)fmin(fabs(x), 2.0) : PB;
  return polevl(x, p, 3) + q[1];
}

/* A condition calling a helper that writes a local through a pointer: C
 * runs it exactly once, before either arm. */
static int bucket(double x, int *k) {
  *k = (int)(fabs(x) * 2.0) & 1;
  return *k == 0;
}
BATCHDIFF double tc_callcond(double x) {
  int k = 2;
  const double *c = bucket(fmin(fabs(x), 8.0), &k) ? PA : PB;
  return polevl(x, c, 3) + c[k + 1];
}

BITS1(tc_cond, double, double, gen_d)
BITS1(tc_fabs, double, double, gen_d)
BITS1(tc_callcond, double, double, gen_d)
BITS1(tc_statics, double, double, gen_d)
DIFF2(tc_float, float, CMP_BITS, 0, V, float, gen_f, V, int, gen_i32s)
DIFF2(tc_walk, double, CMP_BITS, 0, V, double, gen_d, V, int, gen_i32s)
BITS1(tc_ranges, double, double, gen_d)
BITS1(tc_nested, double, double, gen_d)

/* tc_ranges with SHORT ending at a PROT_NONE page. */
static void diff_tc_ranges_guarded(void **state) {
  assert_true(gp_ends_at(SHORT + 4, GUARD));
  assert_int_equal(mprotect(GUARD, 4096, PROT_NONE), 0);
  diff_tc_ranges(state);
  diff_tc_nested(state);
  assert_int_equal(mprotect(GUARD, 4096, PROT_READ | PROT_WRITE), 0);
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
  static const gcase c_##fn = {#fn,    1,      {P_VD}, 0,      0,              \
                               s_##fn, d_##fn, b_##fn, g_##fn, SAMPLE};        \
  GTEST(c_##fn)

static dual d_horner(dual x, const double *c, int n, int monic) {
  dual ans = monic ? dadd(x, dc(c[0])) : dc(c[0]);
  for (int i = 1; i < n + !monic; i++)
    ans = dadd(dmul(ans, x), dc(c[i]));
  return ans;
}

static dual dual_tc_cond(dual x) {
  return d_horner(x, x.v > 0.5 ? PA : PB, 3, 0);
}
ADAPT1(tc_cond)

static dual dual_tc_ranges(dual x) {
  dual num = x.v < 2.0 ? d_horner(x, SHORT, 3, 0) : d_horner(x, LONG, 8, 0);
  return ddiv(num, d_horner(x, Q, 3, 1));
}
ADAPT1(tc_ranges)

static dual d_rat3(dual x) {
  static const double A[3] = {1.0, 0.5, -0.25};
  static const double B[3] = {0.75, -1.0, 0.125};
  static const double C[3] = {-0.5, 0.25, 1.5};
  return d_horner(x, x.v < -1.0 ? A : x.v < 1.0 ? B : C, 2, 0);
}
static dual dual_tc_statics(dual x) {
  return dmul(d_rat3(x), d_rat3(dadd(dscale(x, 0.5), dc(0.25))));
}
ADAPT1(tc_statics)

static dual dual_tc_fabs(dual x) {
  return d_horner(x, fabs(x.v) < 0.5 ? PA : PB, 3, 0);
}
ADAPT1(tc_fabs)

static dual dual_tc_nested(dual x) {
  const double *p = x.v < -1.0 ? PA : fabs(x.v) < 1.0 ? PB : SHORT;
  const double *q = floor(x.v) > 0.0 ? PA + (int)fmin(fabs(x.v), 2.0) : PB;
  return dadd(d_horner(x, p, 3, 0), dc(q[1]));
}
ADAPT1(tc_nested)

static dual dual_tc_callcond(dual x) {
  int k = (int)(fmin(fabs(x.v), 8.0) * 2.0) & 1;
  const double *c = k == 0 ? PA : PB;
  return dadd(d_horner(x, c, 3, 0), dc(c[k + 1]));
}
ADAPT1(tc_callcond)

/* Away from multiples of 0.5 (every switch point of the three above). */
static void sm_halves(rng_t *r, double *a) {
  double v;
  do
    v = rng_range(r, -3.0, 4.0);
  while (fabs(v * 2.0 - nearbyint(v * 2.0)) < 2e-3);
  a[0] = v;
}

/* Away from the switch points (0.5; 2; -1, 1 and their images). */
static void sm_away(rng_t *r, double *a) {
  static const double kinks[] = {0.5, 2.0, -1.0, 1.0, -2.5, 1.5};
  double v;
  int near;
  do {
    v = rng_range(r, -3.0, 4.0);
    near = 0;
    for (size_t i = 0; i < sizeof kinks / sizeof kinks[0]; i++)
      near |= fabs(v - kinks[i]) < 1e-3;
  } while (near);
  a[0] = v;
}

CASE1(tc_cond, sm_away)
CASE1(tc_ranges, sm_away)
CASE1(tc_statics, sm_away)
CASE1(tc_fabs, sm_halves)
CASE1(tc_nested, sm_halves)
CASE1(tc_callcond, sm_halves)

/* Forward mode: the tangent against dual numbers. */
static void diff_tc_jvp(void **state_) {
  (void)state_;
  rng_t rng = {name_seed("tc_jvp")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *x = gbuf(n), *t = gbuf(n), *r = gbuf(n), *d = gbuf(n);
    for (size_t b = 0; b < n; b++) {
      sm_away(&rng, &x[b]);
      t[b] = rng_range(&rng, -2.0, 2.0);
    }
    tc_cond_jvp(n, x, t, r, d);
    for (size_t b = 0; b < n; b++) {
      double want = tc_cond(x[b]);
      double dd = dual_tc_cond(dv(x[b])).d * t[b];
      if (!same_bits_or_nan(&r[b], &want, sizeof want, 1) ||
          fabs(d[b] - dd) > 1e-12 * (1.0 + fabs(dd))) {
        print_error("tc_cond_jvp: b=%zu ", b);
        PV("x", x[b]);
        PV("d", d[b]);
        PV("want", dd);
        fail();
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T_(tc_cond),      T_(tc_statics),        T_(tc_float),
      T_(tc_walk),      T_(tc_ranges_guarded), T_(tc_jvp),
      GT_(c_tc_cond),   GT_(c_tc_ranges),      GT_(c_tc_statics),
      T_(tc_fabs),      T_(tc_callcond),       GT_(c_tc_fabs),
      GT_(c_tc_nested), GT_(c_tc_callcond),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_table_choice", tests, NULL, NULL);
}
