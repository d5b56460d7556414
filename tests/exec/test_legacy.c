/* Existing C as it is written (issue 13): calls to ordinary helpers of the
 * file, whatever their linkage or style: non-static, K&R definitions with
 * promoted (float, short) parameters, helpers defined after the annotated
 * caller (declared by a prototype or a K&R declaration), chains of them, two
 * callers waiting for one helper, an annotated callee defined later. Each
 * function is checked bit for bit against the scalar loop (the helpers'
 * out-of-line originals are what the scalar function calls) and its
 * gradient against dual numbers and finite differences. */
#include "grad_util.h"
#include "../common/test_filter.h"

/* ---- helpers defined before the caller --------------------------------- */

/* Non-static, non-inline, K&R; `k` arrives as an int. */
double kr_bend(x, k) double x;
int k;
{
  double r = x * x;
  if (k > 2)
    return r - x;
  return r * 0.5 + k;
}

/* A K&R float parameter: the caller passes a double (promoted), the helper
 * rounds it to float; a short parameter is truncated the same way. */
double kr_round(x, s) float x;
short s;
{
  return x * 3.0 + s;
}

BATCHDIFF double call_kr(double x, int k) {
  double a = kr_bend(x, k);
  return a + kr_bend(a * 0.25, k + 1) + kr_round((float)x, (short)k);
}

/* ---- a C library function's name, defined by the file ------------------- */

/* cephes defines its own erf: with the body before the caller, the caller
 * inlines this body (the scalar function calls it too), not the library's
 * vector erf. A body after the caller is an error
 * (tests/diagnostics/cases/call-library-defined-later.c). */
double erf(double x) {
  double t = x * (1.0 + 0.125 * x * x);
  return t / sqrt(1.0 + t * t);
}

BATCHDIFF double call_own_erf(double x, double y) {
  return erf(x) * y + erf(x * y);
}

/* ---- helpers defined after the caller ---------------------------------- */

double late_mix(double x, double y); /* prototype, defined below */
double late_kr();                    /* K&R declaration, defined below */
static float late_f(float v);        /* static, defined below */

BATCHDIFF double call_late(double x, double y) {
  double t = late_mix(x, y) * 2.0 + late_mix(y, x);
  return t + late_kr(t, 2);
}

/* Waits for late_f, then (its body calls late_g) for late_g. */
BATCHDIFF float call_chain(float x, float y) {
  if (x > y)
    return late_f(x - y);
  return late_f(x * y) + y;
}

/* Unannotated code between the caller and its helpers may already call the
 * generated function: it was declared right after call_late. */
void use_call_late(size_t n, const double *x, const double *y, double *r) {
  call_late_batched(n, x, y, r);
}

double late_mix(double x, double y) {
  if (x > y)
    return x - y * 0.5;
  return x * y - 1.0;
}

float late_g(float v);

static float late_f(float v) {
  if (v < -4.0f)
    return -4.0f;
  return late_g(v) * 0.5f;
}

/* Two annotated callers wait for the same helper. */
BATCHDIFF double wait_a(double x) { return late_kr(x, 1) + 1.0; }
BATCHDIFF double wait_b(double x, double y) {
  return late_kr(y, 3) * late_kr(x, 0);
}

/* An annotated callee defined after its annotated caller. */
BATCHDIFF double call_annotated_late(double x, double y);
BATCHDIFF double annotated_late(double x, double y);
BATCHDIFF double call_annotated_late(double x, double y) {
  return annotated_late(x, y) - annotated_late(y, x * 0.5);
}
BATCHDIFF double annotated_late(double x, double y) {
  return x > 0.0 ? x * y + 1.0 : y - x * x;
}

float late_g(float v) { return v * v + 1.0f; }

double late_kr(x, n) double x;
int n;
{
  double s = x;
  int i;
  for (i = 0; i < n; i++)
    s = s * 0.75 + x;
  return s;
}

/* ---- differential: bit for bit ----------------------------------------- */

DIFF2(call_kr, double, CMP_BITS, 0, V, double, gen_d, V, int, gen_i32s)
BITS2(call_late, double, double, gen_d, double, gen_d)
BITS2(call_chain, float, float, gen_f, float, gen_f)
BITS1(wait_a, double, double, gen_d)
BITS2(wait_b, double, double, gen_d, double, gen_d)
BITS2(call_annotated_late, double, double, gen_d, double, gen_d)
BITS2(call_own_erf, double, double, gen_d, double, gen_d)

/* The scalar function does call the file's erf (else the test above would
 * compare the library's erf with itself): erf(1) = 1.125 / sqrt(2.265625),
 * the library's is 0.8427. */
static void diff_own_erf_is_own(void **state_) {
  (void)state_;
  double x = 1.0, y = 1.0, r;
  call_own_erf_batched(1, &x, &y, &r);
  double own = 1.125 / sqrt(1.0 + 1.125 * 1.125);
  assert_true(fabs(r - 2.0 * own) < 1e-15);
  assert_true(fabs(call_own_erf(x, y) - 2.0 * own) < 1e-15);
}

static void diff_use_call_late(void **state_) {
  (void)state_;
  double x[5] = {0.5, -1.0, 2.0, 3.5, -0.25}, y[5] = {1.0, 2.0, -3.0, 0.0, 1.5};
  double r[5];
  use_call_late(5, x, y, r);
  for (int i = 0; i < 5; i++) {
    double want = call_late(x[i], y[i]);
    assert_memory_equal(&r[i], &want, sizeof want);
  }
}

/* ---- gradients ----------------------------------------------------------- */

static double pick(rng_t *r, double lo, double hi) { return rng_range(r, lo, hi); }


static void sm_pm3(rng_t *r, double *a) {
  a[0] = pick(r, -3, 3);
  a[1] = pick(r, -3, 3);
}

static dual dual_late_mix(dual x, dual y) {
  if (x.v > y.v)
    return dsub(x, dscale(y, 0.5));
  return dsub(dmul(x, y), dc(1.0));
}
static dual dual_late_kr(dual x, int n) {
  dual s = x;
  for (int i = 0; i < n; i++)
    s = dadd(dscale(s, 0.75), x);
  return s;
}
static dual dual_call_late(dual x, dual y) {
  dual t = dadd(dscale(dual_late_mix(x, y), 2.0), dual_late_mix(y, x));
  return dadd(t, dual_late_kr(t, 2));
}
ADAPT2(call_late)
CASE2(call_late, sm_pm3)

static dual dual_wait_b(dual x, dual y) {
  return dmul(dual_late_kr(y, 3), dual_late_kr(x, 0));
}
ADAPT2(wait_b)
CASE2(wait_b, sm_pm3)

static dual dual_annotated_late(dual x, dual y) {
  return x.v > 0.0 ? dadd(dmul(x, y), dc(1.0)) : dsub(y, dmul(x, x));
}
static dual dual_call_annotated_late(dual x, dual y) {
  return dsub(dual_annotated_late(x, y),
              dual_annotated_late(y, dscale(x, 0.5)));
}
ADAPT2(call_annotated_late)
CASE2(call_annotated_late, sm_pm3)

static dual dual_erf(dual x) {
  dual t = dmul(x, dadd(dc(1.0), dscale(dmul(x, x), 0.125)));
  return ddiv(t, dsqrt(dadd(dc(1.0), dmul(t, t))));
}
static dual dual_call_own_erf(dual x, dual y) {
  return dadd(dmul(dual_erf(x), y), dual_erf(dmul(x, y)));
}
ADAPT2(call_own_erf)
CASE2(call_own_erf, sm_pm3)

/* call_kr: x differentiable, k an int (no shadow). The adjoint through
 * the float parameter of kr_round is a float: float tolerance. */
static dual dual_kr_bend(dual x, int k) {
  dual r = dmul(x, x);
  if (k > 2)
    return dsub(r, x);
  return dadd(dscale(r, 0.5), dc(k));
}
static double s_call_kr(const double *a) { return call_kr(a[0], (int)a[1]); }
static void b_call_kr(size_t n, double *const *A, double *r) {
  int k[1024];
  for (size_t i = 0; i < n; i++)
    k[i] = (int)A[1][i];
  call_kr_batched(n, A[0], k, r);
}
static void g_call_kr(size_t n, double *const *A, double *r, const double *dr,
                      double *const *S) {
  int k[1024];
  for (size_t i = 0; i < n; i++)
    k[i] = (int)A[1][i];
  call_kr_grad(n, A[0], k, r, dr, S[0]);
}
static double d_call_kr(const double *a, int j) {
  if (j != 0)
    return 0.0;
  int k = (int)a[1];
  dual x = {a[0], 1.0};
  dual a1 = dual_kr_bend(x, k);
  /* kr_round rounds x to float: a derivative of 3 through the rounding. */
  dual xr = {(float)a[0], 1.0};
  return dadd(dadd(a1, dual_kr_bend(dscale(a1, 0.25), k + 1)),
              dadd(dscale(xr, 3.0), dc((short)k)))
      .d;
}
static void sm_call_kr(rng_t *r, double *a) {
  a[0] = pick(r, -3, 3);
  a[1] = (double)(rng_below(r, 7) - 2);
}
static const gcase c_call_kr = {"call_kr", 2,         {P_VD, P_VN}, 0,
                                0,         s_call_kr, d_call_kr,    b_call_kr,
                                g_call_kr, sm_call_kr, 0, 1e-6, 1u};
GTEST(c_call_kr)

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T_(call_kr),
      T_(call_late),
      T_(call_chain),
      T_(wait_a),
      T_(wait_b),
      T_(call_annotated_late),
      T_(use_call_late),
      T_(call_own_erf),
      T_(own_erf_is_own),
      GT_(c_call_late),
      GT_(c_wait_b),
      GT_(c_call_annotated_late),
      GT_(c_call_own_erf),
      GT_(c_call_kr),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_legacy", tests, NULL, NULL);
}
