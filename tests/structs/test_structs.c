/* Structs inside batch/diff functions (issue 11 part 1, docs/subset.md
 * "Structs"): struct locals (nested structs, array members, int members),
 * initialisation, struct assignment, pointers to structs, helpers taking
 * and returning structs by value or through pointers; all scalarized by the
 * lowering, so the ABI is the scalar one.
 *   - NAME_batched against the scalar function for every n of test_ns,
 *     bit for bit (any NaN matches any NaN), output ending at a guard page
 *     and framed by sentinels, inputs read-only (exec_util.h's DIFFk);
 *   - NAME_grad against central finite differences, per example, and the
 *     BD_UNIFORM parameter's gradient against the sum over the batch of the
 *     per-example finite differences;
 *   - NAME_jvp against dual numbers (tests/common/dual.h) written by hand
 *     for the complex polynomial, and against Σ grad·t for the vec3
 *     function. */
#include "../exec/exec_util.h"

#include "../common/dual.h"
#include "../common/test_filter.h"

typedef struct {
  double x, y, z;
} vec3;

static vec3 v3(double x, double y, double z) {
  vec3 r = {x, y, z};
  return r;
}
static vec3 vadd(vec3 a, vec3 b) {
  return (vec3){a.x + b.x, a.y + b.y, a.z + b.z};
}
/* Writes its by-value parameter: the caller's struct must not change. */
static vec3 vscale(vec3 a, double s) {
  a.x *= s;
  a.y *= s;
  a.z *= s;
  return a;
}
static double vdot(const vec3 *a, const vec3 *b) {
  return a->x * b->x + a->y * b->y + a->z * b->z;
}
static void vcross(const vec3 *a, const vec3 *b, vec3 *out) {
  out->x = a->y * b->z - a->z * b->y;
  out->y = a->z * b->x - a->x * b->z;
  out->z = a->x * b->y - a->y * b->x;
}

__attribute__((batch, diff, diff(forward))) double
s_vec(double ax, double ay, double bz, BD_UNIFORM double s) {
  vec3 a = v3(ax, ay, 0.5), b = {ay - 1.0, 2.0, bz};
  vec3 c;
  vcross(&a, &b, &c);
  vec3 d = vscale(a, s);
  vec3 e = vadd(c, d);
  vec3 *pe = &e;
  if (e.x > 0.0) /* per-lane struct assignment */
    e = a;
  else
    pe->y += b.z * s;
  return vdot(&e, &b) + a.x * d.z;
}

typedef struct {
  double re, im;
} cplx;

static cplx cmul(cplx a, cplx b) {
  cplx r;
  r.re = a.re * b.re - a.im * b.im;
  r.im = a.re * b.im + a.im * b.re;
  return r;
}
static cplx cadd(cplx a, cplx b) { return (cplx){a.re + b.re, a.im + b.im}; }

/* Horner in complex arithmetic; a per-example trip count. */
BATCHDIFF double s_cpoly(double re, double im, int n) {
  cplx z = {re, im}, acc = {1.0, 0.0};
  for (int i = 0; i < n + 4; i++)
    acc = cadd(cmul(acc, z), (cplx){0.5, -0.25 * i});
  return acc.re * acc.re + acc.im * acc.im;
}

static dual dcpoly(dual re, dual im, int n) {
  dual ar = dc(1.0), ai = dc(0.0);
  for (int i = 0; i < n + 4; i++) {
    dual r = dsub(dmul(ar, re), dmul(ai, im));
    dual m = dadd(dmul(ar, im), dmul(ai, re));
    ar = dadd(r, dc(0.5));
    ai = dadd(m, dc(-0.25 * i));
  }
  return dadd(dmul(ar, ar), dmul(ai, ai));
}

/* Nested struct, array and int members, float lanes. */
typedef struct {
  float lo, hi;
} range;
typedef struct {
  float w[3];
  int k;
  range r;
} rec;

static float clampr(float v, range r) {
  return v < r.lo ? r.lo : v > r.hi ? r.hi : v;
}
static rec bump(rec q, int i) {
  q.w[i] += 1.5f;
  q.k += i;
  return q;
}

BATCHDIFF float s_rec(float x, float y, int k) {
  rec q = {{x, y, x * y}, k, {-1.0f, 2.0f}};
  rec p = bump(q, k & 1); /* a dynamic index into an array member */
  p.r.hi = y > 0.0f ? y : 2.0f;
  float s = 0.0f;
  for (int i = 0; i < 3; i++)
    s += p.w[i] * q.w[i];
  const float *pw = p.w;
  s += pw[2] - *q.w;
  return clampr(s, p.r) + (float)p.k;
}

/* A record of an option contract, built by a helper, read by another. */
typedef struct {
  double spot, strike;
  struct {
    double t, vol;
  } term;
  int call;
} contract;

static contract make_contract(double s, double k, double vol, int call) {
  contract c = {s, k, {1.5, vol}, call};
  return c;
}
static double intrinsic(const contract *c) {
  double d = c->call ? c->spot - c->strike : c->strike - c->spot;
  return d > 0.0 ? d : 0.0;
}

BATCHDIFF double s_opt(double s, double k, double vol, BD_UNIFORM int call) {
  contract c = make_contract(s, k, vol, call);
  contract *pc = &c;
  double tv = pc->term.vol * sqrt(c.term.t) * 0.4 * c.spot;
  return intrinsic(&c) + tv * tv / (tv + 1.0);
}

/* ---- batched vs scalar ------------------------------------------------- */

static double gen_mod(rng_t *r) { return gen_d_mod(r); }

DIFF4(s_vec, double, CMP_BITS, 0, V, double, gen_d, V, double, gen_d, V,
      double, gen_d, U, double, gen_d)
DIFF3(s_cpoly, double, CMP_BITS, 0, V, double, gen_d, V, double, gen_d, V,
      int, gen_i32s)
DIFF3(s_rec, float, CMP_BITS, 0, V, float, gen_f, V, float, gen_f, V, int,
      gen_i32s)
DIFF4(s_opt, double, CMP_BITS, 0, V, double, gen_mod, V, double, gen_mod, V,
      double, gen_mod, U, int, gen_i32s)

/* ---- gradients ----------------------------------------------------------- */

static double fd(double (*f)(const double *), double *a, int j) {
  double x = a[j], h = 1e-6 * (fabs(x) + 1.0);
  a[j] = x + h;
  double p = f(a);
  a[j] = x - h;
  double m = f(a);
  a[j] = x;
  return (p - m) / (2.0 * h);
}
static double svec_a(const double *a) { return s_vec(a[0], a[1], a[2], a[3]); }

static void t_grad_vec(void **state) {
  (void)state;
  rng_t rng = {name_seed("grad_vec")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *ax = gp_alloc(n * 8), *ay = gp_alloc(n * 8), *bz = gp_alloc(n * 8);
    double *dax = gp_alloc(n * 8), *day = gp_alloc(n * 8);
    double *dbz = gp_alloc(n * 8), *ret = gp_alloc(n * 8);
    double *tx = gp_alloc(n * 8), *ty = gp_alloc(n * 8), *tz = gp_alloc(n * 8);
    double *jr = gp_alloc(n * 8), *jd = gp_alloc(n * 8);
    double s = rng_range(&rng, -2.0, 2.0), ds = 0.25, ts = 0.5;
    for (size_t b = 0; b < n; b++) {
      ax[b] = rng_range(&rng, -3, 3);
      ay[b] = rng_range(&rng, -3, 3);
      bz[b] = rng_range(&rng, -3, 3);
      dax[b] = 1.0; /* shadows are incremented */
      day[b] = dbz[b] = 0.0;
      tx[b] = rng_range(&rng, -1, 1);
      ty[b] = rng_range(&rng, -1, 1);
      tz[b] = rng_range(&rng, -1, 1);
    }
    s_vec_grad(n, ax, ay, bz, s, ret, NULL, dax, day, dbz, &ds);
    s_vec_jvp(n, ax, ay, bz, s, tx, ty, tz, &ts, jr, jd);
    double sum = 0.0;
    for (size_t b = 0; b < n; b++) {
      double a[4] = {ax[b], ay[b], bz[b], s};
      double g[4] = {dax[b] - 1.0, day[b], dbz[b], 0.0};
      double want_ret = s_vec(ax[b], ay[b], bz[b], s);
      if (memcmp(&ret[b], &want_ret, 8) != 0 || memcmp(&jr[b], &want_ret, 8)) {
        print_error("ret b=%zu: %.17g %.17g want %.17g\n", b, ret[b], jr[b],
                    want_ret);
        fail();
      }
      for (int j = 0; j < 3; j++)
        if (!close_to(g[j], fd(svec_a, a, j), 1e-6)) {
          print_error("s_vec_grad n=%zu b=%zu arg %d: %.17g fd %.17g\n", n, b,
                      j, g[j], fd(svec_a, a, j));
          fail();
        }
      double gs = fd(svec_a, a, 3);
      sum += gs;
      /* The jvp is the dual-number derivative along t: Σ grad·t. */
      double dot = g[0] * tx[b] + g[1] * ty[b] + g[2] * tz[b] + gs * ts;
      if (!close_to(jd[b], dot, 1e-6)) {
        print_error("s_vec_jvp n=%zu b=%zu: %.17g want %.17g\n", n, b, jd[b],
                    dot);
        fail();
      }
    }
    /* The uniform parameter's shadow: += the sum over the batch. */
    if (!close_to(ds - 0.25, sum, 1e-6 * (double)(n + 1))) {
      print_error("s_vec_grad n=%zu d_s %.17g want %.17g\n", n, ds - 0.25,
                  sum);
      fail();
    }
    gp_reset();
  }
}

static void t_grad_cpoly(void **state) {
  (void)state;
  rng_t rng = {name_seed("grad_cpoly")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *re = gp_alloc(n * 8), *im = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    double *dre = gp_alloc(n * 8), *dim = gp_alloc(n * 8);
    double *seed = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++) {
      re[b] = rng_range(&rng, -1.2, 1.2);
      im[b] = rng_range(&rng, -1.2, 1.2);
      k[b] = rng_below(&rng, 6);
      dre[b] = dim[b] = 0.0;
      seed[b] = rng_range(&rng, 0.5, 2.0);
    }
    s_cpoly_grad(n, re, im, k, NULL, seed, dre, dim);
    for (size_t b = 0; b < n; b++) {
      dual wr = dcpoly(dv(re[b]), dc(im[b]), k[b]);
      dual wi = dcpoly(dc(re[b]), dv(im[b]), k[b]);
      if (!close_to(dre[b], seed[b] * wr.d, 1e-10) ||
          !close_to(dim[b], seed[b] * wi.d, 1e-10)) {
        print_error("s_cpoly_grad b=%zu: %.17g %.17g want %.17g %.17g\n", b,
                    dre[b], dim[b], seed[b] * wr.d, seed[b] * wi.d);
        fail();
      }
    }
    gp_reset();
  }
}

static double sopt_a(const double *a) { return s_opt(a[0], a[1], a[2], 1); }

static void t_grad_opt(void **state) {
  (void)state;
  rng_t rng = {name_seed("grad_opt")};
  size_t n = 37;
  double s[37], k[37], v[37], ds[37] = {0}, dk[37] = {0}, dvol[37] = {0};
  for (size_t b = 0; b < n; b++) {
    s[b] = rng_range(&rng, 50, 150);
    k[b] = rng_range(&rng, 50, 150);
    v[b] = rng_range(&rng, 0.05, 0.6);
  }
  s_opt_grad(n, s, k, v, 1, NULL, NULL, ds, dk, dvol);
  for (size_t b = 0; b < n; b++) {
    double a[3] = {s[b], k[b], v[b]}, g[3] = {ds[b], dk[b], dvol[b]};
    for (int j = 0; j < 3; j++)
      if (!close_to(g[j], fd(sopt_a, a, j), 1e-6)) {
        print_error("s_opt_grad b=%zu arg %d: %.17g fd %.17g\n", b, j, g[j],
                    fd(sopt_a, a, j));
        fail();
      }
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(diff_s_vec),   cmocka_unit_test(diff_s_cpoly),
      cmocka_unit_test(diff_s_rec),   cmocka_unit_test(diff_s_opt),
      cmocka_unit_test(t_grad_vec),   cmocka_unit_test(t_grad_cpoly),
      cmocka_unit_test(t_grad_opt),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
