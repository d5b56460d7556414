/* NAME_hvp (docs/abi.md) with array parameters and outputs (the scalar
 * ones are in test_hvp.c): ragged arrays behind guard pages with
 * sentinels past each example's extent against the hyper-dual twin,
 * BD_PACKED and BD_POINTERS bit for bit the strided layout, an output
 * array's seeds, an adjoint exactly 0 whose tangent is not. */
#include "hvp_twin.h"

#include "../common/test_filter.h"

/* ---- arrays -------------------------------------------------------------- */

/* A ragged array (each example its own n), a uniform array, a local array
 * and a helper; an element read at an index that depends on n. */
BATCHDIFF BD_HVP double h_arr(int n, const double x[n],
                              BD_UNIFORM const double w[3], double s) {
  double loc[3] = {w[0], w[1] * s, w[2]};
  double acc = 0;
  for (int i = 0; i < n; i++) {
    double v = x[i] * loc[i % 3] + sin(s * x[i]);
    if (v > 1.0)
      v = log(v);
    else
      v = hsq(v);
    acc += v * x[(i + 1) % n];
  }
  return acc + hsq(s) * w[0];
}
/* The twin over the parameter vector x[0..n-1], w[0..2], s. */
static hd t_arr(int n, const hd *a) {
  const hd *x = a, *w = a + n;
  hd s = a[n + 3];
  hd loc[3] = {w[0], hd_mul(w[1], s), w[2]};
  hd acc = hd_k(0);
  for (int i = 0; i < n; i++) {
    hd v = hd_add(hd_mul(x[i], loc[i % 3]), hd_sin(hd_mul(s, x[i])));
    v = v.a > 1.0L ? hd_log(v) : hd_mul(v, v);
    acc = hd_add(acc, hd_mul(v, x[(i + 1) % n]));
  }
  return hd_add(acc, hd_mul(hd_mul(s, s), w[0]));
}

#define AST 8        /* stride of the per-example arrays */
#define SENT 12345.0 /* past an example's extent: never touched */

static void hvp_arrays(void **st) {
  (void)st;
  const char *name = "h_arr";
  const hcase *c = &(hcase){.name = name};
  rng_t rng = {name_seed(name)};
  static const size_t ns[] = {1, 3, WD + 1, 2 * WF + 3, 40};
  double worst = 0;
  for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
    size_t N = ns[ni];
    int *n = gp_alloc(N * sizeof(int));
    double *x = buf(N * AST), *tx = buf(N * AST), *s = buf(N), *ts = buf(N);
    double *dx = buf(N * AST), *hx = buf(N * AST), *dxg = buf(N * AST);
    double *ds = buf(N), *hs = buf(N), *dsg = buf(N), *seed = buf(N);
    double *ret = buf(N), *retb = buf(N);
    double w[3], tw[3], dw[3] = {0}, hw[3] = {0}, dwg[3] = {0};
    for (int k = 0; k < 3; k++) {
      w[k] = rng_range(&rng, -1, 1);
      tw[k] = rng_range(&rng, -1, 1);
    }
    for (size_t b = 0; b < N; b++) {
      n[b] = 1 + rng_below(&rng, 6);
      s[b] = rng_range(&rng, -1, 1);
      ts[b] = rng_range(&rng, -1, 1);
      seed[b] = rng_range(&rng, 0.5, 2);
      for (int i = 0; i < AST; i++) {
        int in = i < n[b];
        x[b * AST + i] = in ? rng_range(&rng, -1.5, 1.5) : NAN;
        tx[b * AST + i] = in ? rng_range(&rng, -1, 1) : NAN;
        dx[b * AST + i] = hx[b * AST + i] = dxg[b * AST + i] = in ? 0 : SENT;
      }
    }
    gp_seal(n);
    gp_seal(x);
    gp_seal(tx);
    gp_seal(s);
    gp_seal(ts);
    gp_seal(seed);
    h_arr_hvp(N, n, x, AST, w, s, tx, AST, tw, ts, ret, seed, dx, AST, dw, ds,
              hx, AST, hw, hs);
    h_arr_grad(N, n, x, AST, w, s, retb, seed, dxg, AST, dwg, dsg);
    long double hwsum[3] = {0};
    for (size_t b = 0; b < N; b++) {
      int m = n[b], np = m + 4;
      if (!same(ret[b], retb[b]) || !same(ds[b], dsg[b]))
        HFAIL("ret or d_s differs from NAME_grad (N=%zu b=%zu)", N, b);
      for (int i = 0; i < AST; i++)
        if (!same(dx[b * AST + i], dxg[b * AST + i]))
          HFAIL("d_x[%d] %.17g, NAME_grad %.17g (N=%zu b=%zu)", i,
                dx[b * AST + i], dxg[b * AST + i], N, b);
      for (int i = m; i < AST; i++)
        if (hx[b * AST + i] != SENT)
          HFAIL("h_x[%d] past the extent %d written (N=%zu b=%zu)", i, m, N, b);
      double a[AST + 4], v[AST + 4];
      for (int i = 0; i < m; i++) {
        a[i] = x[b * AST + i];
        v[i] = tx[b * AST + i];
      }
      for (int k = 0; k < 3; k++) {
        a[m + k] = w[k];
        v[m + k] = tw[k];
      }
      a[m + 3] = s[b];
      v[m + 3] = ts[b];
      long double th[AST + 4];
      for (int p = 0; p < np; p++) {
        hd h[AST + 4];
        for (int j = 0; j < np; j++)
          h[j] = (hd){a[j], j == p, v[j], 0};
        th[p] = seed[b] * t_arr(m, h).d;
      }
      for (int i = 0; i <= m + 3; i++) {
        if (i >= m && i < m + 3)
          continue; /* w: summed below */
        double got = i < m ? hx[b * AST + i] : hs[b];
        double err = (double)(fabsl(got - th[i]) / (1 + fabsl(th[i])));
        worst = err > worst ? err : worst;
        if (!close_to_ld(got, th[i], 1e-12))
          HFAIL("H v element %d: %.17g, twin %.17Lg (N=%zu b=%zu n=%d)", i, got,
                th[i], N, b, m);
      }
      for (int k = 0; k < 3; k++)
        hwsum[k] += th[m + k];
    }
    for (int k = 0; k < 3; k++) {
      if (!same(dw[k], dwg[k])) /* both sorted by length, one order */
        HFAIL("d_w[%d] %.17g, NAME_grad %.17g (N=%zu)", k, dw[k], dwg[k], N);
      if (!close_to_ld(hw[k], hwsum[k], 1e-12))
        HFAIL("uniform h_w[%d] %.17g, twin sum %.17Lg (N=%zu)", k, hw[k],
              hwsum[k], N);
    }
    gp_reset();
  }
  print_message("h_arr: ragged H v vs twin, worst %.2g relative\n", worst);
}

/* h_arr with x packed back to back (BD_PACKED) and as one pointer per
 * example (BD_POINTERS): every output, H·v and uniform sums included, bit
 * for bit that of the strided h_arr_hvp (all three sort by length). */
#define H_ARR_BODY                                                             \
  double loc[3] = {w[0], w[1] * s, w[2]};                                      \
  double acc = 0;                                                              \
  for (int i = 0; i < n; i++) {                                                \
    double v = x[i] * loc[i % 3] + sin(s * x[i]);                              \
    if (v > 1.0)                                                               \
      v = log(v);                                                              \
    else                                                                       \
      v = hsq(v);                                                              \
    acc += v * x[(i + 1) % n];                                                 \
  }                                                                            \
  return acc + hsq(s) * w[0];
BATCHDIFF BD_HVP double h_arr_pk(int n, BD_PACKED const double x[n],
                                 BD_UNIFORM const double w[3], double s) {
  H_ARR_BODY
}
BATCHDIFF BD_HVP double h_arr_pt(int n, BD_POINTERS const double x[n],
                                 BD_UNIFORM const double w[3], double s) {
  H_ARR_BODY
}

/* Each example's n elements at x + off[b] with nothing between them, a
 * guard page after the last. */
static double *packed_copy(size_t N, const int *n, const double *src,
                           size_t *off) {
  size_t tot = 0;
  for (size_t b = 0; b < N; b++) {
    off[b] = tot;
    tot += (size_t)n[b];
  }
  double *p = gp_alloc(tot * sizeof(double));
  for (size_t b = 0; b < N; b++)
    memcpy(p + off[b], src + b * AST, (size_t)n[b] * sizeof(double));
  return p;
}

static void hvp_layouts(void **st) {
  (void)st;
  const char *name = "h_arr_layouts";
  const hcase *c = &(hcase){.name = name};
  rng_t rng = {name_seed(name)};
  static const size_t ns[] = {1, WD + 1, 2 * WF + 3, 67};
  for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
    size_t N = ns[ni];
    int *n = gp_alloc(N * sizeof(int));
    double *x = buf(N * AST), *tx = buf(N * AST), *s = buf(N), *ts = buf(N);
    double *seed = buf(N), *ret = buf(N), *ds = buf(N), *hs = buf(N);
    double *dx = buf(N * AST), *hx = buf(N * AST);
    double w[3], tw[3], dw[3] = {0}, hw[3] = {0};
    for (int k = 0; k < 3; k++) {
      w[k] = rng_range(&rng, -1, 1);
      tw[k] = rng_range(&rng, -1, 1);
    }
    for (size_t b = 0; b < N; b++) {
      n[b] = 1 + rng_below(&rng, 7); /* up to AST - 1 */
      s[b] = rng_range(&rng, -1, 1);
      ts[b] = rng_range(&rng, -1, 1);
      seed[b] = rng_range(&rng, 0.5, 2);
      for (int i = 0; i < AST; i++) {
        x[b * AST + i] = rng_range(&rng, -1.5, 1.5);
        tx[b * AST + i] = rng_range(&rng, -1, 1);
        dx[b * AST + i] = rng_range(&rng, -1, 1); /* += onto these */
        hx[b * AST + i] = rng_range(&rng, -1, 1);
      }
    }
    size_t *off = gp_alloc(N * sizeof(size_t));
    double *px = packed_copy(N, n, x, off), *ptx = packed_copy(N, n, tx, off);
    double *pdx = packed_copy(N, n, dx, off), *phx = packed_copy(N, n, hx, off);
    gp_seal(n);
    gp_seal(off);
    gp_seal(px);
    gp_seal(ptx);
    const double **qx = gp_alloc(N * sizeof *qx), **qtx = gp_alloc(N * sizeof *qx);
    double **qdx = gp_alloc(N * sizeof *qdx), **qhx = gp_alloc(N * sizeof *qdx);
    double *cdx = buf(N * AST), *chx = buf(N * AST);
    memcpy(cdx, dx, N * AST * sizeof(double));
    memcpy(chx, hx, N * AST * sizeof(double));
    for (size_t b = 0; b < N; b++) {
      qx[b] = x + b * AST;
      qtx[b] = tx + b * AST;
      qdx[b] = cdx + b * AST;
      qhx[b] = chx + b * AST;
    }
    h_arr_hvp(N, n, x, AST, w, s, tx, AST, tw, ts, ret, seed, dx, AST, dw, ds,
              hx, AST, hw, hs);
    for (int lay = 0; lay < 2; lay++) {
      double *r2 = buf(N), *ds2 = buf(N), *hs2 = buf(N);
      double dw2[3] = {0}, hw2[3] = {0};
      if (lay == 0)
        h_arr_pk_hvp(N, n, px, off, w, s, ptx, tw, ts, r2, seed, pdx, dw2, ds2,
                     phx, hw2, hs2);
      else
        h_arr_pt_hvp(N, n, qx, w, s, qtx, tw, ts, r2, seed, qdx, dw2, ds2, qhx,
                     hw2, hs2);
      for (size_t b = 0; b < N; b++) {
        if (!same(ret[b], r2[b]) || !same(ds[b], ds2[b]) ||
            !same(hs[b], hs2[b]))
          HFAIL("%s: ret, d_s or h_s of example %zu differs from strided",
                lay ? "pointers" : "packed", b);
        for (int i = 0; i < n[b]; i++) {
          double gd = lay ? cdx[b * AST + i] : pdx[off[b] + (size_t)i];
          double gh = lay ? chx[b * AST + i] : phx[off[b] + (size_t)i];
          if (!same(gd, dx[b * AST + i]) || !same(gh, hx[b * AST + i]))
            HFAIL("%s: d_x/h_x[%d] of example %zu: %.17g/%.17g, strided "
                  "%.17g/%.17g",
                  lay ? "pointers" : "packed", i, b, gd, gh, dx[b * AST + i],
                  hx[b * AST + i]);
        }
        /* pointers: elements past the extent keep their values */
        for (int i = n[b]; lay && i < AST; i++)
          if (!same(cdx[b * AST + i], dx[b * AST + i]) ||
              !same(chx[b * AST + i], hx[b * AST + i]))
            HFAIL("pointers: d_x/h_x[%d] past extent %d of example %zu written",
                  i, n[b], b);
      }
      for (int k = 0; k < 3; k++)
        if (!same(dw2[k], dw[k]) || !same(hw2[k], hw[k]))
          HFAIL("%s: uniform d_w/h_w[%d] %.17g/%.17g, strided %.17g/%.17g",
                lay ? "pointers" : "packed", k, dw2[k], hw2[k], dw[k], hw[k]);
    }
    gp_reset();
  }
}

/* A void function with an output array: its shadow on entry holds the
 * cotangent seeds; pure outputs end with d_out = h_out = 0. */
BATCHDIFF BD_HVP void h_out(double x, BD_UNIFORM double w, double out[2]) {
  out[0] = x * x * w;
  out[1] = sin(x) * out[0];
}

static void hvp_output(void **st) {
  (void)st;
  const hcase *c = &(hcase){.name = "h_out"};
  rng_t rng = {name_seed("h_out")};
  size_t N = 2 * WF + 3;
  double *x = buf(N), *tx = buf(N), *out = buf(2 * N), *tout = buf(2 * N);
  double *dx = buf(N), *hx = buf(N), *dout = buf(2 * N), *hout = buf(2 * N);
  double *cs = buf(2 * N);
  double w = 0.7, tw = -0.4, dw = 0, hw = 0;
  for (size_t b = 0; b < N; b++) {
    x[b] = rng_range(&rng, -2, 2);
    tx[b] = rng_range(&rng, -1, 1);
    for (int k = 0; k < 2; k++) {
      cs[2 * b + k] = dout[2 * b + k] = rng_range(&rng, 0.5, 2);
      hout[2 * b + k] = 0;
      tout[2 * b + k] = 0;
    }
  }
  h_out_hvp(N, x, w, out, 2, tx, &tw, tout, 2, dx, &dw, dout, 2, hx, &hw, hout,
            2);
  long double hwsum = 0;
  for (size_t b = 0; b < N; b++) {
    double o[2];
    h_out(x[b], w, o);
    /* sin: the runtime's vector sin, within its 1 ULP bound. */
    if (!same(o[0], out[2 * b]) || !close_to_ld(out[2 * b + 1], o[1], 1e-15))
      HFAIL("out %.17g %.17g differs from the scalar function %.17g %.17g "
            "(b=%zu)",
            out[2 * b], out[2 * b + 1], o[0], o[1], b);
    for (int k = 0; k < 2; k++)
      if (dout[2 * b + k] != 0 || hout[2 * b + k] != 0)
        HFAIL("pure output: d_out %.17g h_out %.17g, want 0 (b=%zu)",
              dout[2 * b + k], hout[2 * b + k], b);
    long double th[2];
    for (int p = 0; p < 2; p++) {
      hd X = {x[b], p == 0, tx[b], 0}, W = {w, p == 1, tw, 0};
      hd o0 = hd_mul(hd_mul(X, X), W), o1 = hd_mul(hd_sin(X), o0);
      hd L =
          hd_add(hd_mul(hd_k(cs[2 * b]), o0), hd_mul(hd_k(cs[2 * b + 1]), o1));
      th[p] = L.d;
      if (p == 0 && !close_to_ld(tout[2 * b], o0.c, 1e-14))
        HFAIL("t_out[0] %.17g, want %.17Lg (b=%zu)", tout[2 * b], o0.c, b);
    }
    if (!close_to_ld(hx[b], th[0], 1e-12))
      HFAIL("h_x %.17g, twin %.17Lg (b=%zu)", hx[b], th[0], b);
    hwsum += th[1];
  }
  if (!close_to_ld(hw, hwsum, 1e-12))
    HFAIL("uniform h_w %.17g, twin sum %.17Lg", hw, hwsum);
  gp_reset();
}

/* A loop invariant (x * y, hoisted out of the loop) whose adjoint is
 * exactly 0 at x = 0 while its tangent is not: NAME_grad selects such
 * contributions away where the adjoint is 0 (lanes that never ran the
 * loop); the H·v must keep them where the adjoint's tangent is nonzero. */
BATCHDIFF BD_HVP double h_zero(double x, double y, int k) {
  double s = 0;
  for (int i = 0; i < k; i++)
    s += (x * y) * (x * y) + i * y;
  return s;
}

static void hvp_zero_adjoint(void **st) {
  (void)st;
  const hcase *c = &(hcase){.name = "h_zero"};
  rng_t rng = {name_seed("h_zero")};
  enum { N = 2 * WF + 3 };
  double x[N], y[N], tx[N], ty[N], dx[N] = {0}, dy[N] = {0}, hx[N] = {0},
                                   hy[N] = {0};
  int k[N];
  for (size_t b = 0; b < N; b++) {
    x[b] = b % 3 ? 0.0 : rng_range(&rng, -1, 1);
    y[b] = rng_range(&rng, -1, 1);
    tx[b] = rng_range(&rng, -1, 1);
    ty[b] = rng_range(&rng, -1, 1);
    k[b] = (int)(b % 4); /* k = 0: the loop never runs */
  }
  h_zero_hvp(N, x, y, k, tx, ty, NULL, NULL, dx, dy, hx, hy);
  for (size_t b = 0; b < N; b++) {
    /* f = k (x y)^2 + y k (k - 1) / 2 */
    double K = k[b], X = x[b], Y = y[b];
    double hxx = 2 * K * Y * Y, hxy = 4 * K * X * Y, hyy = 2 * K * X * X;
    double wx = hxx * tx[b] + hxy * ty[b], wy = hxy * tx[b] + hyy * ty[b];
    if (!close_to_ld(hx[b], wx, 1e-14) || !close_to_ld(hy[b], wy, 1e-14))
      HFAIL("h %.17g %.17g, want %.17g %.17g (x=%g k=%d b=%zu)", hx[b], hy[b],
            wx, wy, X, k[b], b);
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(hvp_arrays),
      cmocka_unit_test(hvp_output),
      cmocka_unit_test(hvp_zero_adjoint),
      cmocka_unit_test(hvp_layouts),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
