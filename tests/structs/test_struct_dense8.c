/* Dense records of 5..16 members (docs/abi.md "Structs": one scalar type,
 * no padding): a full group of W records is read with M vector loads and
 * permutes (batchdiff/aos.h; 9..16 members as W rows of M elements,
 * bd_rows_load/bd_rows_store), the batch's last, partial group record by
 * record (the records end at a guard page). Since session 53 also: 9, 10,
 * 12 and 16 members (a record of 17 is not dense), dense returns and seeds
 * of 10 members, and a ray-sphere hit (struct vec3 helpers, a record of 10
 * doubles returned) against the scalar function bit for bit and its
 * gradient against central differences.
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
typedef struct {
  double a, b, c, d, e, f, g, h, i, j;
} d10;
typedef struct {
  float x[12];
} f12;
typedef struct {
  int k[16];
} ik16;
typedef struct {
  double q[17];
} d17;

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
BATCHDIFF double pick_d10(d10 r, int w) {
  return w == 0 ? r.a : w == 9 ? r.j : w == 4 ? r.e : r.h;
}
BATCHDIFF float pick_f12n(f12 r, int w) { return r.x[w]; }
__attribute__((batch)) int pick_i16(ik16 r, int w) { return r.k[w]; }
BATCHDIFF double pick_d17(d17 r, int w) { return r.q[w]; }

/* 10 members returned: a rotation, one member not differentiated through. */
BATCHDIFF d10 mix10(d10 a, double s) {
  d10 o = {a.b * s, a.c, a.d, a.e,     a.f,
           a.g,     a.h, a.i, a.j * s, (double)(a.a > 0.0)};
  return o;
}
BATCHDIFF f12 rev12(f12 a) {
  f12 o;
  for (int i = 0; i < 12; i++)
    o.x[i] = a.x[11 - i];
  return o;
}

/* A ray-sphere hit as users write it: vec3 helpers returning structs, a
 * record of 10 doubles (distance, point, normal, reflected direction). */
typedef struct {
  double x, y, z;
} vec3;
typedef struct {
  double t;
  vec3 p, n, refl;
} hit;
static inline vec3 vsub(vec3 a, vec3 b) {
  vec3 r = {a.x - b.x, a.y - b.y, a.z - b.z};
  return r;
}
static inline vec3 vadd(vec3 a, vec3 b) {
  vec3 r = {a.x + b.x, a.y + b.y, a.z + b.z};
  return r;
}
static inline vec3 vscale(vec3 a, double s) {
  vec3 r = {a.x * s, a.y * s, a.z * s};
  return r;
}
static inline double vdot(vec3 a, vec3 b) {
  return a.x * b.x + a.y * b.y + a.z * b.z;
}
BATCHDIFF hit ray_hit(vec3 o, vec3 d, vec3 c, double r) {
  hit h;
  vec3 oc = vsub(o, c);
  double b = vdot(oc, d), disc = b * b - (vdot(oc, oc) - r * r);
  if (disc < 0) {
    h.t = -1;
    h.p = o;
    h.n = d;
    h.refl = d;
    return h;
  }
  double sq = sqrt(disc), t = -b - sq;
  if (t < 0)
    t = -b + sq;
  h.t = t;
  h.p = vadd(o, vscale(d, t));
  h.n = vscale(vsub(h.p, c), 1.0 / r);
  h.refl = vsub(d, vscale(h.n, 2.0 * vdot(d, h.n)));
  return h;
}

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
GEN_BITS(d10)
GEN_BITS(f12)
GEN_BITS(ik16)
GEN_BITS(d17)

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
      CHECK_PICK(pick_d10, d10, double, 10,
                 w == 0   ? r_->a
                 : w == 9 ? r_->j
                 : w == 4 ? r_->e
                          : r_->h);
      CHECK_PICK(pick_f12n, f12, float, 12, r_->x[w]);
      CHECK_PICK(pick_i16, ik16, int, 16, r_->k[w]);
      CHECK_PICK(pick_d17, d17, double, 17, r_->q[w]);
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
    RECORDS(f12, f12s, n);
    d10 *a10 = gp_alloc(n * sizeof(d10)); /* products: no NaN payloads */
    double *s10 = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++) {
      double *q = &a10[b].a;
      for (int i = 0; i < 10; i++)
        q[i] = gen_small(&rng);
      s10[b] = gen_small(&rng);
    }
    d5 *o1 = gp_alloc(n * sizeof(d5));
    f7 *o2 = gp_alloc(n * sizeof(f7));
    ik8 *o3 = gp_alloc(n * sizeof(ik8));
    d10 *o4 = gp_alloc(n * sizeof(d10));
    f12 *o5 = gp_alloc(n * sizeof(f12));
    mix5_batched(n, a, o1);
    rev7_batched(n, f, o2);
    inc8_batched(n, k, ks, o3);
    mix10_batched(n, a10, s10, o4);
    rev12_batched(n, f12s, o5);
    for (size_t b = 0; b < n; b++) {
      d5 w1 = mix5(a[b]);
      f7 w2 = rev7(f[b]);
      ik8 w3 = inc8(k[b], ks[b]);
      d10 w4 = mix10(a10[b], s10[b]);
      f12 w5 = rev12(f12s[b]);
      if (memcmp(&o1[b], &w1, sizeof w1) || memcmp(&o2[b], &w2, sizeof w2) ||
          memcmp(&o3[b], &w3, sizeof w3) || memcmp(&o4[b], &w4, sizeof w4) ||
          memcmp(&o5[b], &w5, sizeof w5)) {
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

/* mix10: seeds read from dense d_ret records of 10 members (NULL = ones);
 * the shadow member of a (a.a: a comparison only) keeps its bits. */
static void t_grad10(void **state) {
  (void)state;
  rng_t rng = {name_seed("dense8_grad10")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    d10 *a = gp_alloc(n * sizeof(d10)), *da = gp_alloc(n * sizeof(d10));
    d10 *sd = gp_alloc(n * sizeof(d10)), *ret = gp_alloc(n * sizeof(d10));
    double *s = gp_alloc(n * 8), *ds = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++) {
      double *q = &a[b].a, *e = &sd[b].a, *g = &da[b].a;
      for (int i = 0; i < 10; i++)
        q[i] = gen_small(&rng), e[i] = gen_small(&rng), g[i] = 0.125 * i;
      s[b] = gen_small(&rng);
    }
    for (int seeded = 0; seeded < 2; seeded++) {
      for (size_t b = 0; b < n; b++) {
        double *g = &da[b].a;
        for (int i = 0; i < 10; i++)
          g[i] = 0.125 * i;
        ds[b] = 0.0;
      }
      mix10_grad(n, a, s, ret, seeded ? sd : NULL, da, ds);
      for (size_t b = 0; b < n; b++) {
        d10 want = mix10(a[b], s[b]), w;
        const double *e = &sd[b].a, *q = &a[b].a;
        double sb = seeded ? e[0] : 1.0, sj = seeded ? e[8] : 1.0;
        double *wq = &w.a;
        for (int i = 0; i < 10; i++)
          wq[i] = 0.125 * i;
        for (int i = 2; i < 9; i++)
          wq[i] += seeded ? e[i - 1] : 1.0;
        double p1 = sb * s[b], p9 = sj * s[b]; /* not contracted */
        wq[1] += p1;
        wq[9] += p9;
        double wds = sb * q[1] + sj * q[9];
        if (memcmp(&ret[b], &want, sizeof want) ||
            memcmp(&da[b], &w, sizeof w) ||
            fabs(ds[b] - wds) > 1e-13 * (1 + fabs(wds))) {
          print_error("mix10_grad n=%zu b=%zu seeded=%d differs\n", n, b,
                      seeded);
          fail();
        }
      }
    }
    gp_reset();
  }
}

/* The ray hit: values bit for bit, gradients against central differences
 * (the seeds weigh the 10 outputs). */
static double ray_dot(vec3 o, vec3 d, vec3 c, double r, const hit *w) {
  hit h = ray_hit(o, d, c, r);
  return h.t * w->t + vdot(h.p, w->p) + vdot(h.n, w->n) + vdot(h.refl, w->refl);
}
static void t_ray(void **state) {
  (void)state;
  rng_t rng = {name_seed("dense8_ray")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    vec3 *o = gp_alloc(n * sizeof(vec3)), *d = gp_alloc(n * sizeof(vec3));
    vec3 *c = gp_alloc(n * sizeof(vec3)), *dO = gp_alloc(n * sizeof(vec3));
    vec3 *dD = gp_alloc(n * sizeof(vec3)), *dC = gp_alloc(n * sizeof(vec3));
    double *r = gp_alloc(n * 8), *dr = gp_alloc(n * 8);
    hit *h = gp_alloc(n * sizeof(hit)), *h2 = gp_alloc(n * sizeof(hit));
    hit *seed = gp_alloc(n * sizeof(hit));
    for (size_t b = 0; b < n; b++) {
      o[b] = (vec3){rng_range(&rng, -2, 2), rng_range(&rng, -2, 2),
                    rng_range(&rng, -5, -4)};
      d[b] = (vec3){rng_range(&rng, -0.2, 0.2), rng_range(&rng, -0.2, 0.2), 1};
      c[b] = (vec3){rng_range(&rng, -0.5, 0.5), rng_range(&rng, -0.5, 0.5),
                    rng_range(&rng, -0.5, 0.5)};
      r[b] = rng_range(&rng, 0.5, 1.5);
      double *q = &seed[b].t;
      for (int i = 0; i < 10; i++)
        q[i] = gen_small(&rng);
      dO[b] = dD[b] = dC[b] = (vec3){0, 0, 0};
      dr[b] = 0;
    }
    ray_hit_batched(n, o, d, c, r, h);
    ray_hit_grad(n, o, d, c, r, h2, seed, dO, dD, dC, dr);
    for (size_t b = 0; b < n; b++) {
      hit want = ray_hit(o[b], d[b], c[b], r[b]);
      if (memcmp(&h[b], &want, sizeof want) ||
          memcmp(&h2[b], &want, sizeof want)) {
        print_error("ray_hit n=%zu b=%zu: values differ\n", n, b);
        fail();
      }
      for (int k = 0; k < 10; k++) {
        vec3 oo = o[b], dd = d[b], cc = c[b];
        double rr = r[b];
        double *p = k < 3   ? &oo.x + k
                    : k < 6 ? &dd.x + k - 3
                    : k < 9 ? &cc.x + k - 6
                            : &rr;
        double g = k < 3   ? (&dO[b].x)[k]
                   : k < 6 ? (&dD[b].x)[k - 3]
                   : k < 9 ? (&dC[b].x)[k - 6]
                           : dr[b];
        /* near a grazing ray the curvature is large: steps of 1e-5, 1e-6
         * and 1e-7, one of them within 1e-5 */
        double x0 = *p, f0 = ray_dot(oo, dd, cc, rr, &seed[b]), fd = 0.0;
        int ok = 0, jump = 0;
        for (double hh = 1e-5; hh > 5e-8 && !ok; hh /= 10) {
          *p = x0 + hh;
          double fp = ray_dot(oo, dd, cc, rr, &seed[b]);
          *p = x0 - hh;
          double fm = ray_dot(oo, dd, cc, rr, &seed[b]);
          *p = x0;
          jump |= fabs(fp - f0) > 1e-2 || fabs(fm - f0) > 1e-2;
          fd = (fp - fm) / (2 * hh);
          ok = fabs(g - fd) <= 1e-5 * (1 + fabs(fd));
        }
        if (jump)
          continue; /* a branch switches within the step */
        if (!ok) {
          print_error("ray_hit_grad n=%zu b=%zu [%d]: %a, differences %a\n", n,
                      b, k, g, fd);
          fail();
        }
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_aos_to_lanes), cmocka_unit_test(t_lanes_to_aos),
      cmocka_unit_test(t_grad),         cmocka_unit_test(t_grad10),
      cmocka_unit_test(t_ray),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
