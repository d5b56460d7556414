/* Struct parameters of annotated functions (issue 11 part 1, docs/abi.md
 * "Structs"): a varying struct by value is `const T *a`, n records as the
 * user stores them (AoS); a BD_UNIFORM one is passed by value; shadows and
 * tangents are records of the same type.
 *   - NAME_batched bit for bit against the scalar function for every n of
 *     test_ns, records ending right before a guard page (read-only), ret
 *     ending at a guard page, each example alone the same as in a batch;
 *   - AoS -> SoA exactly: a function returning one member chosen per
 *     example gives each record's bits back (NaN payloads, -0.0 included),
 *     for double, float, int and mixed-type records;
 *   - SoA -> AoS exactly: shadows of a linear function are exact constants,
 *     added (+=) to every floating member of every record, integer members
 *     and padding bytes left as they were (sentinels), shadows ending at a
 *     guard page;
 *   - NAME_grad against central finite differences per member; the
 *     BD_UNIFORM struct's shadow against the sum of the per-example finite
 *     differences; NAME_jvp against Σ grad·t (dual numbers along t). */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"

typedef struct {
  double x, y, z;
} vec3;

__attribute__((batch, diff, diff(forward))) double dist(vec3 a,
                                                        BD_UNIFORM vec3 c) {
  double dx = a.x - c.x, dy = a.y - c.y, dz = a.z - c.z;
  return sqrt(dx * dx + dy * dy + dz * dz) + 0.5 * a.x * c.z;
}

/* An option record: a nested struct and an int member. */
typedef struct {
  double spot, strike;
  struct {
    double t, vol;
  } term;
  int call;
} contract;

BATCHDIFF double price(contract c, BD_UNIFORM double r) {
  double d = c.call ? c.spot - c.strike : c.strike - c.spot;
  double tv = c.term.vol * c.term.vol * c.term.t * c.spot;
  return (d > 0.0 ? d : 0.0) + tv / (1.0 + r * c.term.t);
}

/* Mixed member types (padding between them), float and double. */
typedef struct {
  float a;
  double b;
  int k;
  _Bool on;
  unsigned char tag;
} mixed;

BATCHDIFF double pick(mixed m, int which) {
  return which == 0   ? (double)m.a
         : which == 1 ? m.b
                      : (double)m.k + (double)m.tag;
}
BATCHDIFF double lin(mixed m, vec3 v) {
  return 2.0 * m.a + 3.0 * m.b - v.x + 0.5 * v.y + 4.0 * v.z +
         (m.on ? 1.0 : 0.0) * (double)m.k;
}

/* Float lanes (shape n). */
typedef struct {
  float re, im;
} cf;
BATCHDIFF float cabs2f(cf z, BD_UNIFORM cf w) {
  float re = z.re * w.re - z.im * w.im, im = z.re * w.im + z.im * w.re;
  return re * re + im * im;
}

/* Next to a BD_PACKED array (lanes hold examples in any order, sorted by
 * length) and in a loop (independent chains of lanes); a strided twin. */
#define WBODY                                                                  \
  double s = 0.0;                                                              \
  for (int i = 0; i < len; i++)                                                \
    s = s * w.x + x[i] * w.y;                                                  \
  return s + w.z;
BATCHDIFF double wsum(BD_PACKED const double *x, int len, vec3 w) { WBODY }
BATCHDIFF double wsum_s(const double *x, int len, vec3 w) { WBODY }

/* NAME_hvp with struct parameters: tangents t_a/t_c, H·v shadows h_a/h_c
 * are records too. */
__attribute__((batch, diff, diff(hvp))) double energy(vec3 a,
                                                      BD_UNIFORM vec3 c) {
  double dx = a.x - c.x, dy = a.y * c.y, dz = a.z;
  return dx * dx * dy + dz * dz * dx + 0.5 * dy * dy * c.z;
}

/* ---- generators --------------------------------------------------------- */

static vec3 gen_vec3(rng_t *r) { return (vec3){gen_d(r), gen_d(r), gen_d(r)}; }
static contract gen_contract(rng_t *r) {
  contract c;
  c.spot = gen_d_mod(r);
  c.strike = gen_d_mod(r);
  c.term.t = gen_d_mod(r);
  c.term.vol = gen_d(r);
  c.call = rng_below(r, 3) - 1;
  return c;
}
static mixed gen_mixed(rng_t *r) {
  mixed m;
  memset(&m, 0x5A, sizeof m); /* padding too */
  m.a = gen_f(r);
  m.b = gen_d(r);
  m.k = (int)rng_u64(r);
  m.on = rng_below(r, 2);
  m.tag = (unsigned char)rng_u64(r);
  return m;
}
static cf gen_cf(rng_t *r) { return (cf){gen_f(r), gen_f(r)}; }

/* Records of one type, the last one right before a guard page, read-only. */
#define RECORDS(T, name, n, gen)                                               \
  T *name = gp_alloc((n) * sizeof(T));                                         \
  for (size_t b_ = 0; b_ < (n); b_++)                                          \
    name[b_] = gen(&rng);                                                      \
  gp_seal(name)

static int same(double got, double want) {
  return same_bits_or_nan(&got, &want, sizeof got, 1);
}
static int samef(float got, float want) {
  return same_bits_or_nan(&got, &want, sizeof got, 1);
}

/* ---- batched vs scalar ------------------------------------------------- */

static void t_batched(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_batched")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    for (int rep = 0; rep < 4; rep++) {
      RECORDS(vec3, a, n, gen_vec3);
      RECORDS(contract, c, n, gen_contract);
      RECORDS(mixed, m, n, gen_mixed);
      RECORDS(cf, z, n, gen_cf);
      vec3 cu = gen_vec3(&rng);
      cf wu = gen_cf(&rng);
      int *which = gp_alloc(n * sizeof(int));
      for (size_t b = 0; b < n; b++)
        which[b] = rng_below(&rng, 3);
      gp_seal(which);
      double r = gen_d_mod(&rng);
      double *o1 = gp_alloc(n * 8), *o2 = gp_alloc(n * 8);
      double *o3 = gp_alloc(n * 8), *o4 = gp_alloc(n * 8);
      float *o5 = gp_alloc(n * 4);
      dist_batched(n, a, cu, o1);
      price_batched(n, c, r, o2);
      pick_batched(n, m, which, o3);
      lin_batched(n, m, a, o4);
      cabs2f_batched(n, z, wu, o5);
      for (size_t b = 0; b < n; b++) {
        double one;
        if (!same(o1[b], dist(a[b], cu)) ||
            (dist_batched(1, a + b, cu, &one), !same(one, o1[b]))) {
          print_error("dist n=%zu b=%zu: %.17g want %.17g\n", n, b, o1[b],
                      dist(a[b], cu));
          fail();
        }
        if (!same(o2[b], price(c[b], r))) {
          print_error("price n=%zu b=%zu: %.17g want %.17g\n", n, b, o2[b],
                      price(c[b], r));
          fail();
        }
        /* AoS -> lanes exactly: the member itself (a double member with
         * its NaN payload too). */
        double want = pick(m[b], which[b]);
        if (which[b] == 1 ? memcmp(&o3[b], &m[b].b, 8) != 0
                          : !same(o3[b], want)) {
          print_error("pick n=%zu b=%zu: %.17g want %.17g\n", n, b, o3[b],
                      want);
          fail();
        }
        if (!same(o4[b], lin(m[b], a[b]))) {
          print_error("lin n=%zu b=%zu\n", n, b);
          fail();
        }
        if (!samef(o5[b], cabs2f(z[b], wu))) {
          print_error("cabs2f n=%zu b=%zu: %.9g want %.9g\n", n, b, o5[b],
                      cabs2f(z[b], wu));
          fail();
        }
      }
      gp_reset();
    }
  }
}

/* ---- shadows: exact, members only ---------------------------------------- */

static void t_shadow_exact(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_shadow")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    RECORDS(mixed, m, n, gen_mixed);
    RECORDS(vec3, v, n, gen_vec3);
    mixed *dm = gp_alloc(n * sizeof(mixed));
    vec3 *dv = gp_alloc(n * sizeof(vec3));
    memset(dm, 0xC3, n * sizeof(mixed)); /* sentinels: ints, padding */
    for (size_t b = 0; b < n; b++) {
      dm[b].a = 1.0f;
      dm[b].b = -1.0;
      dv[b] = (vec3){0.25, 0.0, -0.0};
    }
    double *seed = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++)
      seed[b] = (double)(b % 3 + 1);
    lin_grad(n, m, v, NULL, seed, dm, dv);
    for (size_t b = 0; b < n; b++) {
      double s = seed[b];
      mixed want;
      memset(&want, 0xC3, sizeof want);
      want.a = (float)(1.0f + (float)(2.0 * s));
      want.b = -1.0 + 3.0 * s;
      vec3 wv = {0.25 - s, 0.5 * s, -0.0 + 4.0 * s};
      if (memcmp(&dm[b], &want, sizeof want) != 0 ||
          memcmp(&dv[b], &wv, sizeof wv) != 0) {
        print_error("lin_grad n=%zu b=%zu: d_m.a %.9g d_m.b %.17g k %x, d_v "
                    "%.17g %.17g %.17g\n",
                    n, b, dm[b].a, dm[b].b, dm[b].k, dv[b].x, dv[b].y,
                    dv[b].z);
        fail();
      }
    }
    /* NULL shadows: nothing computed, nothing touched. */
    lin_grad(n, m, v, NULL, seed, NULL, NULL);
    gp_reset();
  }
}

/* ---- gradients ----------------------------------------------------------- */

static double *slot(vec3 *v, int j) { return j == 0 ? &v->x : j == 1 ? &v->y : &v->z; }

static double fd_dist(vec3 a, vec3 c, int which, int j) {
  vec3 *p = which ? &c : &a;
  double x = *slot(p, j), h = 1e-6 * (fabs(x) + 1.0);
  *slot(p, j) = x + h;
  double up = dist(a, c);
  *slot(p, j) = x - h;
  double dn = dist(a, c);
  *slot(p, j) = x;
  return (up - dn) / (2.0 * h);
}

static void t_grad(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_grad")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    vec3 *a = gp_alloc(n * sizeof(vec3)), *da = gp_alloc(n * sizeof(vec3));
    vec3 *ta = gp_alloc(n * sizeof(vec3));
    double *ret = gp_alloc(n * 8), *jr = gp_alloc(n * 8), *jd = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++) {
      a[b] = (vec3){rng_range(&rng, -3, 3), rng_range(&rng, -3, 3),
                    rng_range(&rng, -3, 3)};
      da[b] = (vec3){1.0, 2.0, 3.0}; /* incremented */
      ta[b] = (vec3){rng_range(&rng, -1, 1), rng_range(&rng, -1, 1),
                     rng_range(&rng, -1, 1)};
    }
    vec3 c = {rng_range(&rng, -1, 1), rng_range(&rng, -1, 1), 0.75};
    vec3 dc = {0.5, 0.0, -1.0}, tc = {0.25, -0.5, 1.0};
    dist_grad(n, a, c, ret, NULL, da, &dc);
    dist_jvp(n, a, c, ta, &tc, jr, jd);
    double sum[3] = {0, 0, 0};
    for (size_t b = 0; b < n; b++) {
      double want = dist(a[b], c);
      if (memcmp(&ret[b], &want, 8) || memcmp(&jr[b], &want, 8)) {
        print_error("dist ret b=%zu\n", b);
        fail();
      }
      double g[3] = {da[b].x - 1.0, da[b].y - 2.0, da[b].z - 3.0}, dot = 0;
      for (int j = 0; j < 3; j++) {
        double f = fd_dist(a[b], c, 0, j), fc = fd_dist(a[b], c, 1, j);
        if (!close_to(g[j], f, 1e-6)) {
          print_error("dist_grad n=%zu b=%zu a.%c: %.17g fd %.17g\n", n, b,
                      "xyz"[j], g[j], f);
          fail();
        }
        sum[j] += fc;
        dot += g[j] * *slot(&ta[b], j) + fc * *slot(&tc, j);
      }
      if (!close_to(jd[b], dot, 1e-6)) {
        print_error("dist_jvp n=%zu b=%zu: %.17g want %.17g\n", n, b, jd[b],
                    dot);
        fail();
      }
    }
    /* The uniform struct's shadow: += the sum over the batch. */
    double gc[3] = {dc.x - 0.5, dc.y, dc.z + 1.0};
    for (int j = 0; j < 3; j++)
      if (!close_to(gc[j], sum[j], 1e-6 * (double)(n + 1))) {
        print_error("dist_grad n=%zu d_c.%c %.17g want %.17g\n", n, "xyz"[j],
                    gc[j], sum[j]);
        fail();
      }
    gp_reset();
  }
}

static double fd_price(contract c, double r, int j) {
  double *p = j == 0 ? &c.spot : j == 1 ? &c.strike : j == 2 ? &c.term.t
                                                              : &c.term.vol;
  double x = *p, h = 1e-6 * (fabs(x) + 1.0);
  *p = x + h;
  double up = price(c, r);
  *p = x - h;
  double dn = price(c, r);
  return (up - dn) / (2.0 * h);
}

static void t_grad_price(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_grad_price")};
  size_t n = 2 * WD + 3;
  contract c[2 * 8 + 3], dc[2 * 8 + 3];
  double dr = 0.0, r = 0.05, sum = 0.0;
  for (size_t b = 0; b < n; b++) {
    c[b].spot = rng_range(&rng, 50, 150);
    c[b].strike = rng_range(&rng, 50, 150);
    c[b].term.t = rng_range(&rng, 0.1, 2);
    c[b].term.vol = rng_range(&rng, 0.05, 0.6);
    c[b].call = (int)(b % 2);
    memset(&dc[b], 0, sizeof dc[b]);
    dc[b].call = 12345; /* an int member of a shadow: not written */
  }
  price_grad(n, c, r, NULL, NULL, dc, &dr);
  for (size_t b = 0; b < n; b++) {
    double g[4] = {dc[b].spot, dc[b].strike, dc[b].term.t, dc[b].term.vol};
    for (int j = 0; j < 4; j++)
      if (!close_to(g[j], fd_price(c[b], r, j), 1e-6)) {
        print_error("price_grad b=%zu member %d: %.17g fd %.17g\n", b, j, g[j],
                    fd_price(c[b], r, j));
        fail();
      }
    assert_int_equal(dc[b].call, 12345);
    double h = 1e-7;
    sum += (price(c[b], r + h) - price(c[b], r - h)) / (2 * h);
  }
  assert_true(close_to(dr, sum, 1e-5));
}

static void t_packed(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_packed")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni], tot = 0;
    int *len = gp_alloc(n * sizeof(int));
    size_t *off = malloc((n + 1) * sizeof(size_t));
    for (size_t b = 0; b < n; b++) {
      len[b] = rng_below(&rng, 8);
      off[b] = tot;
      tot += (size_t)len[b];
    }
    double *x = gp_alloc(tot * 8), *xs = gp_alloc(n * 8 * 8);
    for (size_t b = 0; b < n; b++)
      for (int i = 0; i < len[b]; i++)
        x[off[b] + (size_t)i] = xs[b * 8 + (size_t)i] = rng_range(&rng, -2, 2);
    vec3 *w = gp_alloc(n * sizeof(vec3)), *dw = gp_alloc(n * sizeof(vec3));
    vec3 *dws = gp_alloc(n * sizeof(vec3));
    for (size_t b = 0; b < n; b++) {
      w[b] = (vec3){rng_range(&rng, -1, 1), rng_range(&rng, -1, 1),
                    rng_range(&rng, -1, 1)};
      dw[b] = dws[b] = (vec3){0.5, 0.25, -1.0};
    }
    double *r1 = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    wsum_batched(n, x, off, len, w, r1);
    wsum_s_batched(n, xs, 8, len, w, r2);
    wsum_grad(n, x, off, len, w, NULL, NULL, NULL, dw);
    wsum_s_grad(n, xs, 8, len, w, NULL, NULL, NULL, 0, dws);
    for (size_t b = 0; b < n; b++) {
      double want = wsum(x + off[b], len[b], w[b]);
      if (memcmp(&r1[b], &want, 8) || memcmp(&r2[b], &want, 8) ||
          memcmp(&dw[b], &dws[b], sizeof(vec3))) {
        print_error("wsum n=%zu b=%zu: %.17g %.17g want %.17g; d_w.x %.17g "
                    "%.17g\n",
                    n, b, r1[b], r2[b], want, dw[b].x, dws[b].x);
        fail();
      }
      vec3 p = w[b], m = w[b];
      p.y += 1e-6;
      m.y -= 1e-6;
      double f = (wsum(x + off[b], len[b], p) - wsum(x + off[b], len[b], m)) /
                 2e-6;
      assert_true(close_to(dw[b].y - 0.25, f, 1e-6));
    }
    free(off);
    gp_reset();
  }
}

static vec3 vaxpy(vec3 a, double h, vec3 v) {
  return (vec3){a.x + h * v.x, a.y + h * v.y, a.z + h * v.z};
}

static void t_hvp(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_hvp")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    vec3 *a = gp_alloc(n * sizeof(vec3)), *ta = gp_alloc(n * sizeof(vec3));
    vec3 *da = gp_alloc(n * sizeof(vec3)), *ha = gp_alloc(n * sizeof(vec3));
    vec3 *dg = gp_alloc(n * sizeof(vec3));
    double *ret = gp_alloc(n * 8), *seed = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++) {
      a[b] = (vec3){rng_range(&rng, -2, 2), rng_range(&rng, -2, 2),
                    rng_range(&rng, -2, 2)};
      ta[b] = (vec3){rng_range(&rng, -1, 1), rng_range(&rng, -1, 1),
                     rng_range(&rng, -1, 1)};
      da[b] = ha[b] = dg[b] = (vec3){0, 0, 0};
      seed[b] = rng_range(&rng, 0.5, 2);
    }
    vec3 c = {0.5, -1.25, 2.0}, tc = {0.25, 0.5, -0.75};
    vec3 dc = {0, 0, 0}, hc = {0, 0, 0}, dcg = {0, 0, 0};
    energy_hvp(n, a, c, ta, &tc, ret, seed, da, &dc, ha, &hc);
    energy_grad(n, a, c, NULL, seed, dg, &dcg);
    /* The gradient part: bit for bit NAME_grad's. */
    assert_memory_equal(da, dg, n * sizeof(vec3));
    assert_memory_equal(&dc, &dcg, sizeof dc);
    double sum[3] = {0, 0, 0}, h = 1e-6;
    for (size_t b = 0; b < n; b++) {
      /* H·v: central differences of the example's gradient along v. */
      vec3 up = {0, 0, 0}, dn = {0, 0, 0}, cu = {0, 0, 0}, cd = {0, 0, 0};
      vec3 ap = vaxpy(a[b], h, ta[b]), am = vaxpy(a[b], -h, ta[b]);
      energy_grad(1, &ap, vaxpy(c, h, tc), NULL, seed + b, &up, &cu);
      energy_grad(1, &am, vaxpy(c, -h, tc), NULL, seed + b, &dn, &cd);
      double fa[3] = {(up.x - dn.x) / (2 * h), (up.y - dn.y) / (2 * h),
                      (up.z - dn.z) / (2 * h)};
      double got[3] = {ha[b].x, ha[b].y, ha[b].z};
      for (int j = 0; j < 3; j++)
        if (!close_to(got[j], fa[j], 1e-6)) {
          print_error("energy_hvp n=%zu b=%zu h_a member %d: %.17g fd %.17g\n",
                      n, b, j, got[j], fa[j]);
          fail();
        }
      sum[0] += (cu.x - cd.x) / (2 * h);
      sum[1] += (cu.y - cd.y) / (2 * h);
      sum[2] += (cu.z - cd.z) / (2 * h);
    }
    /* The uniform struct's H·v: summed over the batch. */
    double gh[3] = {hc.x, hc.y, hc.z};
    for (int j = 0; j < 3; j++)
      if (!close_to(gh[j], sum[j], 1e-6 * (double)(n + 1))) {
        print_error("energy_hvp n=%zu h_c member %d: %.17g want %.17g\n", n,
                    j, gh[j], sum[j]);
        fail();
      }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_batched),
      cmocka_unit_test(t_shadow_exact),
      cmocka_unit_test(t_grad),
      cmocka_unit_test(t_grad_price),
      cmocka_unit_test(t_packed),
      cmocka_unit_test(t_hvp),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
