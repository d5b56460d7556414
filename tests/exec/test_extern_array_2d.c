/* Calls of functions another file defines (extern_array_2d_other.c) with
 * 2-D local arrays of numbers, rows of them and pointers into them, and
 * with the batch function's own 2-D array parameters and their rows
 * (docs/calls.md, "Calls of outside functions"), as ERFA passes `double
 * r[3][3]` to eraIr(r) and eraRz(psi, r), `eraCp(pv[0], c)` and
 * `eraPvu(dt, pv, upv)`: each lane's call gets an array of its own holding
 * all the example's elements (an array parameter: the example's own array),
 * the argument pointing into it where it points into the array; what the
 * callee leaves goes back to the example. Two arguments into one array
 * share it (ERFA's rxp(r, q, q)). A struct's array members and scalar
 * members' addresses, and the struct whole with its array members, as
 * ERFA passes eraASTROM's (`astrom->eb`, `&astrom->em`, `astrom`), the
 * same way. Did not compile before (a call to X,
 * which another file defines, with 'r' as an argument).
 * NAME_batched against the scalar function bit for bit (the callees are
 * the same scalar code), return values and arrays, on moderate values,
 * ±0, ±inf, NaN and subnormals; the number of calls of a2_rz the scalar
 * loop's (a lane that is off makes none); n = 0 .. 37 and 1000 examples.
 * Under diff, a 2-D array the call fills used only in a comparison:
 * NAME_grad's values bit for bit, its gradient exactly. */
#include "exec_util.h"

#include "../common/test_filter.h"
#include "extern_array_2d.h"

#include <math.h>
#include <string.h>

/* A 2-D local written, read and written, read only (a pointer to const),
 * on some examples only, and passed twice as one array (q, q). */
__attribute__((batch)) double rot(double x, double y) {
  double r[3][3], p[3] = {y, 1.0, -x}, q[3];
  a2_ir(r);
  a2_rz(x, r);
  if (y > 0.0)
    a2_rz(y, r);
  r[2][1] = 0.5 * x;
  a2_rxp(r, p, q);
  a2_rxp(r, q, q);
  return q[0] + 2.0 * q[1] + 3.0 * q[2] + a2_trace(r);
}

/* Rows of a 2-D local at a constant and at a per-example index, an
 * element's address, the array whole twice (a2_pvu(dt, pv, pv)). */
__attribute__((batch)) double rows(double x, int k) {
  double pv[2][3] = {{x, 1.0, 2.0}, {-x, 0.25 * x, 3.0}}, c[3];
  a2_cp(pv[0], c);
  c[1] += x;
  a2_cp(c, pv[k & 1]);
  a2_pvu(0.5 * x, pv, pv);
  a2_cp(&pv[1][0], c);
  return pv[0][0] + 2.0 * pv[0][1] + 3.0 * pv[0][2] + 5.0 * pv[1][0] +
         7.0 * pv[1][1] + 11.0 * pv[1][2] + c[0] - c[2];
}

/* Pointers into a float 2-D local that the callee reads and writes before
 * and after: a row plus one, an element at a per-example index, a helper's
 * pointer parameter bound to a row, passed on at an offset. */
static void mid_of(float x, float *row) { a2_mid(x, row + 1); }
__attribute__((batch)) float off(float x, int k) {
  float v[2][4] = {{1.0f, x, 2.0f, -x}, {0.5f, 3.0f, x * x, 4.0f}};
  a2_mid(x, v[0] + 1);
  a2_mid(0.5f * x, &v[1][(k & 1) + 1]);
  mid_of(x, v[1]);
  return v[0][0] + 2.0f * v[0][1] + 3.0f * v[0][2] + 4.0f * v[0][3] +
         5.0f * v[1][0] + 6.0f * v[1][1] + 7.0f * v[1][2] + 8.0f * v[1][3];
}

/* An int 2-D local read and written. */
__attribute__((batch)) double ints(double x) {
  int c[2][2] = {{(int)x, 1}, {2, -3}};
  int t = a2_icount(c);
  return t + 0.5 * c[0][1] + c[1][0];
}

/* The function's own 2-D array parameters passed on whole (in, out, in and
 * out) and by rows at constant and per-example indices. */
__attribute__((batch)) double pvs(double dt, int k, double pv[2][3],
                                  double upv[2][3], double w[3],
                                  double r[3][3]) {
  a2_pvu(dt, pv, upv);
  a2_cp(upv[1], w);
  upv[1][2] += dt;
  a2_cp(w, pv[k & 1]);
  a2_rz(dt, r);
  a2_rxp(r, w, w);
  a2_cp(r[k % 3], upv[0]);
  return a2_trace(r) + r[k % 3][1];
}

/* A struct parameter's array members passed (written, read, a row of a
 * 2-D member into another member), a scalar member's address, and the
 * struct passed whole, as ERFA's eraApcs and eraApci13 pass `astrom->eb`,
 * `&astrom->em` and `astrom`. */
__attribute__((batch)) double st(double x, a2_st *s) {
  double q[3] = {x, 1.0, -x};
  a2_cp(q, s->eb);
  a2_rxp(s->bpn, s->eb, q);
  a2_cp(s->bpn[1], q);
  a2_twice(&s->em);
  if (x > 0.0)
    a2_fill(x, s);
  return q[0] + 2.0 * q[1] + 3.0 * q[2] + s->em + a2_sget(s);
}

/* The same of a struct local: filled whole, a 2-D member rotated in place,
 * a scalar member's address. */
__attribute__((batch)) double stl(double x) {
  a2_st a;
  a.eb[0] = x;
  a.eb[1] = 1.0;
  a.eb[2] = -x;
  a2_fill(x, &a);
  a2_rz(x, a.bpn);
  a2_twice(&a.em);
  return a2_sget(&a) + a.eb[1] + a.bpn[0][1];
}

/* Under diff: what the call leaves in r used only in a comparison (it
 * carries no derivative, and none is needed): d/dx (s * x) = 2 s. */
__attribute__((batch, diff)) double side(double x) {
  double r[3][3];
  a2_ir(r);
  a2_rz(x, r);
  double s = r[0][0] < 0.0 ? -x : x;
  return s * x;
}

static const size_t ns[] = {0,  1,  2,  3,  4,  5,  7,  8,   9,
                            15, 16, 17, 31, 32, 33, 37, 1000};
#define NNS (sizeof ns / sizeof ns[0])

/* Moderate values mostly, and ±0, ±inf, NaN, subnormals. */
static double gen(rng_t *r) {
  static const double special[] = {
      0.0,     -0.0,  INFINITY, -INFINITY,         NAN, 0x1p-1074, -0x1p-1060,
      0x1p-27, 0.785, -0.785,   1.5707963267948966};
  if (rng_u64(r) % 8 == 0)
    return special[rng_u64(r) % (sizeof special / sizeof special[0])];
  return 10.0 * (rng_unit(r) * 2 - 1);
}

/* Bit for bit; where the scalar result is a NaN, any NaN (CONTRACT.md). */
static void same(const char *what, size_t n, size_t b, double got,
                 double want) {
  if (isnan(want) ? !isnan(got) : memcmp(&got, &want, sizeof got) != 0)
    fail_msg("%s n=%zu example %zu: %a, scalar %a", what, n, b, got, want);
}

static void test_rot(void **state) {
  (void)state;
  rng_t r = {name_seed("rot")};
  for (int rep = 0; rep < 5; rep++)
    for (size_t i = 0; i < NNS; i++) {
      size_t n = ns[i];
      double *x = gp_alloc((n + 1) * 8), *y = gp_alloc((n + 1) * 8);
      double *ret = gp_alloc((n + 1) * 8);
      long calls = 0;
      for (size_t b = 0; b < n; b++) {
        x[b] = gen(&r);
        y[b] = gen(&r);
        calls += 1 + (y[b] > 0.0);
      }
      long before = a2_rz_calls();
      rot_batched(n, x, y, ret);
      if (a2_rz_calls() - before != calls)
        fail_msg("rot n=%zu: %ld calls of a2_rz, the scalar loop makes %ld", n,
                 a2_rz_calls() - before, calls);
      for (size_t b = 0; b < n; b++)
        same("rot", n, b, ret[b], rot(x[b], y[b]));
      gp_reset();
    }
}

static void test_rows(void **state) {
  (void)state;
  rng_t r = {name_seed("rows")};
  for (size_t i = 0; i < NNS; i++) {
    size_t n = ns[i];
    double *x = gp_alloc((n + 1) * 8), *ret = gp_alloc((n + 1) * 8);
    float *xf = gp_alloc((n + 1) * 4), *retf = gp_alloc((n + 1) * 4);
    int *k = gp_alloc((n + 1) * sizeof *k);
    for (size_t b = 0; b < n; b++) {
      x[b] = gen(&r);
      xf[b] = (float)gen(&r);
      k[b] = (int)(rng_u64(&r) % 7);
    }
    rows_batched(n, x, k, ret);
    for (size_t b = 0; b < n; b++)
      same("rows", n, b, ret[b], rows(x[b], k[b]));
    off_batched(n, xf, k, retf);
    for (size_t b = 0; b < n; b++) {
      float want = off(xf[b], k[b]);
      if (isnan(want) ? !isnan(retf[b])
                      : memcmp(&retf[b], &want, sizeof want) != 0)
        fail_msg("off n=%zu example %zu: %a, scalar %a", n, b, retf[b], want);
    }
    for (size_t b = 0; b < n; b++)
      if (!(fabs(x[b]) < 1e9)) /* (the scalar converts x to int) */
        x[b] = 3.5;
    ints_batched(n, x, ret);
    for (size_t b = 0; b < n; b++)
      same("ints", n, b, ret[b], ints(x[b]));
    gp_reset();
  }
}

/* Arrays of parameters at strides wider than their extents: what
 * pvs_batched leaves in each example's arrays is the scalar function's,
 * and nothing between them is touched. */
static void test_params(void **state) {
  (void)state;
  rng_t r = {name_seed("pvs")};
  enum { SP = 8, SW = 5, SR = 11 };
  for (size_t i = 0; i < NNS; i++) {
    size_t n = ns[i];
    double *dt = gp_alloc((n + 1) * 8), *ret = gp_alloc((n + 1) * 8);
    int *k = gp_alloc((n + 1) * sizeof *k);
    double *pv = gp_alloc((n + 1) * SP * 8), *upv = gp_alloc((n + 1) * SP * 8);
    double *w = gp_alloc((n + 1) * SW * 8), *rr = gp_alloc((n + 1) * SR * 8);
    double *pv2 = gp_alloc((n + 1) * SP * 8),
           *upv2 = gp_alloc((n + 1) * SP * 8);
    double *w2 = gp_alloc((n + 1) * SW * 8), *rr2 = gp_alloc((n + 1) * SR * 8);
    for (size_t b = 0; b < n; b++) {
      dt[b] = gen(&r);
      k[b] = (int)(rng_u64(&r) % 9);
    }
    for (size_t e = 0; e < n * SP; e++) {
      pv[e] = pv2[e] = gen(&r);
      upv[e] = upv2[e] = gen(&r);
    }
    for (size_t e = 0; e < n * SW; e++)
      w[e] = w2[e] = gen(&r);
    for (size_t e = 0; e < n * SR; e++)
      rr[e] = rr2[e] = gen(&r);
    pvs_batched(n, dt, k, pv, SP, upv, SP, w, SW, rr, SR, ret);
    for (size_t b = 0; b < n; b++) {
      double want = pvs(dt[b], k[b], (double(*)[3])(pv2 + b * SP),
                        (double(*)[3])(upv2 + b * SP), w2 + b * SW,
                        (double(*)[3])(rr2 + b * SR));
      same("pvs", n, b, ret[b], want);
    }
    for (size_t e = 0; e < n * SP; e++) {
      same("pvs pv", n, e / SP, pv[e], pv2[e]);
      same("pvs upv", n, e / SP, upv[e], upv2[e]);
    }
    for (size_t e = 0; e < n * SW; e++)
      same("pvs w", n, e / SW, w[e], w2[e]);
    for (size_t e = 0; e < n * SR; e++)
      same("pvs r", n, e / SR, rr[e], rr2[e]);
    gp_reset();
  }
}

static void test_grad(void **state) {
  (void)state;
  rng_t r = {name_seed("side")};
  for (size_t i = 0; i < NNS; i++) {
    size_t n = ns[i];
    double *x = gp_alloc((n + 1) * 8), *ret = gp_alloc((n + 1) * 8);
    double *ret2 = gp_alloc((n + 1) * 8), *dx = gp_alloc((n + 1) * 8);
    for (size_t b = 0; b < n; b++) {
      x[b] = 10.0 * (rng_unit(&r) * 2 - 1);
      dx[b] = 0.0;
    }
    side_batched(n, x, ret);
    side_grad(n, x, ret2, NULL, dx);
    for (size_t b = 0; b < n; b++) {
      same("side", n, b, ret[b], side(x[b]));
      same("side (grad)", n, b, ret2[b], side(x[b]));
      double s = side(x[b]) / x[b];
      if (!(fabs(dx[b] - 2.0 * s) <= 1e-12 * (1 + fabs(s))))
        fail_msg("side n=%zu example %zu x=%a: gradient %.17g, 2 s %.17g", n, b,
                 x[b], dx[b], 2.0 * s);
    }
    gp_reset();
  }
}

/* Records at a stride of two: what st_batched leaves in each example's
 * struct (every member) is the scalar function's, the record between
 * untouched. */
static void test_struct(void **state) {
  (void)state;
  rng_t r = {name_seed("st")};
  for (size_t i = 0; i < NNS; i++) {
    size_t n = ns[i];
    double *x = gp_alloc((n + 1) * 8), *ret = gp_alloc((n + 1) * 8);
    a2_st *s = gp_alloc((2 * n + 1) * sizeof *s),
          *s2 = gp_alloc((2 * n + 1) * sizeof *s2);
    for (size_t b = 0; b < n; b++) {
      x[b] = gen(&r);
      if (!(fabs(x[b]) < 1e6)) /* (a2_fill converts x to int) */
        x[b] = -0.75;
    }
    for (size_t e = 0; e < 2 * n; e++) {
      memset(&s[e], 0, sizeof s[e]);
      s[e].pmt = gen(&r);
      s[e].em = gen(&r);
      for (int k = 0; k < 3; k++) {
        s[e].eb[k] = gen(&r);
        for (int j = 0; j < 3; j++)
          s[e].bpn[k][j] = gen(&r);
      }
      s[e].n = (int)(rng_u64(&r) % 9);
      s2[e] = s[e];
    }
    st_batched(n, x, s, 2, ret);
    for (size_t b = 0; b < n; b++)
      same("st", n, b, ret[b], st(x[b], &s2[2 * b]));
    for (size_t e = 0; e < 2 * n; e++)
      if (memcmp(&s[e], &s2[e], sizeof s[e]) != 0)
        fail_msg("st n=%zu record %zu differs from the scalar function's", n,
                 e);
    stl_batched(n, x, ret);
    for (size_t b = 0; b < n; b++)
      same("stl", n, b, ret[b], stl(x[b]));
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rot),    cmocka_unit_test(test_rows),
      cmocka_unit_test(test_params), cmocka_unit_test(test_struct),
      cmocka_unit_test(test_grad),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_extern_array_2d", tests, NULL, NULL);
}
