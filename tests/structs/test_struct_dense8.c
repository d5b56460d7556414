/* Dense records of 5..8 members (docs/abi.md "Structs": one scalar type,
 * no padding): a full group of W records is read with M vector loads and
 * permutes (batchdiff/aos.h), the batch's last, partial group record by
 * record (the records end at a guard page).
 *   - AoS -> SoA bit for bit: functions returning one member chosen per
 *     example give each record's bits back (random bit patterns) for
 *     5 doubles, an array member double q[6], 7 floats (shapes n and d),
 *     int[8], a nested struct of 5 long longs, a 2-D member double
 *     m[2][4]; a record of 9 doubles (not dense) alike;
 *   - SoA -> AoS bit for bit: dense struct return values (NAME_batched's
 *     ret, NAME_jvp's d_ret) against the scalar function;
 *   - shadows of dense records: exact sums (+=) from seeds read from dense
 *     d_ret records (NULL = ones), a shadow member without a gradient kept
 *     bit for bit; NAME_jvp against the exact tangent. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"
#include "dense_records.h"

typedef struct {
  double a, b, c, d, e;
} d5;
typedef struct {
  double q[6];
} d6;
typedef struct {
  float x[7];
} f7;
typedef struct {
  int k[8];
} ik8;
typedef struct {
  struct {
    long long u, v;
  } in;
  long long w, x, y;
} l5;
typedef struct {
  double m[2][4];
} m24;
typedef struct {
  double q[9];
} d9;

BATCHDIFF double pick_d5(d5 r, int w) {
  return w == 0 ? r.a : w == 1 ? r.b : w == 2 ? r.c : w == 3 ? r.d : r.e;
}
BATCHDIFF double pick_d6(d6 r, int w) { return r.q[w]; }
BATCHDIFF float pick_f7n(f7 r, int w) { return r.x[w]; }
/* Floats in shape d (the double parameter makes lanes 64-bit). */
BATCHDIFF float pick_f7d(f7 r, int w, double s) {
  return s > 1e300 ? 0.0f : r.x[w];
}
__attribute__((batch)) int pick_i8(ik8 r, int w) { return r.k[w]; }
__attribute__((batch)) long long pick_l5(l5 r, int w) {
  return w == 0 ? r.in.u : w == 1 ? r.in.v : w == 2 ? r.w : w == 3 ? r.x : r.y;
}
BATCHDIFF double pick_m24(m24 r, int w) { return r.m[w / 4][w % 4]; }
BATCHDIFF double pick_d9(d9 r, int w) { return r.q[w]; }

/* Dense return values, gradients and tangents. */
__attribute__((batch, diff, diff(forward))) d6 scale6(d6 a, double s) {
  d6 o;
  for (int i = 0; i < 6; i++)
    o.q[i] = a.q[i] * s;
  return o;
}
/* e is not differentiated through (its shadow keeps its bits). */
BATCHDIFF d5 mix5(d5 a) {
  d5 o = {a.b, a.c, a.d, a.a, (double)(a.e > 0.0)};
  return o;
}
BATCHDIFF f7 rev7(f7 a) {
  f7 o;
  for (int i = 0; i < 7; i++)
    o.x[i] = a.x[6 - i];
  return o;
}
__attribute__((batch)) ik8 inc8(ik8 a, int k) {
  ik8 o;
  for (int i = 0; i < 8; i++)
    o.k[i] = a.k[i] + k * i;
  return o;
}

/* ---- generators: any bit pattern --------------------------------------- */

GEN_BITS(d5)
GEN_BITS(d6)
GEN_BITS(f7)
GEN_BITS(ik8)
GEN_BITS(l5)
GEN_BITS(m24)
GEN_BITS(d9)

static void t_aos_to_lanes(void **state) {
  (void)state;
  rng_t rng = {name_seed("dense8_pick")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    for (int rep = 0; rep < 3; rep++) {
#define EXTRA
      CHECK_PICK(pick_d5, d5, double, 5,
                 w == 0   ? r_->a
                 : w == 1 ? r_->b
                 : w == 2 ? r_->c
                 : w == 3 ? r_->d
                          : r_->e);
      CHECK_PICK(pick_d6, d6, double, 6, r_->q[w]);
      CHECK_PICK(pick_f7n, f7, float, 7, r_->x[w]);
      CHECK_PICK(pick_i8, ik8, int, 8, r_->k[w]);
      CHECK_PICK(pick_l5, l5, long long, 5,
                 w == 0   ? r_->in.u
                 : w == 1 ? r_->in.v
                 : w == 2 ? r_->w
                 : w == 3 ? r_->x
                          : r_->y);
      CHECK_PICK(pick_m24, m24, double, 8, r_->m[w / 4][w % 4]);
      CHECK_PICK(pick_d9, d9, double, 9, r_->q[w]);
#undef EXTRA
#define EXTRA , zero_
      double *zero_ = gp_alloc(n * 8);
      memset(zero_, 0, n * 8);
      CHECK_PICK(pick_f7d, f7, float, 7, r_->x[w]);
#undef EXTRA
      gp_reset();
    }
  }
}

/* ---- lanes -> records: dense return values ------------------------------ */

static double gen_small(rng_t *r) { return rng_range(r, -4, 4); }

static void t_lanes_to_aos(void **state) {
  (void)state;
  rng_t rng = {name_seed("dense8_ret")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    RECORDS(d5, a, n);
    RECORDS(f7, f, n);
    RECORDS(ik8, k, n);
    int *ks = gp_alloc(n * sizeof(int));
    for (size_t b = 0; b < n; b++)
      ks[b] = rng_below(&rng, 100) - 50;
    d5 *o1 = gp_alloc(n * sizeof(d5));
    f7 *o2 = gp_alloc(n * sizeof(f7));
    ik8 *o3 = gp_alloc(n * sizeof(ik8));
    mix5_batched(n, a, o1);
    rev7_batched(n, f, o2);
    inc8_batched(n, k, ks, o3);
    for (size_t b = 0; b < n; b++) {
      d5 w1 = mix5(a[b]);
      f7 w2 = rev7(f[b]);
      ik8 w3 = inc8(k[b], ks[b]);
      if (memcmp(&o1[b], &w1, sizeof w1) || memcmp(&o2[b], &w2, sizeof w2) ||
          memcmp(&o3[b], &w3, sizeof w3)) {
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
  rng_t rng = {name_seed("dense8_grad")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    d6 *a = gp_alloc(n * sizeof(d6)), *da = gp_alloc(n * sizeof(d6));
    d6 *dret = gp_alloc(n * sizeof(d6)), *ret = gp_alloc(n * sizeof(d6));
    d6 *ta = gp_alloc(n * sizeof(d6)), *tret = gp_alloc(n * sizeof(d6));
    d6 *jret = gp_alloc(n * sizeof(d6)), *da0 = gp_alloc(n * sizeof(d6));
    double *s = gp_alloc(n * 8), *ds = gp_alloc(n * 8), *ts = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++) {
      for (int i = 0; i < 6; i++) {
        a[b].q[i] = gen_small(&rng);
        dret[b].q[i] = gen_small(&rng);
        ta[b].q[i] = gen_small(&rng);
        da[b].q[i] = i == 1 ? -0.0 : 0.25 * i; /* incremented */
      }
      s[b] = gen_small(&rng);
      ts[b] = gen_small(&rng);
      ds[b] = 0.0;
    }
    for (int seeded = 0; seeded < 2; seeded++) {
      memcpy(da0, da, n * sizeof(d6));
      scale6_grad(n, a, s, ret, seeded ? dret : NULL, da, ds);
      for (size_t b = 0; b < n; b++) {
        d6 want = scale6(a[b], s[b]), wd;
        double wds = 0.0;
        for (int i = 0; i < 6; i++) {
          double d = seeded ? dret[b].q[i] : 1.0;
          double p = d * s[b]; /* separate statements: not contracted */
          wd.q[i] = da0[b].q[i] + p;
          wds += d * a[b].q[i];
        }
        if (memcmp(&ret[b], &want, sizeof want) ||
            memcmp(&da[b], &wd, sizeof wd) ||
            fabs(ds[b] - wds) > 1e-13 * (1 + fabs(wds))) {
          print_error("scale6_grad n=%zu b=%zu seeded=%d: d_a or d_s differ\n",
                      n, b, seeded);
          fail();
        }
        ds[b] = 0.0;
      }
    }
    scale6_jvp(n, a, s, ta, ts, jret, tret);
    for (size_t b = 0; b < n; b++) {
      d6 want = scale6(a[b], s[b]);
      int bad = memcmp(&jret[b], &want, sizeof want) != 0;
      for (int i = 0; i < 6; i++) {
        double wt = ta[b].q[i] * s[b] + a[b].q[i] * ts[b];
        bad |= fabs(tret[b].q[i] - wt) > 1e-14 * (1 + fabs(wt));
      }
      if (bad) {
        print_error("scale6_jvp n=%zu b=%zu\n", n, b);
        fail();
      }
    }
    /* mix5: member e has no gradient: its shadow keeps its bits. */
    d5 *x = gp_alloc(n * sizeof(d5)), *dx = gp_alloc(n * sizeof(d5));
    d5 *sd = gp_alloc(n * sizeof(d5)), *r5 = gp_alloc(n * sizeof(d5));
    for (size_t b = 0; b < n; b++) {
      x[b] = (d5){gen_small(&rng), gen_small(&rng), gen_small(&rng),
                  gen_small(&rng), gen_small(&rng)};
      sd[b] = (d5){gen_small(&rng), gen_small(&rng), gen_small(&rng),
                   gen_small(&rng), gen_small(&rng)};
      dx[b] = (d5){0.5, 0.25, -0.0, 1.0, -3.0};
    }
    mix5_grad(n, x, r5, sd, dx);
    for (size_t b = 0; b < n; b++) {
      d5 w = {0.5 + sd[b].d, 0.25 + sd[b].a, -0.0 + sd[b].b, 1.0 + sd[b].c,
              -3.0};
      if (memcmp(&dx[b], &w, sizeof w)) {
        print_error("mix5_grad n=%zu b=%zu: d_a differs\n", n, b);
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
