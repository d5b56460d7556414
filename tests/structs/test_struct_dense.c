/* Dense records (docs/abi.md "Structs": 2..4 members of one scalar type, no
 * padding): a full group of W records is transposed in registers
 * (batchdiff/aos.h), the batch's last, partial group record by record.
 *   - AoS -> SoA bit for bit: functions returning one member chosen per
 *     example give each record's bits back (random bit patterns: NaN
 *     payloads, -0.0, subnormals) for double/float (shape n and d), int,
 *     long long, an array member, a nested struct, and a padded record
 *     (aligned(32): not dense, record by record); every n of test_ns, the
 *     records ending at a guard page, each example alone the same;
 *   - SoA -> AoS bit for bit: dense struct return values (ret, d_ret of
 *     NAME_jvp) against the scalar function, ret ending at a guard page;
 *   - shadows of dense records: exact sums (+=) and the seeds read from
 *     dense d_ret records (NULL = ones); gradients against the exact
 *     products, NAME_jvp against grad·t. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"
#include "dense_records.h"

typedef struct {
  double x, y, z;
} v3;
typedef struct {
  float x, y, z;
} v3f;
typedef struct {
  float re, im;
} cpx;
typedef struct {
  int a, b, c, d;
} i4;
typedef struct {
  long long a, b;
} l2;
typedef struct {
  double q[4];
} quat;
typedef struct {
  struct {
    double u, v;
  } in;
} nest2;
typedef struct {
  double x, y;
} __attribute__((aligned(32))) v2a;

BATCHDIFF double pick_v3(v3 a, int w) {
  return w == 0 ? a.x : w == 1 ? a.y : a.z;
}
/* Floats in shape d (the double parameter makes lanes 64-bit). */
BATCHDIFF float pick_v3fd(v3f a, int w, double s) {
  return s > 1e300 ? 0.0f : w == 0 ? a.x : w == 1 ? a.y : a.z;
}
BATCHDIFF float pick_v3fn(v3f a, int w) {
  return w == 0 ? a.x : w == 1 ? a.y : a.z;
}
BATCHDIFF float pick_cpx(cpx z, int w) { return w == 0 ? z.re : z.im; }
__attribute__((batch)) int pick_i4(i4 r, int w) {
  return w == 0 ? r.a : w == 1 ? r.b : w == 2 ? r.c : r.d;
}
__attribute__((batch)) long long pick_l2(l2 r, int w) {
  return w == 0 ? r.a : r.b;
}
BATCHDIFF double pick_quat(quat q, int w) { return q.q[w & 3]; }
BATCHDIFF double pick_nest(nest2 n, int w) { return w ? n.in.v : n.in.u; }
BATCHDIFF double pick_v2a(v2a a, int w) { return w ? a.y : a.x; }

/* Dense return values, with gradients and tangents. */
__attribute__((batch, diff, diff(forward))) v3 scale3(v3 a, double s) {
  v3 o = {a.x * s, a.y * s, a.z * s};
  return o;
}
BATCHDIFF cpx cmulf(cpx z, BD_UNIFORM cpx w) {
  cpx o = {z.re * w.re - z.im * w.im, z.re * w.im + z.im * w.re};
  return o;
}
BATCHDIFF quat qswap(quat q) {
  quat o = {{q.q[3], q.q[2], q.q[1], q.q[0]}};
  return o;
}

/* ---- generators: any bit pattern --------------------------------------- */

GEN_BITS(v3)
GEN_BITS(v3f)
GEN_BITS(cpx)
GEN_BITS(i4)
GEN_BITS(l2)
GEN_BITS(quat)
GEN_BITS(nest2)
GEN_BITS(v2a)

static void t_aos_to_lanes(void **state) {
  (void)state;
  rng_t rng = {name_seed("dense_pick")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    for (int rep = 0; rep < 3; rep++) {
#define EXTRA
      CHECK_PICK(pick_v3, v3, double, 3,
                 w == 0   ? r_->x
                 : w == 1 ? r_->y
                          : r_->z);
      CHECK_PICK(pick_v3fn, v3f, float, 3,
                 w == 0   ? r_->x
                 : w == 1 ? r_->y
                          : r_->z);
      CHECK_PICK(pick_cpx, cpx, float, 2, w == 0 ? r_->re : r_->im);
      CHECK_PICK(pick_i4, i4, int, 4,
                 w == 0   ? r_->a
                 : w == 1 ? r_->b
                 : w == 2 ? r_->c
                          : r_->d);
      CHECK_PICK(pick_l2, l2, long long, 2, w == 0 ? r_->a : r_->b);
      CHECK_PICK(pick_quat, quat, double, 4, r_->q[w & 3]);
      CHECK_PICK(pick_nest, nest2, double, 2, w ? r_->in.v : r_->in.u);
      CHECK_PICK(pick_v2a, v2a, double, 2, w ? r_->y : r_->x);
#undef EXTRA
#define EXTRA , zero_
      double *zero_ = gp_alloc(n * 8);
      memset(zero_, 0, n * 8);
      CHECK_PICK(pick_v3fd, v3f, float, 3,
                 w == 0   ? r_->x
                 : w == 1 ? r_->y
                          : r_->z);
#undef EXTRA
      gp_reset();
    }
  }
}

/* ---- lanes -> records: dense return values ------------------------------ */

static double gen_small(rng_t *r) { return rng_range(r, -4, 4); }

/* Members of records (any NaN for any NaN: arithmetic results). */
static int same_members(const void *got, const void *want, size_t sz, int m) {
  for (int k = 0; k < m; k++)
    if (!same_bits_or_nan((const char *)got + k * sz,
                          (const char *)want + k * sz, sz, 1))
      return 0;
  return 1;
}

static void t_lanes_to_aos(void **state) {
  (void)state;
  rng_t rng = {name_seed("dense_ret")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    RECORDS(v3, a, n);
    RECORDS(cpx, z, n);
    RECORDS(quat, q, n);
    double *s = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++)
      s[b] = gen_d(&rng);
    cpx w = {(float)gen_small(&rng), (float)gen_small(&rng)};
    v3 *o1 = gp_alloc(n * sizeof(v3));
    cpx *o2 = gp_alloc(n * sizeof(cpx));
    quat *o3 = gp_alloc(n * sizeof(quat));
    scale3_batched(n, a, s, o1);
    cmulf_batched(n, z, w, o2);
    qswap_batched(n, q, o3);
    for (size_t b = 0; b < n; b++) {
      v3 w1 = scale3(a[b], s[b]);
      cpx w2 = cmulf(z[b], w);
      quat w3 = qswap(q[b]);
      if (!same_members(&o1[b], &w1, 8, 3) ||
          !same_members(&o2[b], &w2, 4, 2) ||
          memcmp(&o3[b], &w3, sizeof w3) != 0) {
        print_error("dense return n=%zu b=%zu differs\n", n, b);
        fail();
      }
    }
    gp_reset();
  }
}

/* ---- shadows, seeds and tangents of dense records ------------------------ */

static void t_grad(void **state) {
  (void)state;
  rng_t rng = {name_seed("dense_grad")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    v3 *a = gp_alloc(n * sizeof(v3)), *da = gp_alloc(n * sizeof(v3));
    v3 *dret = gp_alloc(n * sizeof(v3)), *ret = gp_alloc(n * sizeof(v3));
    v3 *ta = gp_alloc(n * sizeof(v3)), *tret = gp_alloc(n * sizeof(v3));
    v3 *jret = gp_alloc(n * sizeof(v3));
    double *s = gp_alloc(n * 8), *ds = gp_alloc(n * 8), *ts = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++) {
      a[b] = (v3){gen_small(&rng), gen_small(&rng), gen_small(&rng)};
      dret[b] = (v3){gen_small(&rng), gen_small(&rng), gen_small(&rng)};
      ta[b] = (v3){gen_small(&rng), gen_small(&rng), gen_small(&rng)};
      da[b] = (v3){0.25, -0.0, 1.0}; /* incremented */
      s[b] = gen_small(&rng);
      ts[b] = gen_small(&rng);
      ds[b] = 0.0;
    }
    for (int seeded = 0; seeded < 2; seeded++) {
      v3 *da0 = gp_alloc(n * sizeof(v3));
      memcpy(da0, da, n * sizeof(v3));
      scale3_grad(n, a, s, ret, seeded ? dret : NULL, da, ds);
      for (size_t b = 0; b < n; b++) {
        v3 want = scale3(a[b], s[b]);
        v3 d = seeded ? dret[b] : (v3){1, 1, 1};
        /* (Products and sums as separate statements: not contracted.) */
        v3 p = {d.x * s[b], d.y * s[b], d.z * s[b]};
        v3 wd = {da0[b].x + p.x, da0[b].y + p.y, da0[b].z + p.z};
        double wds = d.x * a[b].x + d.y * a[b].y + d.z * a[b].z;
        if (memcmp(&ret[b], &want, sizeof want) != 0 ||
            memcmp(&da[b], &wd, sizeof wd) != 0 ||
            !close_to(ds[b], wds, 1e-14)) {
          print_error("scale3_grad n=%zu b=%zu seeded=%d: d_a %.17g %.17g "
                      "%.17g want %.17g %.17g %.17g, d_s %.17g want %.17g\n",
                      n, b, seeded, da[b].x, da[b].y, da[b].z, wd.x, wd.y, wd.z,
                      ds[b], wds);
          fail();
        }
        ds[b] = 0.0;
      }
    }
    scale3_jvp(n, a, s, ta, ts, jret, tret);
    for (size_t b = 0; b < n; b++) {
      v3 want = scale3(a[b], s[b]);
      double wt[3] = {ta[b].x * s[b] + a[b].x * ts[b],
                      ta[b].y * s[b] + a[b].y * ts[b],
                      ta[b].z * s[b] + a[b].z * ts[b]};
      if (memcmp(&jret[b], &want, sizeof want) != 0 ||
          !close_to(tret[b].x, wt[0], 1e-14) ||
          !close_to(tret[b].y, wt[1], 1e-14) ||
          !close_to(tret[b].z, wt[2], 1e-14)) {
        print_error("scale3_jvp n=%zu b=%zu\n", n, b);
        fail();
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_aos_to_lanes),
      cmocka_unit_test(t_lanes_to_aos),
      cmocka_unit_test(t_grad),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
