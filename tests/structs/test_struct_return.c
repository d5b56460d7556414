/* Struct return values (issue 11 part 1, docs/abi.md "Structs"): `vec3
 * *ret` receives n records; NAME_grad's `const vec3 *d_ret` holds n
 * cotangent records (NULL: 1 for every floating member); NAME_jvp writes
 * the directional derivative of every floating member into `vec3 *d_ret`.
 *   - NAME_batched bit for bit against the scalar function (each member,
 *     integer members included), ret ending at a guard page, sentinels
 *     after it;
 *   - NAME_grad against central finite differences of
 *     Σ_m d_ret[b].m * ret_b.m, with given seeds and with NULL;
 *   - NAME_jvp against central finite differences along the direction,
 *     integer members of d_ret left as they were;
 *   - NAME_hvp: ret as NAME_batched writes it, the gradient bit for bit
 *     NAME_grad's, H·v against central differences of NAME_grad along the
 *     direction (dense vec3 records) and against the exact H·v of a
 *     record with an array member and an int member, uniform parameter
 *     summed. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"

typedef struct {
  double x, y, z;
} vec3;

__attribute__((batch, diff, diff(forward), diff(hvp))) vec3 spin(vec3 a,
                                                                 double t) {
  double c = 1.0 - 0.5 * t * t, s = t - t * t * t / 6.0; /* arithmetic */
  vec3 r = {c * a.x - s * a.y, s * a.x + c * a.y, a.z * t};
  if (a.z < 0.0)
    r.z = -r.z * r.z;
  return r;
}

typedef struct {
  float re, im;
  int quadrant;
} polar;

BATCHDIFF polar cmulf(float ar, float ai, BD_UNIFORM float br, float bi) {
  polar p = {ar * br - ai * bi, ar * bi + ai * br, 0};
  p.quadrant = (p.re < 0.0f) + 2 * (p.im < 0.0f);
  return p;
}

typedef struct {
  double v[2];
  int sign;
} vsig;

__attribute__((batch, diff(hvp))) vsig sq2(double a, BD_UNIFORM double c) {
  vsig o = {{a * a * c, sin(a) * c}, a < 0.0};
  return o;
}

static void t_batched(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_return")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    for (int rep = 0; rep < 4; rep++) {
      vec3 *a = gp_alloc(n * sizeof(vec3));
      double *t = gp_alloc(n * 8);
      float *ar = gp_alloc(n * 4), *ai = gp_alloc(n * 4), *bi = gp_alloc(n * 4);
      for (size_t b = 0; b < n; b++) {
        a[b] = (vec3){gen_d(&rng), gen_d(&rng), gen_d(&rng)};
        t[b] = gen_d(&rng);
        ar[b] = gen_f(&rng);
        ai[b] = gen_f(&rng);
        bi[b] = gen_f(&rng);
      }
      float br = gen_f(&rng);
      vec3 *r = gp_alloc(n * sizeof(vec3));
      polar *p = gp_alloc(n * sizeof(polar));
      memset(p, 0xA5, n * sizeof(polar));
      spin_batched(n, a, t, r);
      cmulf_batched(n, ar, ai, br, bi, p);
      for (size_t b = 0; b < n; b++) {
        vec3 w = spin(a[b], t[b]);
        if (!same_bits_or_nan(&r[b].x, &w.x, 8, 1) ||
            !same_bits_or_nan(&r[b].y, &w.y, 8, 1) ||
            !same_bits_or_nan(&r[b].z, &w.z, 8, 1)) {
          print_error("spin n=%zu b=%zu: %.17g %.17g %.17g want %.17g %.17g "
                      "%.17g\n",
                      n, b, r[b].x, r[b].y, r[b].z, w.x, w.y, w.z);
          fail();
        }
        polar q = cmulf(ar[b], ai[b], br, bi[b]);
        if (!same_bits_or_nan(&p[b].re, &q.re, 4, 1) ||
            !same_bits_or_nan(&p[b].im, &q.im, 4, 1) ||
            p[b].quadrant != q.quadrant) {
          print_error("cmulf n=%zu b=%zu: %.9g %.9g %d want %.9g %.9g %d\n", n,
                      b, p[b].re, p[b].im, p[b].quadrant, q.re, q.im,
                      q.quadrant);
          fail();
        }
      }
      gp_reset();
    }
  }
}

/* Σ_m w.m * spin(a, t).m */
static double seeded(vec3 a, double t, vec3 w) {
  vec3 r = spin(a, t);
  return w.x * r.x + w.y * r.y + w.z * r.z;
}
static double *comp(vec3 *v, int j) {
  return j == 0 ? &v->x : j == 1 ? &v->y : &v->z;
}

static void t_grad(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_return_grad")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    for (int null_seed = 0; null_seed < 2; null_seed++) {
      vec3 *a = gp_alloc(n * sizeof(vec3)), *da = gp_alloc(n * sizeof(vec3));
      vec3 *seed = gp_alloc(n * sizeof(vec3)), *ret = gp_alloc(n * sizeof(vec3));
      vec3 *ta = gp_alloc(n * sizeof(vec3)), *jr = gp_alloc(n * sizeof(vec3));
      vec3 *jd = gp_alloc(n * sizeof(vec3));
      double *t = gp_alloc(n * 8), *dt = gp_alloc(n * 8), *tt = gp_alloc(n * 8);
      for (size_t b = 0; b < n; b++) {
        a[b] = (vec3){rng_range(&rng, -2, 2), rng_range(&rng, -2, 2),
                      rng_range(&rng, -2, 2)};
        t[b] = rng_range(&rng, -3, 3);
        seed[b] = null_seed ? (vec3){1, 1, 1}
                            : (vec3){rng_range(&rng, -1, 1),
                                     rng_range(&rng, -1, 1),
                                     rng_range(&rng, -1, 1)};
        da[b] = (vec3){0, 0, 0};
        dt[b] = 0.0;
        ta[b] = (vec3){rng_range(&rng, -1, 1), rng_range(&rng, -1, 1),
                       rng_range(&rng, -1, 1)};
        tt[b] = rng_range(&rng, -1, 1);
      }
      spin_grad(n, a, t, ret, null_seed ? NULL : seed, da, dt);
      spin_jvp(n, a, t, ta, tt, jr, jd);
      for (size_t b = 0; b < n; b++) {
        vec3 w = spin(a[b], t[b]);
        if (memcmp(&ret[b], &w, sizeof w) || memcmp(&jr[b], &w, sizeof w)) {
          print_error("spin ret b=%zu\n", b);
          fail();
        }
        for (int j = 0; j < 4; j++) {
          vec3 p = a[b], m = a[b];
          double tp = t[b], tm = t[b], h = 1e-6;
          if (j < 3) {
            *comp(&p, j) += h;
            *comp(&m, j) -= h;
          } else {
            tp += h;
            tm -= h;
          }
          double f = (seeded(p, tp, seed[b]) - seeded(m, tm, seed[b])) / (2 * h);
          double g = j < 3 ? *comp(&da[b], j) : dt[b];
          if (!close_to(g, f, 1e-6)) {
            print_error("spin_grad n=%zu b=%zu seed%s arg %d: %.17g fd %.17g\n",
                        n, b, null_seed ? " NULL" : "", j, g, f);
            fail();
          }
        }
        /* jvp: each member's derivative along (ta, tt). */
        double h = 1e-6;
        vec3 p = a[b], m = a[b];
        for (int j = 0; j < 3; j++) {
          *comp(&p, j) += h * *comp(&ta[b], j);
          *comp(&m, j) -= h * *comp(&ta[b], j);
        }
        vec3 up = spin(p, t[b] + h * tt[b]), dn = spin(m, t[b] - h * tt[b]);
        for (int j = 0; j < 3; j++) {
          double f = (*comp(&up, j) - *comp(&dn, j)) / (2 * h);
          if (!close_to(*comp(&jd[b], j), f, 1e-6)) {
            print_error("spin_jvp n=%zu b=%zu member %d: %.17g fd %.17g\n", n,
                        b, j, *comp(&jd[b], j), f);
            fail();
          }
        }
      }
      gp_reset();
    }
  }
}

static void t_hvp(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_return_hvp")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    for (int null_seed = 0; null_seed < 2; null_seed++) {
      vec3 *a = gp_alloc(n * sizeof(vec3)), *seed = gp_alloc(n * sizeof(vec3));
      vec3 *ta = gp_alloc(n * sizeof(vec3)), *ret = gp_alloc(n * sizeof(vec3));
      vec3 *da = gp_alloc(n * sizeof(vec3)), *ha = gp_alloc(n * sizeof(vec3));
      vec3 *ga = gp_alloc(n * sizeof(vec3)), *gp = gp_alloc(n * sizeof(vec3));
      vec3 *gm = gp_alloc(n * sizeof(vec3));
      double *t = gp_alloc(n * 8), *tt = gp_alloc(n * 8), *dt = gp_alloc(n * 8);
      double *ht = gp_alloc(n * 8), *gt = gp_alloc(n * 8);
      double *gtp = gp_alloc(n * 8), *gtm = gp_alloc(n * 8);
      vec3 *ap = gp_alloc(n * sizeof(vec3)), *am = gp_alloc(n * sizeof(vec3));
      double *tp = gp_alloc(n * 8), *tm = gp_alloc(n * 8);
      double h = 1e-6;
      for (size_t b = 0; b < n; b++) {
        a[b] = (vec3){rng_range(&rng, -2, 2), rng_range(&rng, -2, 2),
                      rng_range(&rng, -2, 2)};
        t[b] = rng_range(&rng, -3, 3);
        seed[b] = (vec3){rng_range(&rng, -1, 1), rng_range(&rng, -1, 1),
                         rng_range(&rng, -1, 1)};
        ta[b] = (vec3){rng_range(&rng, -1, 1), rng_range(&rng, -1, 1),
                       rng_range(&rng, -1, 1)};
        tt[b] = rng_range(&rng, -1, 1);
        da[b] = ha[b] = ga[b] = gp[b] = gm[b] = (vec3){0, 0, 0};
        dt[b] = ht[b] = gt[b] = gtp[b] = gtm[b] = 0.0;
        for (int j = 0; j < 3; j++) {
          *comp(&ap[b], j) = *comp(&a[b], j) + h * *comp(&ta[b], j);
          *comp(&am[b], j) = *comp(&a[b], j) - h * *comp(&ta[b], j);
        }
        tp[b] = t[b] + h * tt[b];
        tm[b] = t[b] - h * tt[b];
      }
      const vec3 *sd = null_seed ? NULL : seed;
      spin_hvp(n, a, t, ta, tt, ret, sd, da, dt, ha, ht);
      spin_grad(n, a, t, NULL, sd, ga, gt);
      spin_grad(n, ap, tp, NULL, sd, gp, gtp);
      spin_grad(n, am, tm, NULL, sd, gm, gtm);
      for (size_t b = 0; b < n; b++) {
        vec3 w = spin(a[b], t[b]);
        if (memcmp(&ret[b], &w, sizeof w) || memcmp(&da[b], &ga[b], sizeof w) ||
            memcmp(&dt[b], &gt[b], 8)) {
          print_error("spin_hvp n=%zu b=%zu: ret or gradient differ\n", n, b);
          fail();
        }
        for (int j = 0; j < 4; j++) {
          double got = j < 3 ? *comp(&ha[b], j) : ht[b];
          double f = j < 3 ? (*comp(&gp[b], j) - *comp(&gm[b], j)) / (2 * h)
                           : (gtp[b] - gtm[b]) / (2 * h);
          if (!close_to(got, f, 1e-6)) {
            print_error("spin_hvp n=%zu b=%zu seed%s arg %d: %.17g fd %.17g\n",
                        n, b, null_seed ? " NULL" : "", j, got, f);
            fail();
          }
        }
      }
      /* An array member and an int member; a uniform parameter. */
      double *x = gp_alloc(n * 8), *tx = gp_alloc(n * 8), *dx = gp_alloc(n * 8);
      double *hx = gp_alloc(n * 8);
      vsig *s = gp_alloc(n * sizeof(vsig)), *r = gp_alloc(n * sizeof(vsig));
      for (size_t b = 0; b < n; b++) {
        x[b] = rng_range(&rng, -2, 2);
        tx[b] = rng_range(&rng, -1, 1);
        dx[b] = hx[b] = 0.0;
        s[b] = (vsig){{rng_range(&rng, -1, 1), rng_range(&rng, -1, 1)}, 99};
      }
      double c = rng_range(&rng, 0.5, 2), tc = 0.75, dc = 0.0, hc = 0.0;
      sq2_hvp(n, x, c, tx, &tc, r, null_seed ? NULL : s, dx, &dc, hx, &hc);
      double wdc = 0.0, whc = 0.0;
      for (size_t b = 0; b < n; b++) {
        double A = x[b], s0 = null_seed ? 1 : s[b].v[0];
        double s1 = null_seed ? 1 : s[b].v[1];
        vsig w = sq2(A, c);
        double haa = 2 * c * s0 - sin(A) * c * s1, hac = 2 * A * s0 + cos(A) * s1;
        double wda = 2 * A * c * s0 + cos(A) * c * s1;
        wdc += A * A * s0 + sin(A) * s1;
        whc += hac * tx[b];
        /* (sin: the vector one is within 1 ULP of libm's.) */
        if (!close_to(r[b].v[0], w.v[0], 0) ||
            !close_to(r[b].v[1], w.v[1], 1e-15) || r[b].sign != w.sign ||
            !close_to(dx[b], wda, 1e-12) ||
            !close_to(hx[b], haa * tx[b] + hac * tc, 1e-12)) {
          print_error("sq2_hvp n=%zu b=%zu: d %.17g want %.17g, h %.17g want "
                      "%.17g\n",
                      n, b, dx[b], wda, hx[b], haa * tx[b] + hac * tc);
          fail();
        }
      }
      if (!close_to(dc, wdc, 1e-12 * (double)(n + 1)) ||
          !close_to(hc, whc, 1e-12 * (double)(n + 1))) {
        print_error("sq2_hvp n=%zu: d_c %.17g want %.17g, h_c %.17g want "
                    "%.17g\n",
                    n, dc, wdc, hc, whc);
        fail();
      }
      gp_reset();
    }
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_batched),
      cmocka_unit_test(t_grad),
      cmocka_unit_test(t_hvp),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
