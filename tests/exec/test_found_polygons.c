/* Numeric C as it is found: polygons, whose loops read the next or the
 * previous vertex around the ring. The index is `(i + 1) % n` (written in
 * the subscript or kept in a local), or a second counter that lags one
 * behind, `for (i = 0, j = n - 1; i < n; j = i++)` (W. R. Franklin's
 * PNPOLY point-in-polygon test, the shoelace formula). Each is below n, so
 * the extent is n. A ring buffer's `k & 7` is below 8. BD_POINTERS rows end at
 * a guard page each (any read past an example's n faults); strided records end
 * at one after the last example. NAME_batched bit for bit against the scalar
 * functions (perim: within hypot's ULP), gradients against central differences.
 */
#include "grad_util.h"

#include <stdint.h>

#include "../common/test_filter.h"

struct pt {
  double x, y;
};

/* Signed area of a polygon of records, the next vertex in a local. */
BATCHDIFF double area(const struct pt *p, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    int j = (i + 1) % n;
    s += p[i].x * p[j].y - p[j].x * p[i].y;
  }
  return 0.5 * s;
}

/* Perimeter: the next vertex in the subscript. */
BATCHDIFF double perim(BD_POINTERS const double *x, BD_POINTERS const double *y,
                       int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += hypot(x[(i + 1) % n] - x[i], y[(i + 1) % n] - y[i]);
  return s;
}

/* A cyclic 3-tap smoothing: (i + k) % n with k of a constant range. */
BATCHDIFF double smooth(BD_POINTERS const double *x, int n, double w) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double a = 0.0;
    for (int k = 0; k < 3; k++)
      a += (k == 1 ? w : 0.5 * (1.0 - w)) * x[(i + k) % n];
    s += a * a;
  }
  return s;
}

/* The shoelace formula with a lagging counter. */
BATCHDIFF double shoelace(BD_POINTERS const double *x,
                          BD_POINTERS const double *y, int n) {
  double s = 0.0;
  int i, j;
  for (i = 0, j = n - 1; i < n; j = i++)
    s += (x[j] + x[i]) * (y[j] - y[i]);
  return 0.5 * s;
}

/* PNPOLY, as published (integer result: NAME_batched only). */
__attribute__((batch)) int pnpoly(int nvert, BD_POINTERS const double *vertx,
                                  BD_POINTERS const double *verty, double testx,
                                  double testy) {
  int i, j, c = 0;
  for (i = 0, j = nvert - 1; i < nvert; j = i++) {
    if (((verty[i] > testy) != (verty[j] > testy)) &&
        (testx <
         (vertx[j] - vertx[i]) * (testy - verty[i]) / (verty[j] - verty[i]) +
             vertx[i]))
      c = !c;
  }
  return c;
}

/* A ring buffer's index: k & 7 is 0 .. 7 whatever k is (extent 8). */
BATCHDIFF double ring8(BD_POINTERS const double *h, double x) {
  int k = (int)(x * 100.0);
  return h[k & 7] * x + h[(k + 3) & 7];
}

enum { ST = 9 };

/* A polygon of len vertices on a noisy circle (so most are simple). */
static void ring(rng_t *rng, int len, double *x, double *y) {
  for (int i = 0; i < len; i++) {
    double t = 6.283185307179586 * (i + rng_range(rng, 0, 0.5)) / len;
    double r = rng_range(rng, 0.6, 1.4);
    x[i] = r * cos(t);
    y[i] = r * sin(t);
  }
}

/* d f / d v[i] by central differences, v restored. */
#define CENTRAL(v, i, h, CALL)                                                 \
  ({                                                                           \
    double v0_ = (v)[i];                                                       \
    (v)[i] = v0_ + (h);                                                        \
    double p_ = (CALL);                                                        \
    (v)[i] = v0_ - (h);                                                        \
    double m_ = (CALL);                                                        \
    (v)[i] = v0_;                                                              \
    (p_ - m_) / (2 * (h));                                                     \
  })

static void t_records(void **state) {
  (void)state;
  rng_t rng = {name_seed("found_polygons_records")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    struct pt *p = gp_alloc(n * ST * sizeof(struct pt));
    struct pt *dp = gp_alloc(n * ST * sizeof(struct pt));
    double *r = gp_alloc(n * 8);
    int *len = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      double x[ST], y[ST];
      len[e] = (int)rng_below(&rng, ST + 1);
      ring(&rng, ST, x, y);
      for (int i = 0; i < ST; i++)
        p[e * ST + i] = (struct pt){x[i], y[i]};
    }
    memset(dp, 0, n * ST * sizeof(struct pt));
    gp_seal(p), gp_seal(len);
    area_batched(n, p, ST, len, r);
    area_grad(n, p, ST, len, NULL, NULL, dp, ST);
    for (size_t e = 0; e < n; e++) {
      struct pt q[ST];
      memcpy(q, p + e * ST, sizeof q);
      double w = area(q, len[e]);
      int bad = !same_bits_or_nan(&r[e], &w, 8, 1);
      for (int i = 0; i < ST; i++) {
        double gx = CENTRAL(&q[i].x, 0, 1e-6, area(q, len[e]));
        double gy = CENTRAL(&q[i].y, 0, 1e-6, area(q, len[e]));
        bad |= !close_to(dp[e * ST + i].x, gx, 1e-7) ||
               !close_to(dp[e * ST + i].y, gy, 1e-7);
      }
      if (bad) {
        print_error("n=%zu e=%zu len %d: area %a/%a\n", n, e, len[e], r[e], w);
        fail();
      }
    }
    gp_reset();
  }
}

static void t_pointers(void **state) {
  (void)state;
  rng_t rng = {name_seed("found_polygons_pointers")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    const double **xs = gp_alloc(n * sizeof *xs),
                 **ys = gp_alloc(n * sizeof *ys);
    double **dxs = gp_alloc(n * sizeof *dxs), **dys = gp_alloc(n * sizeof *dys);
    double *w = gp_alloc(n * 8), *tx = gp_alloc(n * 8), *ty = gp_alloc(n * 8);
    double *r1 = gp_alloc(n * 8), *r2 = gp_alloc(n * 8), *r3 = gp_alloc(n * 8);
    double *dw = gp_alloc(n * 8);
    int *len = gp_alloc(n * sizeof(int)), *in = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      int m = (int)rng_below(&rng, ST + 1);
      len[e] = m;
      /* Each row ends at a guard page: reading vertex m faults. */
      double *x = gp_alloc(m * 8), *y = gp_alloc(m * 8);
      ring(&rng, m, x, y);
      dxs[e] = gp_alloc(m * 8), dys[e] = gp_alloc(m * 8);
      memset(dxs[e], 0, m * 8), memset(dys[e], 0, m * 8);
      gp_seal(x), gp_seal(y);
      xs[e] = x, ys[e] = y;
      w[e] = rng_range(&rng, 0.2, 0.8);
      tx[e] = rng_range(&rng, -1.2, 1.2);
      ty[e] = rng_range(&rng, -1.2, 1.2);
      dw[e] = 0.0;
    }
    gp_seal(xs), gp_seal(ys), gp_seal(w), gp_seal(len), gp_seal(tx);
    gp_seal(ty);
    perim_batched(n, xs, ys, len, r1);
    smooth_batched(n, xs, len, w, r2);
    shoelace_batched(n, xs, ys, len, r3);
    pnpoly_batched(n, len, xs, ys, tx, ty, in);
    for (size_t e = 0; e < n; e++) {
      double v1 = perim(xs[e], ys[e], len[e]);
      double v2 = smooth(xs[e], len[e], w[e]);
      double v3 = shoelace(xs[e], ys[e], len[e]);
      int v4 = pnpoly(len[e], xs[e], ys[e], tx[e], ty[e]);
      /* (perim sums hypot, which docs/abi.md allows 1 ULP each.) */
      if (!close_to(r1[e], v1, 1e-14) || !same_bits_or_nan(&r2[e], &v2, 8, 1) ||
          !same_bits_or_nan(&r3[e], &v3, 8, 1) || in[e] != v4) {
        print_error("n=%zu e=%zu len %d: perim %a/%a smooth %a/%a shoelace "
                    "%a/%a pnpoly %d/%d\n",
                    n, e, len[e], r1[e], v1, r2[e], v2, r3[e], v3, in[e], v4);
        fail();
      }
    }
    /* Gradients, one function at a time into zeroed shadows. */
    for (int f = 0; f < 3; f++) {
      if (f == 0)
        perim_grad(n, xs, ys, len, NULL, NULL, dxs, dys);
      else if (f == 1)
        smooth_grad(n, xs, len, w, NULL, NULL, dxs, dw);
      else
        shoelace_grad(n, xs, ys, len, NULL, NULL, dxs, dys);
      for (size_t e = 0; e < n; e++) {
        int m = len[e];
        double x[ST], y[ST];
        memcpy(x, xs[e], m * 8), memcpy(y, ys[e], m * 8);
        int bad = 0;
        /* (One vertex: perim is hypot(0, 0), whose partials are 0 / 0.) */
        for (int i = 0; i < m; i++) {
          double gx = f == 0   ? CENTRAL(x, i, 1e-6, perim(x, y, m))
                      : f == 1 ? CENTRAL(x, i, 1e-6, smooth(x, m, w[e]))
                               : CENTRAL(x, i, 1e-6, shoelace(x, y, m));
          double gy = f == 0   ? CENTRAL(y, i, 1e-6, perim(x, y, m))
                      : f == 1 ? 0.0
                               : CENTRAL(y, i, 1e-6, shoelace(x, y, m));
          if (!(f == 0 && m == 1))
            bad |= !close_to(dxs[e][i], gx, 1e-6) ||
                   !close_to(dys[e][i], gy, 1e-6);
          dxs[e][i] = dys[e][i] = 0.0;
        }
        if (f == 1) {
          double ww = w[e];
          bad |=
              !close_to(dw[e], CENTRAL(&ww, 0, 1e-6, smooth(x, m, ww)), 1e-6);
        }
        if (bad) {
          print_error("n=%zu e=%zu len %d: gradient of function %d\n", n, e, m,
                      f);
          fail();
        }
      }
    }
    gp_reset();
  }
}

/* ring8 bit for bit, each example's 8 elements ending at a guard page; its
 * gradient exactly (linear in h and x). */
static void t_ring(void **state) {
  (void)state;
  rng_t rng = {name_seed("found_polygons_ring")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    const double **hs = gp_alloc(n * sizeof *hs);
    double **dhs = gp_alloc(n * sizeof *dhs);
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *dx = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      double *h = gp_alloc(8 * 8);
      for (int i = 0; i < 8; i++)
        h[i] = rng_range(&rng, -2, 2);
      gp_seal(h);
      hs[e] = h;
      dhs[e] = gp_alloc(8 * 8);
      memset(dhs[e], 0, 8 * 8);
      x[e] = rng_range(&rng, -3, 3);
      dx[e] = 0.0;
    }
    gp_seal(hs), gp_seal(x);
    ring8_batched(n, hs, x, r);
    ring8_grad(n, hs, x, NULL, NULL, dhs, dx);
    for (size_t e = 0; e < n; e++) {
      double v = ring8(hs[e], x[e]);
      int k = (int)(x[e] * 100.0);
      int bad = !same_bits_or_nan(&r[e], &v, 8, 1) || dx[e] != hs[e][k & 7];
      for (int i = 0; i < 8; i++)
        bad |= dhs[e][i] !=
               (i == (k & 7) ? x[e] : 0.0) + (i == ((k + 3) & 7) ? 1.0 : 0.0);
      if (bad) {
        print_error("n=%zu e=%zu: ring8 %a/%a d_x %a\n", n, e, r[e], v, dx[e]);
        fail();
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_records),
      cmocka_unit_test(t_pointers),
      cmocka_unit_test(t_ring),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_found_polygons", tests, NULL, NULL);
}
