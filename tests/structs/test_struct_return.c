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
 *     integer members of d_ret left as they were. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"

typedef struct {
  double x, y, z;
} vec3;

__attribute__((batch, diff, diff(forward))) vec3 spin(vec3 a, double t) {
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

static int close_to(double got, double want, double tol) {
  return fabs(got - want) <= tol * (1.0 + fabs(want));
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

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_batched),
      cmocka_unit_test(t_grad),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
