/* `diff` on functions that return an integer status (or count) and write
 * their results through float/double pointers, as C libraries do (ERFA's
 * `int eraGd2gce(..., double xyz[3])`, GSL's `int f_e(x, gsl_sf_result *)`):
 * NAME_grad and NAME_jvp write the status as NAME_batched does and take no
 * seed or tangent for it; the outputs' shadows carry the cotangents.
 *   - st_geo: geodetic to geocentric, -1 before writing anything when
 *     a <= 0 (those examples' outputs keep their values, and their
 *     shadows their cotangents);
 *   - st_sinc_e: a record out-parameter {val, err}, status 1 past x = 100;
 *   - st_clip: a count returned, an output array of a dynamic extent.
 * NAME_batched against the scalar function (the status exactly, the
 * outputs to a few ULP: vector sin and cos; NAME_grad's and NAME_jvp's
 * outputs bit for bit NAME_batched's); NAME_grad against Richardson differences
 * of the seeded sum Σ c_i out_i (exec_fd.h) and NAME_jvp against NAME_grad (the
 * same directional derivative two ways). */
#include "exec_fd.h"

#include "../common/test_filter.h"

typedef struct {
  double val, err;
} st_result;

BATCHDIFF BD_JVP int st_geo(double a, double f, double elong, double phi,
                            double height, double xyz[3]) {
  if (a <= 0.0)
    return -1;
  double sp = sin(phi), cp = cos(phi), w = (1.0 - f) * (1.0 - f);
  double ac = a / sqrt(cp * cp + w * sp * sp), as = w * ac;
  double r = (ac + height) * cp;
  xyz[0] = r * cos(elong);
  xyz[1] = r * sin(elong);
  xyz[2] = (as + height) * sp;
  return 0;
}

BATCHDIFF BD_JVP int st_sinc_e(double x, st_result *r) {
  if (fabs(x) < 1e-4) {
    r->val = 1.0 - x * x / 6.0;
    r->err = 1e-16;
    return 0;
  }
  r->val = sin(x) / x;
  r->err = 2.2e-16 * fabs(r->val);
  return x > 100.0;
}

BATCHDIFF BD_JVP int st_clip(const double *x, double *y, double lo, double hi,
                             int n) {
  int clipped = 0;
  for (int i = 0; i < n; i++) {
    double v = x[i] * x[i] - 1.0;
    if (v < lo || v > hi) {
      v = v < lo ? lo : hi;
      clipped++;
    }
    y[i] = v;
  }
  return clipped;
}

static const size_t ns[] = {0,  1,      WF - 1,     WF,         WF + 1, WD - 1,
                            WD, WD + 1, 2 * WF + 3, 2 * WD + 3, 1000,   4099};
#define NNS (sizeof ns / sizeof ns[0])
#define SENTINEL 12345.0

static void same(const char *what, size_t e, double got, double want) {
  if (memcmp(&got, &want, sizeof got) != 0) {
    print_error("%s example %zu: %.17g, want %.17g\n", what, e, got, want);
    fail();
  }
}

/* The vector sin, cos (<= 1 ULP, not glibc's bits): a few ULP. */
static void near(const char *what, size_t e, double got, double want) {
  if (!(fabs(got - want) <= 1e-14 * fabs(want) + 1e-300) &&
      memcmp(&got, &want, sizeof got) != 0) {
    print_error("%s example %zu: %.17g, want %.17g\n", what, e, got, want);
    fail();
  }
}

static void same_i(const char *what, size_t e, int got, int want) {
  if (got != want) {
    print_error("%s example %zu: status %d, want %d\n", what, e, got, want);
    fail();
  }
}

/* st_geo's seeded sum in argument j, the others from c[0..5] (c[6..8]
 * the seeds). */
static double geo_at(double v, const void *p) {
  const double *c = p;
  double a[5] = {c[0], c[1], c[2], c[3], c[4]}, xyz[3] = {0, 0, 0};
  a[(int)c[9]] = v;
  st_geo(a[0], a[1], a[2], a[3], a[4], xyz);
  return c[6] * xyz[0] + c[7] * xyz[1] + c[8] * xyz[2];
}

static void t_geo(void **state) {
  (void)state;
  rng_t rng = {0x6A09E667F3BCC908ULL};
  fd_count fc = {0, 64};
  size_t bad = 0;
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *in[5], *d[5], *t[5];
    for (int j = 0; j < 5; j++)
      in[j] = gp_alloc(n * 8), d[j] = gp_alloc(n * 8), t[j] = gp_alloc(n * 8);
    double *xyz = gp_alloc(n * 24), *xyz2 = gp_alloc(n * 24);
    double *dxyz = gp_alloc(n * 24), *txyz = gp_alloc(n * 24);
    double *seed = gp_alloc(n * 24);
    int *ret = gp_alloc(n * sizeof(int)), *ret2 = gp_alloc(n * sizeof(int));
    int *ret3 = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      in[0][e] = rng_below(&rng, 5) ? rng_range(&rng, 0.5, 2.0) : -1.0;
      in[1][e] = rng_range(&rng, 0.0, 0.3);
      in[2][e] = rng_range(&rng, -3.0, 3.0);
      in[3][e] = rng_range(&rng, -1.5, 1.5);
      in[4][e] = rng_range(&rng, -0.1, 0.5);
      for (int j = 0; j < 5; j++)
        d[j][e] = 0.0, t[j][e] = rng_range(&rng, -1.0, 1.0);
      for (int k = 0; k < 3; k++) {
        xyz[3 * e + k] = xyz2[3 * e + k] = SENTINEL;
        seed[3 * e + k] = dxyz[3 * e + k] = rng_range(&rng, -1.0, 1.0);
        txyz[3 * e + k] = 0.0;
      }
    }
    for (int j = 0; j < 5; j++)
      gp_seal(in[j]), gp_seal(t[j]);
    st_geo_batched(n, in[0], in[1], in[2], in[3], in[4], xyz, 3, ret);
    st_geo_grad(n, in[0], in[1], in[2], in[3], in[4], xyz2, 3, ret2, d[0], d[1],
                d[2], d[3], d[4], dxyz, 3);
    st_geo_jvp(n, in[0], in[1], in[2], in[3], in[4], xyz2, 3, t[0], t[1], t[2],
               t[3], t[4], txyz, 3, ret3);
    for (size_t e = 0; e < n; e++) {
      double want[3] = {SENTINEL, SENTINEL, SENTINEL};
      int st = st_geo(in[0][e], in[1][e], in[2][e], in[3][e], in[4][e], want);
      same_i("st_geo_batched", e, ret[e], st);
      same_i("st_geo_grad", e, ret2[e], st);
      same_i("st_geo_jvp", e, ret3[e], st);
      bad += st != 0;
      double dot = 0.0, tdot = 0.0;
      for (int k = 0; k < 3; k++) {
        near("st_geo_batched", e, xyz[3 * e + k], want[k]);
        same("st_geo_grad", e, xyz2[3 * e + k], xyz[3 * e + k]);
        /* pure outputs: 0 where written; kept where the example returned
         * before writing (the final value is the initial one) */
        same("st_geo d_xyz", e, dxyz[3 * e + k], st ? seed[3 * e + k] : 0.0);
        tdot += seed[3 * e + k] * txyz[3 * e + k];
      }
      for (int j = 0; j < 5; j++) {
        double c[10] = {in[0][e],        in[1][e], in[2][e],    in[3][e],
                        in[4][e],        0.0,      seed[3 * e], seed[3 * e + 1],
                        seed[3 * e + 2], (double)j};
        if (!st)
          fd_check(&fc, "st_geo", geo_at, c, in[j][e], d[j][e]);
        else
          same("st_geo d_in", e, d[j][e], 0.0);
        dot += d[j][e] * t[j][e];
      }
      /* <J^T c, t> = <c, J t> */
      if (!(fabs(dot - tdot) <= 1e-12 * (1.0 + fabs(dot)))) {
        print_error("st_geo example %zu: <grad, t> %.17g, <c, jvp> %.17g\n", e,
                    dot, tdot);
        fail();
      }
    }
    gp_reset();
  }
  assert_true(bad > 100);
  fd_expect(&fc, "st_geo", 18000);
}

static double sinc_at(double x, const void *p) {
  const double *c = p;
  st_result r = {0, 0};
  st_sinc_e(x, &r);
  return c[0] * r.val + c[1] * r.err;
}

static void t_sinc(void **state) {
  (void)state;
  rng_t rng = {0xBB67AE8584CAA73BULL};
  fd_count fc = {0, 64};
  size_t over = 0;
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *dx = gp_alloc(n * 8), *tx = gp_alloc(n * 8);
    st_result *r = gp_alloc(n * sizeof(st_result));
    st_result *r2 = gp_alloc(n * sizeof(st_result));
    st_result *dr = gp_alloc(n * sizeof(st_result));
    st_result *tr = gp_alloc(n * sizeof(st_result));
    st_result *seed = gp_alloc(n * sizeof(st_result));
    int *ret = gp_alloc(n * sizeof(int)), *ret2 = gp_alloc(n * sizeof(int));
    int *ret3 = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      int k = rng_below(&rng, 8);
      x[e] = k == 0   ? rng_range(&rng, -1e-4, 1e-4)
             : k == 1 ? rng_range(&rng, 100.0, 200.0)
                      : rng_range(&rng, -20.0, 20.0);
      dx[e] = 0.0, tx[e] = rng_range(&rng, -1.0, 1.0);
      seed[e].val = dr[e].val = rng_range(&rng, -1.0, 1.0);
      seed[e].err = dr[e].err = rng_range(&rng, -1.0, 1.0);
    }
    gp_seal(x);
    gp_seal(tx);
    st_sinc_e_batched(n, x, r, 1, ret);
    st_sinc_e_grad(n, x, r2, 1, ret2, dx, dr, 1);
    st_sinc_e_jvp(n, x, r2, 1, tx, tr, 1, ret3);
    for (size_t e = 0; e < n; e++) {
      st_result want;
      int st = st_sinc_e(x[e], &want);
      same_i("st_sinc_e_batched", e, ret[e], st);
      same_i("st_sinc_e_grad", e, ret2[e], st);
      same_i("st_sinc_e_jvp", e, ret3[e], st);
      over += st;
      near("st_sinc_e val", e, r[e].val, want.val);
      near("st_sinc_e err", e, r[e].err, want.err);
      same("st_sinc_e_grad val", e, r2[e].val, r[e].val);
      double c[2] = {seed[e].val, seed[e].err};
      fd_check(&fc, "st_sinc_e", sinc_at, c, x[e], dx[e]);
      double tdot = seed[e].val * tr[e].val + seed[e].err * tr[e].err;
      if (!(fabs(dx[e] * tx[e] - tdot) <= 1e-12 * (1.0 + fabs(tdot)))) {
        print_error("st_sinc_e example %zu: %.17g vs %.17g\n", e, dx[e] * tx[e],
                    tdot);
        fail();
      }
    }
    gp_reset();
  }
  assert_true(over > 100);
  fd_expect(&fc, "st_sinc_e", 3000);
}

enum { CN = 5 };

/* st_clip's seeded sum in x[j], the rest from c. */
static double clip_at(double v, const void *p) {
  const double *c = p;
  double x[CN], y[CN];
  memcpy(x, c, sizeof x);
  x[(int)c[2 * CN + 2]] = v;
  st_clip(x, y, c[2 * CN], c[2 * CN + 1], CN);
  double s = 0.0;
  for (int i = 0; i < CN; i++)
    s += c[CN + i] * y[i];
  return s;
}

static void t_clip(void **state) {
  (void)state;
  rng_t rng = {0x3C6EF372FE94F82BULL};
  fd_count fc = {0, 64};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8 * CN), *dx = gp_alloc(n * 8 * CN);
    double *y = gp_alloc(n * 8 * CN), *dy = gp_alloc(n * 8 * CN);
    double *lo = gp_alloc(n * 8), *hi = gp_alloc(n * 8);
    double *seed = gp_alloc(n * 8 * CN);
    int *len = gp_alloc(n * sizeof(int)), *ret = gp_alloc(n * sizeof(int));
    int *ret2 = gp_alloc(n * sizeof(int));
    for (size_t e = 0; e < n; e++) {
      len[e] = rng_below(&rng, CN + 1);
      lo[e] = rng_range(&rng, -1.0, 0.0), hi[e] = rng_range(&rng, 0.0, 2.0);
      for (int i = 0; i < CN; i++) {
        x[CN * e + i] = rng_range(&rng, -2.0, 2.0), dx[CN * e + i] = 0.0;
        y[CN * e + i] = SENTINEL;
        seed[CN * e + i] = dy[CN * e + i] = rng_range(&rng, -1.0, 1.0);
      }
    }
    gp_seal(x);
    gp_seal(len);
    st_clip_batched(n, x, CN, y, CN, lo, hi, len, ret);
    for (size_t e = 0; e < n; e++) {
      double want[CN];
      for (int i = 0; i < CN; i++)
        want[i] = SENTINEL;
      same_i("st_clip_batched", e, ret[e],
             st_clip(x + CN * e, want, lo[e], hi[e], len[e]));
      for (int i = 0; i < CN; i++)
        same("st_clip_batched", e, y[CN * e + i], want[i]);
    }
    st_clip_grad(n, x, CN, y, CN, lo, hi, len, ret2, dx, CN, dy, CN, NULL,
                 NULL);
    for (size_t e = 0; e < n; e++) {
      same_i("st_clip_grad", e, ret2[e], ret[e]);
      for (int j = 0; j < len[e]; j++) {
        double c[2 * CN + 3];
        for (int i = 0; i < CN; i++)
          c[i] = x[CN * e + i], c[CN + i] = i < len[e] ? seed[CN * e + i] : 0;
        c[2 * CN] = lo[e], c[2 * CN + 1] = hi[e], c[2 * CN + 2] = j;
        fd_check(&fc, "st_clip", clip_at, c, x[CN * e + j], dx[CN * e + j]);
      }
    }
    gp_reset();
  }
  fd_expect(&fc, "st_clip", 5000);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_geo),
      cmocka_unit_test(t_sinc),
      cmocka_unit_test(t_clip),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_status", tests, NULL, NULL);
}
