/* Arrays of records and record out-parameters (issue 11 part 1,
 * docs/abi.md "Structs"): `const vec3 *p` is `const vec3 *p, ptrdiff_t
 * p_stride` (in records), BD_UNIFORM `const vec3 *p`; `vec3 *out` is
 * `vec3 *out, ptrdiff_t out_stride`; shadows are records laid out alike.
 *   - NAME_batched bit for bit against the scalar function for every n of
 *     test_ns, the batch's records ending right before a guard page, and
 *     each example alone with its own records copied right before a guard
 *     page (nothing past its extent is read or written); records past a
 *     ragged example's extent and integer members and padding of written
 *     records keep their sentinels;
 *   - NAME_grad against central finite differences per member, a uniform
 *     array of records' shadow against the summed differences, output
 *     records' shadows: cotangent on entry, gradient w.r.t. the initial
 *     value on exit (0 for pure outputs); NAME_jvp against Σ grad·t;
 *     NAME_hvp's H·v records against central differences of NAME_grad. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"

typedef struct {
  double x, y, z;
} vec3;

/* Ragged: n[b] records per example, read in a loop. */
__attribute__((batch, diff, diff(forward))) double spread(const vec3 *p, int n,
                                                          BD_UNIFORM vec3 c) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    double dx = p[i].x - c.x, dy = p[i].y - c.y;
    s += dx * dx + dy * dy * p[i].z;
  }
  return s;
}

/* Static extent: p->m, (*p).m, a record copied, helpers given pointers
 * into the records, a record by value and a member's address. */
static double dot3(const vec3 *a, const vec3 *b) {
  return a->x * b->x + a->y * b->y + a->z * b->z;
}
static vec3 sub3(vec3 a, vec3 b) {
  return (vec3){a.x - b.x, a.y - b.y, a.z - b.z};
}
static double first(const double *v) { return v[0]; }
BATCHDIFF double tri(const vec3 p[3]) {
  vec3 e = sub3(p[2], *p);
  double f = (*p).y * p->z;
  return dot3(&e, p + 1) + f * dot3(&p[1], &p[2]) - first(&p[2].y);
}

/* A uniform array of records with a dynamic extent; scalars per example. */
BATCHDIFF double poly(BD_UNIFORM const vec3 *w, int k, double t) {
  double s = 0.0;
  for (int i = 0; i < k; i++)
    s = s * t + w[i].x * w[i].y * t / (1.0 + w[i].z * w[i].z);
  return s;
}

/* Mixed members: float, double, int (per-member strides differ). */
typedef struct {
  float w;
  double v;
  int k;
} item;
BATCHDIFF double score(const item *it, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += it[i].k > 0 ? it[i].v * it[i].w : (double)it[i].w - it[i].v;
  return s;
}

/* Out-parameters: member by member, a whole record, through a helper. */
static void put(vec3 *o, double x, double y, double z) {
  o->x = x;
  o->y = y;
  o->z = z;
}
BATCHDIFF void cross(const vec3 *a, const vec3 *b, vec3 *out) {
  out->x = a->y * b->z - a->z * b->y;
  out->y = a->z * b->x - a->x * b->z;
  out[0].z = a->x * b->y - a->y * b->x;
}
BATCHDIFF void polar(double r, double th, vec3 *out) {
  *out = (vec3){r * th, r / (1.0 + th * th), r};
}
BATCHDIFF double polar2(double r, double th, vec3 *out) {
  put(out, r * th, r / (1.0 + th * th), 0.0);
  return r * th;
}

/* An in-out record array written in a loop (ragged), with int members. */
typedef struct {
  double pos, vel;
  int hits;
} body;
BATCHDIFF void step(body *s, int n, BD_UNIFORM double dt) {
  for (int i = 0; i < n; i++) {
    s[i].vel -= dt * s[i].pos;
    s[i].pos += dt * s[i].vel;
    if (s[i].pos < 0.0)
      s[i].hits += 1;
  }
}

/* An array member inside the records. */
typedef struct {
  double v[3];
  float f;
} arec;
BATCHDIFF double asum(const arec *a) {
  return a[0].v[0] * a[1].v[2] + a->v[1] * (double)a[1].f;
}

/* NAME_hvp: tangents and H·v shadows of arrays of records are records. */
__attribute__((batch, diff, diff(hvp))) double
energy(const vec3 *p, int n, BD_UNIFORM const vec3 *c) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += p[i].x * p[i].x * p[i].y * c->x + p[i].z * c->y * c->y;
  return s;
}

/* ---- helpers ---- */

static int same(double got, double want) {
  return same_bits_or_nan(&got, &want, sizeof got, 1);
}
static vec3 rvec(rng_t *r, double lo, double hi) {
  return (vec3){rng_range(r, lo, hi), rng_range(r, lo, hi),
                rng_range(r, lo, hi)};
}
static double *slot(vec3 *v, int j) {
  return j == 0 ? &v->x : j == 1 ? &v->y : &v->z;
}
/* Up to MAXR records per example, strided by MAXR. */
#define MAXR 7

/* ---- batched vs scalar ---- */

static void t_batched(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_arrays_batched")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    vec3 *p = gp_alloc(n * MAXR * sizeof(vec3));
    item *it = gp_alloc(n * MAXR * sizeof(item));
    arec *ar = gp_alloc(n * 2 * sizeof(arec));
    int *len = gp_alloc(n * sizeof(int));
    double *t = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++) {
      len[b] = rng_below(&rng, MAXR + 1);
      t[b] = gen_d_mod(&rng);
      for (int i = 0; i < MAXR; i++) {
        p[b * MAXR + i] = (vec3){gen_d(&rng), gen_d(&rng), gen_d(&rng)};
        memset(&it[b * MAXR + i], 0x5A, sizeof(item));
        it[b * MAXR + i].w = gen_f(&rng);
        it[b * MAXR + i].v = gen_d(&rng);
        it[b * MAXR + i].k = rng_below(&rng, 3) - 1;
      }
      for (int i = 0; i < 2; i++) {
        memset(&ar[b * 2 + i], 0x3C, sizeof(arec));
        for (int j = 0; j < 3; j++)
          ar[b * 2 + i].v[j] = gen_d(&rng);
        ar[b * 2 + i].f = gen_f(&rng);
      }
    }
    vec3 w[MAXR];
    for (int i = 0; i < MAXR; i++)
      w[i] = rvec(&rng, -1, 1);
    vec3 c = {gen_d(&rng), gen_d(&rng), gen_d(&rng)};
    gp_seal(p);
    gp_seal(it);
    gp_seal(ar);
    double *o1 = gp_alloc(n * 8), *o2 = gp_alloc(n * 8), *o3 = gp_alloc(n * 8);
    double *o4 = gp_alloc(n * 8), *o5 = gp_alloc(n * 8);
    spread_batched(n, p, MAXR, len, c, o1);
    tri_batched(n, p, MAXR, o2);
    poly_batched(n, w, len, t, o3);
    score_batched(n, it, MAXR, len, o4);
    asum_batched(n, ar, 2, o5);
    for (size_t b = 0; b < n; b++) {
      const vec3 *pb = p + b * MAXR;
      const item *ib = it + b * MAXR;
      double want[5] = {spread(pb, len[b], c), tri(pb), poly(w, len[b], t[b]),
                        score(ib, len[b]), asum(ar + 2 * b)};
      double got[5] = {o1[b], o2[b], o3[b], o4[b], o5[b]};
      for (int f = 0; f < 5; f++)
        if (!same(got[f], want[f])) {
          print_error("function %d n=%zu b=%zu: %.17g want %.17g\n", f, n, b,
                      got[f], want[f]);
          fail();
        }
      /* Alone, its own records right before a guard page: nothing past
       * its extent is read. */
      vec3 *q = gp_alloc((size_t)len[b] * sizeof(vec3));
      item *iq = gp_alloc((size_t)len[b] * sizeof(item));
      memcpy(q, pb, (size_t)len[b] * sizeof(vec3));
      memcpy(iq, ib, (size_t)len[b] * sizeof(item));
      gp_seal(q);
      gp_seal(iq);
      double one, two;
      spread_batched(1, q, 0, len + b, c, &one);
      score_batched(1, iq, 0, len + b, &two);
      if (!same(one, o1[b]) || !same(two, o4[b])) {
        print_error("alone n=%zu b=%zu: %.17g %.17g\n", n, b, one, two);
        fail();
      }
    }
    gp_reset();
  }
}

/* Written records: outputs exact, sentinels (ints, padding, records past a
 * ragged extent) kept, each example alone before a guard page. */
static void t_outputs(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_arrays_out")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    vec3 *a = gp_alloc(n * sizeof(vec3)), *b2 = gp_alloc(n * sizeof(vec3));
    double *r = gp_alloc(n * 8), *th = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++) {
      a[b] = (vec3){gen_d(&rng), gen_d(&rng), gen_d(&rng)};
      b2[b] = (vec3){gen_d(&rng), gen_d(&rng), gen_d(&rng)};
      r[b] = gen_d_mod(&rng);
      th[b] = gen_d_mod(&rng);
    }
    gp_seal(a);
    gp_seal(b2);
    /* Strided by 2: the odd records are not the function's. */
    vec3 *o1 = gp_alloc(2 * n * sizeof(vec3));
    vec3 *o2 = gp_alloc(n * sizeof(vec3)), *o3 = gp_alloc(n * sizeof(vec3));
    memset(o1, 0xA5, 2 * n * sizeof(vec3));
    double *ret = gp_alloc(n * 8);
    cross_batched(n, a, 1, b2, 1, o1, 2);
    polar_batched(n, r, th, o2, 1);
    polar2_batched(n, r, th, o3, 1, ret);
    vec3 sentinel;
    memset(&sentinel, 0xA5, sizeof sentinel);
    for (size_t b = 0; b < n; b++) {
      vec3 w1, w2, w3;
      cross(a + b, b2 + b, &w1);
      polar(r[b], th[b], &w2);
      double wr = polar2(r[b], th[b], &w3);
      if (memcmp(&o1[2 * b], &w1, sizeof w1) ||
          memcmp(&o1[2 * b + 1], &sentinel, sizeof sentinel) ||
          memcmp(&o2[b], &w2, sizeof w2) || memcmp(&o3[b], &w3, sizeof w3) ||
          !same(ret[b], wr)) {
        print_error("outputs n=%zu b=%zu: cross.x %.17g want %.17g\n", n, b,
                    o1[2 * b].x, w1.x);
        fail();
      }
      vec3 *g = gp_alloc(sizeof(vec3));
      cross_batched(1, a + b, 0, b2 + b, 0, g, 0);
      if (memcmp(g, &w1, sizeof w1)) {
        print_error("cross alone b=%zu\n", b);
        fail();
      }
    }
    /* In-out records, ragged, int members updated, records past each
     * example's extent and padding untouched. */
    body *s = gp_alloc(n * MAXR * sizeof(body)),
         *s0 = malloc(n * MAXR * sizeof(body) + 1);
    int *len = gp_alloc(n * sizeof(int));
    memset(s, 0x77, n * MAXR * sizeof(body));
    for (size_t b = 0; b < n; b++) {
      len[b] = rng_below(&rng, MAXR + 1);
      for (int i = 0; i < MAXR; i++) {
        s[b * MAXR + i].pos = rng_range(&rng, -1, 1);
        s[b * MAXR + i].vel = rng_range(&rng, -1, 1);
        s[b * MAXR + i].hits = (int)b + i;
      }
    }
    memcpy(s0, s, n * MAXR * sizeof(body));
    step_batched(n, s, MAXR, len, 0.125);
    for (size_t b = 0; b < n; b++) {
      body want[MAXR];
      memcpy(want, s0 + b * MAXR, sizeof want);
      step(want, len[b], 0.125);
      if (memcmp(want, s + b * MAXR, sizeof want)) {
        print_error("step n=%zu b=%zu len %d\n", n, b, len[b]);
        fail();
      }
      body *q = gp_alloc((size_t)len[b] * sizeof(body));
      memcpy(q, s0 + b * MAXR, (size_t)len[b] * sizeof(body));
      step_batched(1, q, 0, len + b, 0.125);
      if (memcmp(want, q, (size_t)len[b] * sizeof(body))) {
        print_error("step alone b=%zu\n", b);
        fail();
      }
    }
    free(s0);
    gp_reset();
  }
}

/* ---- gradients ---- */

/* x points into p's records or at a member of *c. */
static double fd_spread(vec3 *p, int n, vec3 *c, double *x) {
  double v = *x, h = 1e-6 * (fabs(v) + 1.0);
  *x = v + h;
  double up = spread(p, n, *c);
  *x = v - h;
  double dn = spread(p, n, *c);
  *x = v;
  return (up - dn) / (2.0 * h);
}

static void t_grad(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_arrays_grad")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    vec3 *p = gp_alloc(n * MAXR * sizeof(vec3));
    vec3 *dp = gp_alloc(n * MAXR * sizeof(vec3));
    vec3 *tp = gp_alloc(n * MAXR * sizeof(vec3));
    int *len = gp_alloc(n * sizeof(int));
    double *jr = gp_alloc(n * 8), *jd = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++) {
      len[b] = rng_below(&rng, MAXR + 1);
      for (int i = 0; i < MAXR; i++) {
        p[b * MAXR + i] = rvec(&rng, -2, 2);
        dp[b * MAXR + i] = (vec3){1.0, 2.0, 3.0}; /* incremented */
        tp[b * MAXR + i] = rvec(&rng, -1, 1);
      }
    }
    vec3 c = rvec(&rng, -1, 1), dc = {0.5, 0.0, -1.0}, tc = rvec(&rng, -1, 1);
    spread_grad(n, p, MAXR, len, c, NULL, NULL, dp, MAXR, &dc);
    spread_jvp(n, p, MAXR, len, c, tp, MAXR, &tc, jr, jd);
    double sum[3] = {0, 0, 0};
    for (size_t b = 0; b < n; b++) {
      vec3 *pb = p + b * MAXR;
      double dot = 0.0;
      for (int i = 0; i < MAXR; i++)
        for (int j = 0; j < 3; j++) {
          double g = *slot(&dp[b * MAXR + i], j) - (double)(j + 1);
          double f = i < len[b] ? fd_spread(pb, len[b], &c, slot(&pb[i], j))
                                : 0.0; /* past the extent: untouched */
          if (i < len[b] ? !close_to(g, f, 1e-6) : g != 0.0) {
            print_error("spread_grad n=%zu b=%zu p[%d].%c: %.17g fd %.17g\n", n,
                        b, i, "xyz"[j], g, f);
            fail();
          }
          dot += g * *slot(&tp[b * MAXR + i], j);
        }
      for (int j = 0; j < 3; j++) {
        double fc = fd_spread(pb, len[b], &c, slot(&c, j));
        sum[j] += fc;
        dot += fc * *slot(&tc, j);
      }
      if (!same(jr[b], spread(pb, len[b], c)) || !close_to(jd[b], dot, 1e-6)) {
        print_error("spread_jvp n=%zu b=%zu: %.17g want %.17g\n", n, b, jd[b],
                    dot);
        fail();
      }
    }
    double gc[3] = {dc.x - 0.5, dc.y, dc.z + 1.0};
    for (int j = 0; j < 3; j++)
      if (!close_to(gc[j], sum[j], 1e-6 * (double)(n + 1))) {
        print_error("spread_grad n=%zu d_c.%c %.17g want %.17g\n", n, "xyz"[j],
                    gc[j], sum[j]);
        fail();
      }
    /* NULL shadows: nothing computed or touched. */
    spread_grad(n, p, MAXR, len, c, NULL, NULL, NULL, 0, NULL);
    gp_reset();
  }
}

/* A uniform array of records: its shadow += the sum over the batch. */
static void t_grad_uniform(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_arrays_uniform")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    vec3 w[MAXR], dw[MAXR];
    for (int i = 0; i < MAXR; i++) {
      w[i] = rvec(&rng, -1, 1);
      dw[i] = (vec3){0.25, 0.5, 0.75};
    }
    int *k = gp_alloc(n * sizeof(int));
    double *t = gp_alloc(n * 8), *dt = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++) {
      k[b] = rng_below(&rng, MAXR + 1);
      t[b] = rng_range(&rng, -1.5, 1.5);
      dt[b] = 0.0;
    }
    poly_grad(n, w, k, t, NULL, NULL, dw, dt);
    double sum[MAXR][3] = {{0}};
    for (size_t b = 0; b < n; b++) {
      double h = 1e-6;
      double f = (poly(w, k[b], t[b] + h) - poly(w, k[b], t[b] - h)) / (2 * h);
      if (!close_to(dt[b], f, 1e-6)) {
        print_error("poly_grad n=%zu b=%zu dt %.17g fd %.17g\n", n, b, dt[b],
                    f);
        fail();
      }
      for (int i = 0; i < MAXR; i++)
        for (int j = 0; j < 3; j++) {
          double *x = slot(&w[i], j), v = *x;
          *x = v + h;
          double up = poly(w, k[b], t[b]);
          *x = v - h;
          double dn = poly(w, k[b], t[b]);
          *x = v;
          sum[i][j] += (up - dn) / (2 * h);
        }
    }
    for (int i = 0; i < MAXR; i++)
      for (int j = 0; j < 3; j++) {
        double g = *slot(&dw[i], j) - 0.25 * (double)(j + 1);
        if (!close_to(g, sum[i][j], 1e-6 * (double)(n + 1))) {
          print_error("poly_grad n=%zu d_w[%d].%c %.17g want %.17g\n", n, i,
                      "xyz"[j], g, sum[i][j]);
          fail();
        }
      }
    gp_reset();
  }
}

/* Output records' shadows: the cotangent on entry, 0 on exit (pure
 * outputs); the inputs' gradients are those of Σ d_out·out. */
static void t_grad_out(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_arrays_grad_out")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    vec3 *a = gp_alloc(n * sizeof(vec3)), *b2 = gp_alloc(n * sizeof(vec3));
    vec3 *da = gp_alloc(n * sizeof(vec3)), *db = gp_alloc(n * sizeof(vec3));
    vec3 *o = gp_alloc(n * sizeof(vec3)), *dout = gp_alloc(n * sizeof(vec3));
    vec3 *seed = gp_alloc(n * sizeof(vec3));
    vec3 *po = gp_alloc(n * sizeof(vec3)), *dpo = gp_alloc(n * sizeof(vec3));
    double *r = gp_alloc(n * 8), *th = gp_alloc(n * 8);
    double *dr = gp_alloc(n * 8), *dth = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++) {
      a[b] = rvec(&rng, -2, 2);
      b2[b] = rvec(&rng, -2, 2);
      da[b] = db[b] = (vec3){0, 0, 0};
      seed[b] = dout[b] = dpo[b] = rvec(&rng, -1, 1);
      r[b] = rng_range(&rng, 0.5, 2);
      th[b] = rng_range(&rng, -3, 3);
      dr[b] = dth[b] = 0.0;
    }
    cross_grad(n, a, 1, b2, 1, o, 1, da, 1, db, 1, dout, 1);
    polar_grad(n, r, th, po, 1, dr, dth, dpo, 1);
    vec3 zero = {0, 0, 0};
    for (size_t b = 0; b < n; b++) {
      vec3 w;
      cross(a + b, b2 + b, &w);
      if (memcmp(&o[b], &w, sizeof w) || memcmp(&dout[b], &zero, sizeof w) ||
          memcmp(&dpo[b], &zero, sizeof w)) {
        print_error("cross_grad/polar_grad n=%zu b=%zu: out or d_out\n", n, b);
        fail();
      }
      /* d_a = Σ_m seed.m ∂out.m/∂a: central differences of that dot. */
      for (int j = 0; j < 3; j++) {
        double h = 1e-6, g[2] = {*slot(&da[b], j), *slot(&db[b], j)};
        for (int q = 0; q < 2; q++) {
          vec3 ap = a[b], bp = b2[b], am = a[b], bm = b2[b], u, d;
          *slot(q ? &bp : &ap, j) += h;
          *slot(q ? &bm : &am, j) -= h;
          cross(&ap, &bp, &u);
          cross(&am, &bm, &d);
          double f = 0.0;
          for (int m = 0; m < 3; m++)
            f += *slot(&seed[b], m) * (*slot(&u, m) - *slot(&d, m)) / (2 * h);
          if (!close_to(g[q], f, 1e-6)) {
            print_error("cross_grad n=%zu b=%zu d_%c.%c %.17g fd %.17g\n", n, b,
                        "ab"[q], "xyz"[j], g[q], f);
            fail();
          }
        }
      }
      double h = 1e-6, fr = 0.0, ft = 0.0;
      vec3 u, d;
      polar(r[b] + h, th[b], &u);
      polar(r[b] - h, th[b], &d);
      for (int m = 0; m < 3; m++)
        fr += *slot(&seed[b], m) * (*slot(&u, m) - *slot(&d, m)) / (2 * h);
      polar(r[b], th[b] + h, &u);
      polar(r[b], th[b] - h, &d);
      for (int m = 0; m < 3; m++)
        ft += *slot(&seed[b], m) * (*slot(&u, m) - *slot(&d, m)) / (2 * h);
      if (!close_to(dr[b], fr, 1e-6) || !close_to(dth[b], ft, 1e-6)) {
        print_error("polar_grad n=%zu b=%zu dr %.17g fd %.17g dth %.17g fd "
                    "%.17g\n",
                    n, b, dr[b], fr, dth[b], ft);
        fail();
      }
    }
    gp_reset();
  }
}

/* In-out records: the shadow holds the cotangent of the final value on
 * entry and the gradient w.r.t. the initial value on exit; int members of
 * the shadow records are not touched. */
static void t_grad_inout(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_arrays_grad_inout")};
  size_t n = 2 * WD + 3;
  body s[(2 * 8 + 3) * MAXR], s0[(2 * 8 + 3) * MAXR], ds[(2 * 8 + 3) * MAXR],
      seed[(2 * 8 + 3) * MAXR];
  int len[2 * 8 + 3];
  double ddt = 0.0, dt = 0.25, sum = 0.0;
  for (size_t b = 0; b < n; b++) {
    len[b] = rng_below(&rng, MAXR + 1);
    for (int i = 0; i < MAXR; i++) {
      body *x = &s[b * MAXR + i];
      memset(x, 0, sizeof *x);
      x->pos = rng_range(&rng, 0.5, 1);
      x->vel = rng_range(&rng, -1, 1);
      memset(&ds[b * MAXR + i], 0, sizeof(body));
      ds[b * MAXR + i].pos = rng_range(&rng, -1, 1);
      ds[b * MAXR + i].vel = rng_range(&rng, -1, 1);
      ds[b * MAXR + i].hits = 4321;
    }
  }
  memcpy(s0, s, sizeof s);
  memcpy(seed, ds, sizeof ds);
  step_grad(n, s, MAXR, len, dt, ds, MAXR, &ddt);
  for (size_t b = 0; b < n; b++) {
    body want[MAXR];
    memcpy(want, s0 + b * MAXR, sizeof want);
    step(want, len[b], dt);
    assert_memory_equal(want, s + b * MAXR, sizeof want);
    /* L = Σ seed·final; d_s on exit = ∂L/∂initial. */
    for (int i = 0; i < MAXR; i++)
      for (int m = 0; m < 2; m++) {
        double h = 1e-6, L[2];
        for (int q = 0; q < 2; q++) {
          body x[MAXR];
          memcpy(x, s0 + b * MAXR, sizeof x);
          (m ? &x[i].vel : &x[i].pos)[0] += q ? -h : h;
          step(x, len[b], dt);
          L[q] = 0.0;
          for (int k = 0; k < MAXR; k++)
            L[q] += seed[b * MAXR + k].pos * x[k].pos +
                    seed[b * MAXR + k].vel * x[k].vel;
        }
        double f = (L[0] - L[1]) / (2 * h);
        double g = m ? ds[b * MAXR + i].vel : ds[b * MAXR + i].pos;
        if (!close_to(g, f, 1e-6)) {
          print_error("step_grad b=%zu s[%d].%s %.17g fd %.17g\n", b, i,
                      m ? "vel" : "pos", g, f);
          fail();
        }
        assert_int_equal(ds[b * MAXR + i].hits, 4321);
      }
    double h = 1e-7, L[2];
    for (int q = 0; q < 2; q++) {
      body x[MAXR];
      memcpy(x, s0 + b * MAXR, sizeof x);
      step(x, len[b], q ? dt - h : dt + h);
      L[q] = 0.0;
      for (int k = 0; k < MAXR; k++)
        L[q] += seed[b * MAXR + k].pos * x[k].pos +
                seed[b * MAXR + k].vel * x[k].vel;
    }
    sum += (L[0] - L[1]) / (2 * h);
  }
  if (!close_to(ddt, sum, 1e-5)) {
    print_error("step_grad d_dt %.17g want %.17g\n", ddt, sum);
    fail();
  }
}

/* H·v against central differences of NAME_grad along v; the uniform
 * array of records' H·v summed over the batch. */
static void t_hvp(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_arrays_hvp")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni], m = n * MAXR;
    vec3 *p = gp_alloc(m * sizeof(vec3)), *t = gp_alloc(m * sizeof(vec3));
    vec3 *d = gp_alloc(m * sizeof(vec3)), *hv = gp_alloc(m * sizeof(vec3));
    vec3 *pp = gp_alloc(m * sizeof(vec3)), *pm = gp_alloc(m * sizeof(vec3));
    vec3 *gp = gp_alloc(m * sizeof(vec3)), *gm = gp_alloc(m * sizeof(vec3));
    int *len = gp_alloc(n * sizeof(int));
    double *ret = gp_alloc(n * 8), e = 1e-6;
    for (size_t b = 0; b < n; b++)
      len[b] = rng_below(&rng, MAXR + 1);
    for (size_t k = 0; k < m; k++) {
      p[k] = rvec(&rng, -2, 2);
      t[k] = rvec(&rng, -1, 1);
      d[k] = hv[k] = gp[k] = gm[k] = (vec3){0, 0, 0};
      for (int j = 0; j < 3; j++) {
        *slot(&pp[k], j) = *slot(&p[k], j) + e * *slot(&t[k], j);
        *slot(&pm[k], j) = *slot(&p[k], j) - e * *slot(&t[k], j);
      }
    }
    vec3 c = rvec(&rng, -1, 1), tc = rvec(&rng, -1, 1);
    vec3 dc = {0, 0, 0}, hc = {0, 0, 0}, gcp = {0, 0, 0}, gcm = {0, 0, 0};
    vec3 cp = c, cm = c;
    for (int j = 0; j < 3; j++) {
      *slot(&cp, j) += e * *slot(&tc, j);
      *slot(&cm, j) -= e * *slot(&tc, j);
    }
    energy_hvp(n, p, MAXR, len, &c, t, MAXR, &tc, ret, NULL, d, MAXR, &dc, hv,
               MAXR, &hc);
    energy_grad(n, pp, MAXR, len, &cp, NULL, NULL, gp, MAXR, &gcp);
    energy_grad(n, pm, MAXR, len, &cm, NULL, NULL, gm, MAXR, &gcm);
    for (size_t k = 0; k < m; k++)
      for (int j = 0; j < 3; j++) {
        double f = (*slot(&gp[k], j) - *slot(&gm[k], j)) / (2 * e);
        if (!close_to(*slot(&hv[k], j), f, 1e-6)) {
          print_error("energy_hvp n=%zu record %zu .%c: %.17g fd %.17g\n", n, k,
                      "xyz"[j], *slot(&hv[k], j), f);
          fail();
        }
      }
    for (int j = 0; j < 3; j++) {
      double f = (*slot(&gcp, j) - *slot(&gcm, j)) / (2 * e);
      if (!close_to(*slot(&hc, j), f, 1e-6 * (double)(n + 1))) {
        print_error("energy_hvp n=%zu h_c.%c: %.17g fd %.17g\n", n, "xyz"[j],
                    *slot(&hc, j), f);
        fail();
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_batched),  cmocka_unit_test(t_outputs),
      cmocka_unit_test(t_grad),     cmocka_unit_test(t_grad_uniform),
      cmocka_unit_test(t_grad_out), cmocka_unit_test(t_grad_inout),
      cmocka_unit_test(t_hvp),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
