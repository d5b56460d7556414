/* Local arrays passed to functions of another file marked batch, diff in
 * their header (lane_grad_array.h, defined in lane_grad_array_other.c), as
 * ERFA's functions call each other (`eraRxp(r, p, q)` with a local `double
 * r[3][3]`, `eraS2c(theta, phi, v)` then v read): made once per example on
 * the scalar function, with the derivatives from the callee's NAME_grad,
 * its array parameters' shadows the copy's (docs/calls.md). Before, each
 * function here was an error (diff-extern-out-array: what the call leaves
 * in the array carries no derivative). For n = 0 .. 37: the values of
 * NAME_batched and NAME_grad are the scalar function's bits; gradients
 * agree with Richardson central differences of the scalar function (points
 * where two step sizes disagree, kinks, skipped; at least half checked). */
#include "exec_util.h"

#include "../common/test_filter.h"
#include "lane_grad_array.h"

#include <math.h>
#include <string.h>

/* (The functions here add and multiply only: the values are the scalar
 * function's bits, the callees' from their scalar calls.) */

/* A 2-D local and a 1-D one filled from the parameters, read by the
 * callee; an output array written by it. */
BATCHDIFF double rot(double x, double y, double z) {
  double r[3][3], p[3], q[3];
  r[0][0] = 1.0 - 0.5 * x * x;
  r[0][1] = x;
  r[0][2] = 0.0;
  r[1][0] = -x;
  r[1][1] = (1.0 - 0.5 * x * x) * y;
  r[1][2] = y;
  r[2][0] = z;
  r[2][1] = 0.0;
  r[2][2] = 1.0;
  p[0] = x * y;
  p[1] = z;
  p[2] = y;
  lga_rxp(r, p, q);
  return q[0] + 2.0 * q[1] * q[2];
}

/* Only written (lga_s2c), read and written in place (a 2-D local rotated
 * a per-example number of times), rows and offsets passed, a number
 * returned. */
BATCHDIFF double chain(double x, double y, double z) {
  double c[3], r[3][3];
  lga_s2c(x, y, c);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      r[i][j] = i == j ? z : 0.25 * (i - j) * x;
  int t = (int)(fabs(z) * 2.0);
  for (int k = 0; k < t; k++)
    lga_rz(y, r);
  double d = lga_dot2(r[1], c + 1);
  double e = lga_dot2(&r[2][1], c);
  return d + e * z + r[0][1] * c[2];
}

/* Passed on by an inlined helper's pointer parameter. */
static int scale_row(double s, double *v) { return lga_scale(s, v); }

/* A row at a per-example index, read and written; an int status (1: the
 * row untouched) chooses the result. */
BATCHDIFF double rows(double x, double y, double z) {
  double m[2][3];
  m[0][0] = x;
  m[0][1] = y;
  m[0][2] = z;
  m[1][0] = y * z;
  m[1][1] = x * x;
  m[1][2] = 1.5;
  int k = x > 0.0 ? 1 : 0;
  int s = scale_row(y, m[k]);
  return s ? m[0][0] * z : m[0][0] + m[1][1] * m[k][2] + m[1][0];
}

/* One array passed twice where both are read: the matrix and its row
 * (`rxp(r, r[1], q)`), a vector dotted with itself. */
BATCHDIFF double twice(double x, double y, double z) {
  double r[3][3], q[3], a[2];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      r[i][j] = (x * (i + 1) + y * j) * (0.5 - x * 0.125) + z * (i == j);
  lga_rxp(r, r[1], q);
  a[0] = x - z;
  a[1] = y * x;
  return q[0] * q[1] + q[2] + lga_dot2(a, a);
}

/* ERFA's declarations (lga_rxp_nc, as eraRxp): arrays only read passed
 * as pointers to non-const, the result passed back as the vector. */
BATCHDIFF double nc(double x, double y, double z) {
  double r[3][3], p[3], q[3];
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 3; j++)
      r[i][j] = (x * i - y * j) * (1.0 + z * (i == j));
    p[i] = x + i * y * z;
  }
  lga_rxp_nc(r, p, q);
  lga_rxp_nc(r, q, p);
  return p[0] * q[1] + p[2];
}

/* Two rows of one local array, apart, to parameters the callee may write
 * (ERFA's eraPvu: `eraPpsp(pv[0], dt, pv[1], upv[0])`): a copy each. */
BATCHDIFF double apart(double x, double y, double z) {
  double m[2][3], q[3];
  for (int j = 0; j < 3; j++) {
    m[0][j] = x + j * z;
    m[1][j] = y * (j + 1);
  }
  lga_ppsp(m[0], z, m[1], q);
  lga_ppsp(m[1], x, q, m[0]);
  return m[0][0] * q[1] + m[0][2] + m[1][1] * z;
}

typedef double (*fn3)(double, double, double);
typedef void (*fn3_batched)(size_t, const double *, const double *,
                            const double *, double *);
typedef void (*fn3_grad)(size_t, const double *, const double *, const double *,
                         double *, const double *, double *, double *,
                         double *);

/* Richardson-extrapolated central differences of f in argument w; *ok
 * false where two step sizes disagree (a kink, a jump). */
static double rich(fn3 f, const double *p, int w, int *ok) {
  double d[3];
  for (int k = 0; k < 3; k++) {
    double h = 1e-3 / (1 << k), a[3], b[3];
    memcpy(a, p, sizeof a);
    memcpy(b, p, sizeof b);
    a[w] += h;
    b[w] -= h;
    d[k] = (f(a[0], a[1], a[2]) - f(b[0], b[1], b[2])) / (2 * h);
  }
  double r1 = (4 * d[1] - d[0]) / 3, r2 = (4 * d[2] - d[1]) / 3;
  *ok = isfinite(r2) && fabs(r1 - r2) <= 1e-8 * (1 + fabs(r2));
  return r2;
}

static void same_bits(const char *what, size_t n, size_t b, double got,
                      double want) {
  if (memcmp(&got, &want, sizeof got) != 0 && !(isnan(got) && isnan(want)))
    fail_msg("%s n=%zu lane %zu: %a, scalar %a", what, n, b, got, want);
}

/* Values of NAME_batched and NAME_grad bit for bit, the gradient against
 * differences, each parameter in [-3, 3]. */
static void check3(const char *name, fn3 f, fn3_batched fb, fn3_grad fg) {
  rng_t r = {name_seed(name)};
  long checked = 0, points = 0;
  for (size_t n = 0; n <= 37; n++) {
    double *in[3], *d[3];
    for (int w = 0; w < 3; w++) {
      in[w] = gp_alloc((n + 1) * 8);
      d[w] = gp_alloc((n + 1) * 8);
    }
    double *ret = gp_alloc((n + 1) * 8), *ret2 = gp_alloc((n + 1) * 8);
    for (size_t b = 0; b < n; b++)
      for (int w = 0; w < 3; w++) {
        in[w][b] = -3.0 + 6.0 * rng_unit(&r);
        d[w][b] = 0.0;
      }
    fb(n, in[0], in[1], in[2], ret);
    fg(n, in[0], in[1], in[2], ret2, NULL, d[0], d[1], d[2]);
    for (size_t b = 0; b < n; b++) {
      double p[3] = {in[0][b], in[1][b], in[2][b]};
      double want = f(p[0], p[1], p[2]);
      same_bits(name, n, b, ret[b], want);
      same_bits(name, n, b, ret2[b], want);
      for (int w = 0; w < 3; w++) {
        int ok;
        double fd = rich(f, p, w, &ok);
        points++;
        if (!ok)
          continue;
        checked++;
        if (!(fabs(d[w][b] - fd) <= 1e-6 * (1 + fabs(fd))))
          fail_msg("%s n=%zu lane %zu (%a, %a, %a): d/d%c %.17g, "
                   "differences %.17g",
                   name, n, b, p[0], p[1], p[2], "xyz"[w], d[w][b], fd);
      }
    }
    gp_reset();
  }
  if (checked * 2 < points)
    fail_msg("%s: %ld of %ld gradients checked", name, checked, points);
}

static void test_rot(void **state) {
  (void)state;
  check3("rot", rot, rot_batched, rot_grad);
}

static void test_chain(void **state) {
  (void)state;
  check3("chain", chain, chain_batched, chain_grad);
}

static void test_rows(void **state) {
  (void)state;
  check3("rows", rows, rows_batched, rows_grad);
}

static void test_apart(void **state) {
  (void)state;
  check3("apart", apart, apart_batched, apart_grad);
}

static void test_nc(void **state) {
  (void)state;
  check3("nc", nc, nc_batched, nc_grad);
}

static void test_twice(void **state) {
  (void)state;
  check3("twice", twice, twice_batched, twice_grad);
}

/* The function's own array parameters passed to such calls, as ERFA's
 * eraRxpv passes its `double r[3][3]` and rows of `double pv[2][3]` to
 * eraRxp: a 2-D input whole, rows of a 2-D input, rows of a 2-D output. */
BATCHDIFF void rxpv(double x, const double r[3][3], const double pv[2][3],
                    double rpv[2][3]) {
  lga_rxp(r, pv[0], rpv[0]);
  lga_rxp(r, pv[1], rpv[1]);
  rpv[1][2] += x * rpv[0][0];
}

/* A 2-D parameter read and written in place by the callee, twice. */
BATCHDIFF void spin(double x, double r[3][3]) {
  lga_rz(x, r);
  lga_rz(0.5 * x * r[0][0], r);
}

/* ERFA's declarations: the parameters only read, as pointers to
 * non-const, to a callee declaring them so (eraTrxp's eraRxp(r, p, q)). */
BATCHDIFF void trxp(double x, double r[3][3], double p[3], double q[3]) {
  lga_rxp_nc(r, p, q);
  q[0] *= x;
}

/* Offsets into a parameter, the same parameter twice in one call (read
 * only), a row at a per-example index, a local array besides, a number
 * returned by the callee. */
BATCHDIFF void offs(double x, const double a[4], const double m[2][2],
                    double out[2]) {
  double c[3];
  out[0] = lga_dot2(a + 1, &a[2]);
  lga_s2c(x, a[0], c);
  out[1] = c[0] * a[3] + lga_dot2(&a[2], c + 1) +
           x * lga_dot2(m[x > 0.0 ? 1 : 0], a);
}

/* The function's pointer out-parameter without an extent passed itself
 * where the callee takes a pointer to one scalar (ERFA's eraAtccq calling
 * `eraC2s(pco, &w, da)`), a scalar local's address besides. */
BATCHDIFF void c2s_out(double x, const double p[3], double *a, double *b) {
  double w;
  lga_c2s(p, &w, b);
  *a = w * x;
}

/* Rows of the function's own 2-D parameter apart in one call (eraPvu). */
BATCHDIFF void pvu(double x, double pv[2][3], double upv[2][3]) {
  lga_ppsp(pv[0], x, pv[1], upv[0]);
  lga_ppsp(pv[1], x * x, pv[0], upv[1]);
}

/* Array slots of the functions of the function's own arrays: each has len
 * elements, is read on entry (in) and/or its final value is an output
 * (out). Each example's arrays lie len + 3 elements apart. */
typedef struct {
  int len, in, out;
} slot;
enum { MAXS = 4, GAP = 3 };
typedef struct {
  const char *name;
  int ns;
  slot s[MAXS];
  void (*scalar)(double x, double *const *a);
  void (*batched)(size_t n, const double *x, double *const *a, ptrdiff_t st);
  void (*grad)(size_t n, const double *x, double *const *a, double *dx,
               double *const *d, ptrdiff_t st);
} afn;

static void rxpv_s(double x, double *const *a) {
  rxpv(x, (const double(*)[3])a[0], (const double(*)[3])a[1],
       (double(*)[3])a[2]);
}
static void rxpv_b(size_t n, const double *x, double *const *a, ptrdiff_t st) {
  rxpv_batched(n, x, a[0], st, a[1], st, a[2], st);
}
static void rxpv_g(size_t n, const double *x, double *const *a, double *dx,
                   double *const *d, ptrdiff_t st) {
  rxpv_grad(n, x, a[0], st, a[1], st, a[2], st, dx, d[0], st, d[1], st, d[2],
            st);
}
static void spin_s(double x, double *const *a) { spin(x, (double(*)[3])a[0]); }
static void spin_b(size_t n, const double *x, double *const *a, ptrdiff_t st) {
  spin_batched(n, x, a[0], st);
}
static void spin_g(size_t n, const double *x, double *const *a, double *dx,
                   double *const *d, ptrdiff_t st) {
  spin_grad(n, x, a[0], st, dx, d[0], st);
}
static void trxp_s(double x, double *const *a) {
  trxp(x, (double(*)[3])a[0], a[1], a[2]);
}
static void trxp_b(size_t n, const double *x, double *const *a, ptrdiff_t st) {
  trxp_batched(n, x, a[0], st, a[1], st, a[2], st);
}
static void trxp_g(size_t n, const double *x, double *const *a, double *dx,
                   double *const *d, ptrdiff_t st) {
  trxp_grad(n, x, a[0], st, a[1], st, a[2], st, dx, d[0], st, d[1], st, d[2],
            st);
}
static void offs_s(double x, double *const *a) {
  offs(x, a[0], (const double(*)[2])a[1], a[2]);
}
static void offs_b(size_t n, const double *x, double *const *a, ptrdiff_t st) {
  offs_batched(n, x, a[0], st, a[1], st, a[2], st);
}
static void offs_g(size_t n, const double *x, double *const *a, double *dx,
                   double *const *d, ptrdiff_t st) {
  offs_grad(n, x, a[0], st, a[1], st, a[2], st, dx, d[0], st, d[1], st, d[2],
            st);
}
static void c2s_out_s(double x, double *const *a) {
  c2s_out(x, a[0], a[1], a[2]);
}
static void c2s_out_b(size_t n, const double *x, double *const *a,
                      ptrdiff_t st) {
  c2s_out_batched(n, x, a[0], st, a[1], st, a[2], st);
}
static void c2s_out_g(size_t n, const double *x, double *const *a, double *dx,
                      double *const *d, ptrdiff_t st) {
  c2s_out_grad(n, x, a[0], st, a[1], st, a[2], st, dx, d[0], st, d[1], st, d[2],
               st);
}
static void pvu_s(double x, double *const *a) {
  pvu(x, (double(*)[3])a[0], (double(*)[3])a[1]);
}
static void pvu_b(size_t n, const double *x, double *const *a, ptrdiff_t st) {
  pvu_batched(n, x, a[0], st, a[1], st);
}
static void pvu_g(size_t n, const double *x, double *const *a, double *dx,
                  double *const *d, ptrdiff_t st) {
  pvu_grad(n, x, a[0], st, a[1], st, dx, d[0], st, d[1], st);
}

static const afn afns[] = {
    {"rxpv", 3, {{9, 1, 0}, {6, 1, 0}, {6, 0, 1}}, rxpv_s, rxpv_b, rxpv_g},
    {"spin", 1, {{9, 1, 1}}, spin_s, spin_b, spin_g},
    {"trxp", 3, {{9, 1, 0}, {3, 1, 0}, {3, 0, 1}}, trxp_s, trxp_b, trxp_g},
    {"offs", 3, {{4, 1, 0}, {4, 1, 0}, {2, 0, 1}}, offs_s, offs_b, offs_g},
    {"pvu", 2, {{6, 1, 0}, {6, 0, 1}}, pvu_s, pvu_b, pvu_g},
    {"c2s_out",
     3,
     {{3, 1, 0}, {1, 0, 1}, {1, 0, 1}},
     c2s_out_s,
     c2s_out_b,
     c2s_out_g},
};

/* Example b's arrays of the batch arrays a (stride st) copied into e. */
static void example(const afn *f, double *const *a, ptrdiff_t st, size_t b,
                    double e[MAXS][16]) {
  for (int k = 0; k < f->ns; k++)
    memcpy(e[k], a[k] + b * st, f->s[k].len * sizeof(double));
}

/* Output o (slot so, element eo) of the scalar function at x and arrays
 * e, input (slot si, element ei; si < 0: x) moved by h. */
static double out_at(const afn *f, double x, double e[MAXS][16], int so, int eo,
                     int si, int ei, double h) {
  double c[MAXS][16], *p[MAXS];
  memcpy(c, e, sizeof c);
  for (int k = 0; k < MAXS; k++)
    p[k] = c[k];
  if (si < 0)
    x += h;
  else
    c[si][ei] += h;
  f->scalar(x, p);
  return c[so][eo];
}

static void check_arrays(const afn *f) {
  rng_t r = {name_seed(f->name)};
  long checked = 0, points = 0;
  for (size_t n = 0; n <= 37; n += n < 9 ? 1 : 7) {
    ptrdiff_t st = 16 + GAP;
    double *x = gp_alloc((n + 1) * 8), *dx = gp_alloc((n + 1) * 8);
    double *a[MAXS], *a2[MAXS], *a3[MAXS], *d[MAXS];
    for (int k = 0; k < f->ns; k++) {
      a[k] = gp_alloc((n + 1) * st * 8);
      a2[k] = gp_alloc((n + 1) * st * 8);
      a3[k] = gp_alloc((n + 1) * st * 8);
      d[k] = gp_alloc((n + 1) * st * 8);
      for (size_t e = 0; e < (n + 1) * st; e++)
        a[k][e] = a2[k][e] = a3[k][e] = -3.0 + 6.0 * rng_unit(&r);
    }
    for (size_t b = 0; b < n; b++)
      x[b] = -3.0 + 6.0 * rng_unit(&r);
    /* Inputs as they were, for the differences. */
    double(*e0)[MAXS][16] = gp_alloc((n + 1) * sizeof *e0);
    for (size_t b = 0; b < n; b++)
      example(f, a, st, b, e0[b]);
    /* Values: NAME_batched against the scalar function, every element
     * (the gaps untouched). */
    f->batched(n, x, a2, st);
    for (size_t b = 0; b < n; b++) {
      double *p[MAXS];
      for (int k = 0; k < f->ns; k++)
        p[k] = a[k] + b * st;
      f->scalar(x[b], p);
    }
    for (int k = 0; k < f->ns; k++)
      for (size_t e = 0; e < n * st; e++)
        if (memcmp(&a[k][e], &a2[k][e], 8))
          fail_msg("%s n=%zu example %zu array %d [%zu]: %a, scalar %a",
                   f->name, n, e / st, k, e % st, a2[k][e], a[k][e]);
    /* Gradients: each output element seeded alone. */
    for (int so = 0; so < f->ns; so++)
      for (int eo = 0; f->s[so].out && eo < f->s[so].len; eo++) {
        for (int k = 0; k < f->ns; k++) {
          memset(d[k], 0, (n + 1) * st * 8);
          for (size_t b = 0; b < n; b++) {
            memcpy(a3[k] + b * st, e0[b][k], f->s[k].len * 8);
            if (k == so)
              d[k][b * st + eo] = 1.0;
          }
        }
        memset(dx, 0, (n + 1) * 8);
        f->grad(n, x, a3, dx, d, st);
        for (size_t b = 0; b < n; b++) {
          for (int k = 0; k < f->ns; k++)
            if (memcmp(a3[k] + b * st, a[k] + b * st, f->s[k].len * 8))
              fail_msg("%s n=%zu example %zu: NAME_grad's array %d differs",
                       f->name, n, b, k);
          for (int si = -1; si < f->ns; si++)
            for (int ei = 0; ei < (si < 0 ? 1 : f->s[si].len); ei++) {
              if (si >= 0 && !f->s[si].in)
                continue;
              double g = si < 0 ? dx[b] : d[si][b * st + ei], dd[3];
              for (int j = 0; j < 3; j++) {
                double h = 1e-3 / (1 << j);
                dd[j] = (out_at(f, x[b], e0[b], so, eo, si, ei, h) -
                         out_at(f, x[b], e0[b], so, eo, si, ei, -h)) /
                        (2 * h);
              }
              double r1 = (4 * dd[1] - dd[0]) / 3, r2 = (4 * dd[2] - dd[1]) / 3;
              points++;
              if (!isfinite(r2) || fabs(r1 - r2) > 1e-8 * (1 + fabs(r2)))
                continue; /* a kink */
              checked++;
              if (!(fabs(g - r2) <= 1e-6 * (1 + fabs(r2))))
                fail_msg("%s n=%zu example %zu: d out[%d][%d] / d in[%d][%d] "
                         "%.17g, differences %.17g",
                         f->name, n, b, so, eo, si, ei, g, r2);
            }
        }
      }
    gp_reset();
  }
  if (checked * 2 < points)
    fail_msg("%s: %ld of %ld gradients checked", f->name, checked, points);
}

static void test_params(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof afns / sizeof afns[0]; i++)
    check_arrays(&afns[i]);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_rot),   cmocka_unit_test(test_chain),
      cmocka_unit_test(test_rows),  cmocka_unit_test(test_twice),
      cmocka_unit_test(test_nc),    cmocka_unit_test(test_params),
      cmocka_unit_test(test_apart),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_lane_grad_array", tests, NULL, NULL);
}
