/* Per-example arrays of a declared static extent read at indices the same
 * for every lane (plugin/emit/KernelDense.cpp): the kernel reads each
 * step's arrays whole (rows and a transpose with all lanes active, masked
 * gathers in the batch's last step) and takes element t from vector t.
 * Extents 1, 3, 8, 13 and 32 (the bound) and 33 (above it: gathers), doubles,
 * floats and ints, members of arrays of records (all members, or the middle
 * one of three); reads under a branch that differs per example, in a
 * loop of per-example trip count, at per-lane indices too, past the
 * declared extent, through BD_EXTENT. For n = 0 .. 40, 100 and strides
 * extent, extent + 5 and 0, with every input array ending right before a
 * guard page:
 *   - NAME_batched bit for bit the scalar function;
 *   - NAME_grad's ret bit for bit, its gradients against central
 *     differences of the scalar function (shadows accumulated in vectors
 *     too), also where shadows overlap (stride 0; two arrays d_u and
 *     d_u + 1) or one is NULL. */
#include "../exec/exec_util.h"

#include <math.h>

BATCHDIFF double e1(const double x[1], double a) { return x[0] * a + 1.0; }

BATCHDIFF double e3(const double v[3], double a) {
  double s = v[2] - v[0];
  for (int i = 0; i < 3; i++)
    s += v[i] * v[i] * a;
  return s;
}

BATCHDIFF double e8(const double xs[8], const double ys[8], double a,
                    double b) {
  double s = 0;
  for (int i = 0; i < 8; i++) {
    double r = ys[i] - (a * xs[i] + b);
    s += r * r;
  }
  return s / 8;
}

BATCHDIFF double e13(const double v[13], double a) {
  double s = 0;
  for (int i = 0; i < 13; i++)
    s = s * a + v[12 - i] * (i + 1);
  return s;
}

/* The bound (32) and above it (33: gathers). */
BATCHDIFF double e32(const double v[32], double a) {
  double s = 0;
  for (int i = 0; i < 32; i += 3)
    s += v[i] * a + v[31 - i];
  return s;
}
BATCHDIFF double e33(const double v[33], double a) {
  double s = 0;
  for (int i = 0; i < 33; i += 4)
    s += v[i] * a - v[32 - i];
  return s;
}

/* Under a branch that differs per example; a per-lane index too. */
BATCHDIFF double br(const double v[8], double a, int k) {
  double s = 0;
  if (a > 0) {
    for (int i = 0; i < 8; i++)
      s += v[i] * a;
  } else {
    s = v[3] - a * v[k & 7];
  }
  return s;
}

/* A loop of per-example trip count. */
BATCHDIFF double rag(const double v[8], int n, double a) {
  double s = a;
  for (int i = 0; i < n && i < 8; i++)
    s = s * v[i] + a;
  return s;
}

/* Past the declared extent (C allows it; the caller's memory is there). */
BATCHDIFF double past(const double v[2], double a) { return v[0] * a + v[3]; }

/* BD_EXTENT. */
BATCHDIFF double ext(const double *p BD_EXTENT(5), double a) {
  return p[0] * a + p[4] * p[2] - p[1] * p[3];
}

BATCHDIFF float f3(const float v[3], float a) {
  return v[0] * a + v[1] * v[2] - a * a * v[2];
}

BATCHDIFF float f8(const float xs[8], const float ys[8], float a, float b) {
  float s = 0;
  for (int i = 0; i < 8; i++) {
    float r = ys[i] - (a * xs[i] + b);
    s += r * r;
  }
  return s / 8;
}

BATCHDIFF float f13(const float v[13], float a) {
  float s = 0;
  for (int i = 0; i < 13; i++)
    s = s * a + v[i];
  return s;
}

/* Members of arrays of records: every member, or one of three. */
struct pt {
  double x, y;
};
BATCHDIFF double fitr(const struct pt p[8], double a, double b) {
  double s = 0;
  for (int i = 0; i < 8; i++) {
    double r = p[i].y - (a * p[i].x + b);
    s += r * r;
  }
  return s / 8;
}
struct v3f {
  float x, y, z;
};
BATCHDIFF float midf(const struct v3f v[5], float a) {
  float s = 0;
  for (int i = 0; i < 5; i++)
    s = s * a + v[i].y;
  return s;
}

/* Two arrays that overlap when called as sten(u, u + 1, a). */
BATCHDIFF double sten(const double u[4], const double v[4], double a) {
  double s = 0;
  for (int i = 0; i < 4; i++)
    s += (v[i] - u[i]) * (v[i] - u[i]) * a + u[i] * v[i];
  return s;
}

/* Integers: in lanes of 32 bits of a double shape. */
BATCHDIFF double ints(const int c[4], double x) {
  return c[0] + x * (c[1] + x * (c[2] + x * c[3]));
}

static int bad;
#define FAIL(...)                                                              \
  do {                                                                         \
    if (bad++ < 20)                                                            \
      printf(__VA_ARGS__);                                                     \
  } while (0)

static const size_t ns[] = {0,  1,  2,  3,  4,  5,  7,  8,  9,  15,
                            16, 17, 24, 31, 32, 33, 39, 40, 64, 100};
#define NNS (sizeof ns / sizeof ns[0])

/* An input of n examples of L elements, stride S, ending at a guard page;
 * values from r (ints when I). */
static void *arr_in(size_t n, int L, ptrdiff_t S, size_t esz, rng_t *r,
                    int kind) {
  size_t cnt = n ? (size_t)((ptrdiff_t)(n - 1) * S) + (size_t)L : 0;
  void *p = gp_alloc(cnt * esz);
  for (size_t i = 0; i < cnt; i++) {
    double v = rng_range(r, -2, 2);
    if (kind == 0)
      ((double *)p)[i] = v;
    else if (kind == 1)
      ((float *)p)[i] = (float)v;
    else
      ((int *)p)[i] = (int)(v * 10);
  }
  return p;
}
static double *sc_in(size_t n, rng_t *r, double lo, double hi) {
  double *p = gp_alloc(n * sizeof(double));
  for (size_t i = 0; i < n; i++)
    p[i] = rng_range(r, lo, hi);
  return p;
}
static float *sc_inf(size_t n, rng_t *r) {
  float *p = gp_alloc(n * sizeof(float));
  for (size_t i = 0; i < n; i++)
    p[i] = (float)rng_range(r, -1.5, 1.5);
  return p;
}
static int *sc_ini(size_t n, rng_t *r, int lo, int hi) {
  int *p = gp_alloc(n * sizeof(int));
  for (size_t i = 0; i < n; i++)
    p[i] = lo + rng_below(r, hi - lo + 1);
  return p;
}

static int same_d(double a, double b) { return memcmp(&a, &b, 8) == 0; }
static int same_f(float a, float b) { return memcmp(&a, &b, 4) == 0; }
static int close_d(double g, double fd, double tol) {
  return fabs(g - fd) <= tol * (1 + fabs(fd));
}

/* The strides of a case: contiguous, padded, shared. */
static ptrdiff_t stride_of(int k, int L) {
  return k == 0 ? L : k == 1 ? L + 5 : 0;
}

/* f(x, a) with one double array of extent L: batched and grad. */
typedef double (*fn1)(const double *, double);
typedef void (*bat1)(size_t, const double *, ptrdiff_t, const double *,
                     double *);
typedef void (*grad1)(size_t, const double *, ptrdiff_t, const double *,
                      double *, const double *, double *, ptrdiff_t, double *);
static void check1(const char *nm, int L, fn1 f, bat1 fb, grad1 fg) {
  rng_t r = {0x5eed + (uint64_t)L};
  for (size_t in = 0; in < NNS; in++)
    for (int k = 0; k < 3; k++) {
      size_t n = ns[in];
      ptrdiff_t S = stride_of(k, L);
      const double *x = arr_in(n, L, S, 8, &r, 0), *a = sc_in(n, &r, -1, 1);
      gp_seal(x), gp_seal(a);
      double *ret = gp_alloc(n * 8), *ret2 = gp_alloc(n * 8);
      fb(n, x, S, a, ret);
      for (size_t b = 0; b < n; b++)
        if (!same_d(ret[b], f(x + (ptrdiff_t)b * S, a[b])))
          FAIL("%s n %zu stride %td: example %zu: %a vs %a\n", nm, n, S, b,
               ret[b], f(x + (ptrdiff_t)b * S, a[b]));
      if (k == 2) { /* shared array: the gradient adds up; skip */
        gp_reset();
        continue;
      }
      size_t cnt = n ? (size_t)((ptrdiff_t)(n - 1) * S) + (size_t)L : 0;
      double *dx = gp_alloc(cnt * 8), *da = gp_alloc(n * 8);
      fg(n, x, S, a, ret2, NULL, dx, S, da);
      for (size_t b = 0; b < n; b++) {
        const double *xb = x + (ptrdiff_t)b * S;
        if (!same_d(ret2[b], ret[b]))
          FAIL("%s_grad n %zu: ret %zu differs\n", nm, n, b);
        double xc[40], h = 1e-6;
        memcpy(xc, xb, (size_t)L * 8);
        for (int i = 0; i < L; i++) {
          double o = xc[i];
          xc[i] = o + h;
          double fp = f(xc, a[b]);
          xc[i] = o - h;
          double fm = f(xc, a[b]);
          xc[i] = o;
          if (!close_d(dx[(ptrdiff_t)b * S + i], (fp - fm) / (2 * h), 1e-6))
            FAIL("%s_grad n %zu stride %td: d_x[%zu][%d] %g vs %g\n", nm, n, S,
                 b, i, dx[(ptrdiff_t)b * S + i], (fp - fm) / (2 * h));
        }
        double fp = f(xb, a[b] + h), fm = f(xb, a[b] - h);
        if (!close_d(da[b], (fp - fm) / (2 * h), 1e-6))
          FAIL("%s_grad n %zu: d_a[%zu] %g vs %g\n", nm, n, b, da[b],
               (fp - fm) / (2 * h));
      }
      gp_reset();
    }
}

static double fit_s(const double *xs, const double *ys, double a, double b) {
  return e8(xs, ys, a, b);
}
static double past_s(const double *v, double a) { return past(v, a); }
static double ext_s(const double *v, double a) { return ext(v, a); }
static double e1_s(const double *v, double a) { return e1(v, a); }
static double e3_s(const double *v, double a) { return e3(v, a); }
static double e13_s(const double *v, double a) { return e13(v, a); }
static double e32_s(const double *v, double a) { return e32(v, a); }
static double e33_s(const double *v, double a) { return e33(v, a); }

static void check_fit(void) {
  rng_t r = {77};
  for (size_t in = 0; in < NNS; in++)
    for (int k = 0; k < 3; k++) {
      size_t n = ns[in];
      ptrdiff_t S = stride_of(k, 8);
      const double *xs = arr_in(n, 8, S, 8, &r, 0),
                   *ys = arr_in(n, 8, S, 8, &r, 0), *a = sc_in(n, &r, -1, 1),
                   *b = sc_in(n, &r, -1, 1);
      double *ret = gp_alloc(n * 8);
      e8_batched(n, xs, S, ys, S, a, b, ret);
      for (size_t e = 0; e < n; e++)
        if (!same_d(ret[e], fit_s(xs + (ptrdiff_t)e * S, ys + (ptrdiff_t)e * S,
                                  a[e], b[e])))
          FAIL("e8 n %zu stride %td: example %zu\n", n, S, e);
      if (k < 2) {
        size_t cnt = n ? (size_t)((ptrdiff_t)(n - 1) * S) + 8 : 0;
        double *dxs = gp_alloc(cnt * 8), *dys = gp_alloc(cnt * 8);
        double *da = gp_alloc(n * 8), *db = gp_alloc(n * 8);
        e8_grad(n, xs, S, ys, S, a, b, NULL, NULL, dxs, S, dys, S, da, db);
        for (size_t e = 0; e < n; e++)
          for (int i = 0; i < 8; i++) {
            const double *x = xs + (ptrdiff_t)e * S, *y = ys + (ptrdiff_t)e * S;
            double rr = y[i] - (a[e] * x[i] + b[e]);
            if (!close_d(dxs[(ptrdiff_t)e * S + i], -2 * a[e] * rr / 8,
                         1e-12) ||
                !close_d(dys[(ptrdiff_t)e * S + i], 2 * rr / 8, 1e-12))
              FAIL("e8_grad n %zu: example %zu element %d\n", n, e, i);
          }
      }
      gp_reset();
    }
}

static void check_branch(void) {
  rng_t r = {91};
  for (size_t in = 0; in < NNS; in++)
    for (int k = 0; k < 3; k++) {
      size_t n = ns[in];
      ptrdiff_t S = stride_of(k, 8);
      const double *v = arr_in(n, 8, S, 8, &r, 0), *a = sc_in(n, &r, -1, 1);
      const int *kk = sc_ini(n, &r, -20, 20), *cnt = sc_ini(n, &r, -1, 10);
      double *ret = gp_alloc(n * 8), *ret2 = gp_alloc(n * 8);
      br_batched(n, v, S, a, kk, ret);
      rag_batched(n, v, S, cnt, a, ret2);
      for (size_t e = 0; e < n; e++) {
        const double *ve = v + (ptrdiff_t)e * S;
        if (!same_d(ret[e], br(ve, a[e], kk[e])))
          FAIL("br n %zu stride %td: example %zu\n", n, S, e);
        if (!same_d(ret2[e], rag(ve, cnt[e], a[e])))
          FAIL("rag n %zu stride %td: example %zu\n", n, S, e);
      }
      gp_reset();
    }
}

static void check_float(void) {
  rng_t r = {5};
  for (size_t in = 0; in < NNS; in++)
    for (int k = 0; k < 3; k++) {
      size_t n = ns[in];
      const float *a = sc_inf(n, &r), *b = sc_inf(n, &r);
      float *ret = gp_alloc(n * 4);
      ptrdiff_t S3 = stride_of(k, 3), S8 = stride_of(k, 8),
                S13 = stride_of(k, 13);
      const float *v3 = arr_in(n, 3, S3, 4, &r, 1),
                  *x8 = arr_in(n, 8, S8, 4, &r, 1),
                  *y8 = arr_in(n, 8, S8, 4, &r, 1),
                  *v13 = arr_in(n, 13, S13, 4, &r, 1);
      f3_batched(n, v3, S3, a, ret);
      for (size_t e = 0; e < n; e++)
        if (!same_f(ret[e], f3(v3 + (ptrdiff_t)e * S3, a[e])))
          FAIL("f3 n %zu stride %td: example %zu\n", n, S3, e);
      f8_batched(n, x8, S8, y8, S8, a, b, ret);
      for (size_t e = 0; e < n; e++)
        if (!same_f(ret[e], f8(x8 + (ptrdiff_t)e * S8, y8 + (ptrdiff_t)e * S8,
                               a[e], b[e])))
          FAIL("f8 n %zu stride %td: example %zu\n", n, S8, e);
      f13_batched(n, v13, S13, a, ret);
      for (size_t e = 0; e < n; e++)
        if (!same_f(ret[e], f13(v13 + (ptrdiff_t)e * S13, a[e])))
          FAIL("f13 n %zu stride %td: example %zu\n", n, S13, e);
      if (k < 2) {
        size_t c13 = n ? (size_t)((ptrdiff_t)(n - 1) * S13) + 13 : 0;
        float *d13 = gp_alloc(c13 * 4), *da = gp_alloc(n * 4);
        f13_grad(n, v13, S13, a, NULL, NULL, d13, S13, da);
        for (size_t e = 0; e < n; e++) {
          /* d/dv[i] of Horner: a^(12 - i) */
          for (int i = 0; i < 13; i++) {
            double w = pow((double)a[e], 12 - i);
            if (fabs(d13[(ptrdiff_t)e * S13 + i] - w) > 1e-5 * (1 + fabs(w)))
              FAIL("f13_grad n %zu: example %zu element %d: %g vs %g\n", n, e,
                   i, (double)d13[(ptrdiff_t)e * S13 + i], w);
          }
        }
      }
      ptrdiff_t S4 = stride_of(k, 4);
      const int *c = arr_in(n, 4, S4, 4, &r, 2);
      const double *x = sc_in(n, &r, -2, 2);
      double *rd = gp_alloc(n * 8);
      ints_batched(n, c, S4, x, rd);
      for (size_t e = 0; e < n; e++)
        if (!same_d(rd[e], ints(c + (ptrdiff_t)e * S4, x[e])))
          FAIL("ints n %zu stride %td: example %zu\n", n, S4, e);
      gp_reset();
    }
}

static void check_records(void) {
  rng_t r = {123};
  for (size_t in = 0; in < NNS; in++)
    for (int k = 0; k < 3; k++) {
      size_t n = ns[in];
      ptrdiff_t S = stride_of(k, 8), S5 = stride_of(k, 5);
      size_t cnt = n ? (size_t)((ptrdiff_t)(n - 1) * S) + 8 : 0;
      size_t cnt5 = n ? (size_t)((ptrdiff_t)(n - 1) * S5) + 5 : 0;
      struct pt *pp = gp_alloc(cnt * sizeof *pp);
      for (size_t i = 0; i < cnt; i++)
        pp[i] = (struct pt){rng_range(&r, -2, 2), rng_range(&r, -2, 2)};
      struct v3f *v = gp_alloc(cnt5 * sizeof *v);
      for (size_t i = 0; i < cnt5; i++)
        v[i] = (struct v3f){(float)rng_range(&r, -1, 1),
                            (float)rng_range(&r, -1, 1),
                            (float)rng_range(&r, -1, 1)};
      gp_seal(pp), gp_seal(v);
      const double *a = sc_in(n, &r, -1, 1), *b = sc_in(n, &r, -1, 1);
      const float *af = sc_inf(n, &r);
      double *ret = gp_alloc(n * 8);
      float *retf = gp_alloc(n * 4);
      fitr_batched(n, pp, S, a, b, ret);
      for (size_t e = 0; e < n; e++)
        if (!same_d(ret[e], fitr(pp + (ptrdiff_t)e * S, a[e], b[e])))
          FAIL("fitr n %zu stride %td: example %zu\n", n, S, e);
      midf_batched(n, v, S5, af, retf);
      for (size_t e = 0; e < n; e++)
        if (!same_f(retf[e], midf(v + (ptrdiff_t)e * S5, af[e])))
          FAIL("midf n %zu stride %td: example %zu\n", n, S5, e);
      if (k < 2) {
        struct pt *dp = gp_alloc(cnt * sizeof *dp);
        double *da = gp_alloc(n * 8), *db = gp_alloc(n * 8);
        fitr_grad(n, pp, S, a, b, NULL, NULL, dp, S, da, db);
        for (size_t e = 0; e < n; e++)
          for (int i = 0; i < 8; i++) {
            const struct pt *q = pp + (ptrdiff_t)e * S + i;
            double rr = q->y - (a[e] * q->x + b[e]);
            const struct pt *d = dp + (ptrdiff_t)e * S + i;
            if (!close_d(d->x, -2 * a[e] * rr / 8, 1e-12) ||
                !close_d(d->y, 2 * rr / 8, 1e-12))
              FAIL("fitr_grad n %zu: example %zu record %d\n", n, e, i);
          }
      }
      gp_reset();
    }
}

/* Shadows that overlap: within one (stride 0 sums over the examples) and
 * between two (sten(u, u + 1) differentiated into d_u and d_u + 1); one
 * shadow NULL. */
static void check_shadows(void) {
  rng_t r = {321};
  for (size_t in = 0; in < NNS; in++) {
    size_t n = ns[in];
    ptrdiff_t S = 6;
    size_t cnt = n ? (size_t)((ptrdiff_t)(n - 1) * S) + 5 : 0;
    const double *u = arr_in(n, 5, S, 8, &r, 0), *a = sc_in(n, &r, -1, 1);
    double *du = gp_alloc(cnt * 8);
    for (size_t i = 0; i < cnt; i++)
      du[i] = 0.25 * (double)(i % 7);
    sten_grad(n, u, S, u + 1, S, a, NULL, NULL, du, S, du + 1, S, NULL);
    for (size_t e = 0; e < n; e++) {
      double ub[5], h = 1e-6;
      memcpy(ub, u + (ptrdiff_t)e * S, sizeof ub);
      for (int k = 0; k < 5; k++) {
        double o = ub[k];
        ub[k] = o + h;
        double fp = sten(ub, ub + 1, a[e]);
        ub[k] = o - h;
        double fm = sten(ub, ub + 1, a[e]);
        ub[k] = o;
        double want = (fp - fm) / (2 * h) + 0.25 * (double)((e * S + k) % 7);
        if (!close_d(du[(ptrdiff_t)e * S + k], want, 1e-6))
          FAIL("sten_grad n %zu: d_u[%zu][%d] %g vs %g\n", n, e, k,
               du[(ptrdiff_t)e * S + k], want);
      }
    }
    /* d_v of e3 at stride 0: the sum over the examples. */
    const double *v = arr_in(n, 3, 3, 8, &r, 0);
    double *d1 = gp_alloc((n ? n : 1) * 3 * 8), *d0 = gp_alloc(3 * 8);
    d0[0] = 1, d0[1] = 2, d0[2] = 3;
    e3_grad(n, v, 3, a, NULL, NULL, d1, 3, NULL);
    e3_grad(n, v, 3, a, NULL, NULL, d0, 0, NULL);
    for (int i = 0; i < 3; i++) {
      double want = 1 + i;
      for (size_t e = 0; e < n; e++)
        want += d1[3 * e + i];
      if (!close_d(d0[i], want, 1e-12))
        FAIL("e3_grad n %zu stride 0: d_v[%d] %g vs %g\n", n, i, d0[i], want);
    }
    /* e8 with d_xs NULL: d_ys as with both. */
    const double *xs = arr_in(n, 8, 8, 8, &r, 0),
                 *ys = arr_in(n, 8, 8, 8, &r, 0);
    double *dy1 = gp_alloc(n * 64), *dy2 = gp_alloc(n * 64),
           *dx = gp_alloc(n * 64);
    e8_grad(n, xs, 8, ys, 8, a, a, NULL, NULL, dx, 8, dy1, 8, NULL, NULL);
    e8_grad(n, xs, 8, ys, 8, a, a, NULL, NULL, NULL, 8, dy2, 8, NULL, NULL);
    if (n && memcmp(dy1, dy2, n * 64))
      FAIL("e8_grad n %zu: d_ys differs with d_xs NULL\n", n);
    gp_reset();
  }
}

int main(void) {
  check1("e1", 1, e1_s, e1_batched, e1_grad);
  check1("e3", 3, e3_s, e3_batched, e3_grad);
  check1("e13", 13, e13_s, e13_batched, e13_grad);
  check1("e32", 32, e32_s, e32_batched, e32_grad);
  check1("e33", 33, e33_s, e33_batched, e33_grad);
  check1("ext", 5, ext_s, ext_batched, ext_grad);
  check1("past", 4, past_s, past_batched, past_grad);
  check_fit();
  check_branch();
  check_float();
  check_records();
  check_shadows();
  printf("%s: %d failure(s)\n", bad ? "FAIL" : "ok", bad);
  return bad != 0;
}
