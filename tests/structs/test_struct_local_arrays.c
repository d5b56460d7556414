/* Local arrays of structs (docs/subset.md, structs inside the body): split
 * into one local array per leaf member. Polygons and small point sets:
 * brace initializers (nested, designated, brace-elided, the rest zero),
 * members read and written at computed (per-example) indices, whole-element
 * copies `p[i] = p[j]`, `q = p[i]`, elements passed by value and by
 * pointer (`&p[i]`, `p + i`, the whole array) to helpers, array members
 * and nested structs, pointers to array members.
 *   - NAME_batched against the scalar function for every n of test_ns,
 *     bit for bit, output at a guard page (exec_util.h's DIFFk);
 *   - NAME_grad against central finite differences per example;
 *   - NAME_jvp against the gradient (Σ grad·t). */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"

typedef struct {
  double x, y;
} pt;

static double cross(pt a, pt b) { return a.x * b.y - a.y * b.x; }
static void nudge(pt *q, double d) {
  q->x += d;
  q->y -= 0.5 * d;
}
/* The whole array, as a pointer to its records. */
static double area(const pt *ps, int n) {
  double a = 0.0;
  for (int i = 0; i < n; i++) {
    int j = i + 1 == n ? 0 : i + 1;
    a += ps[i].x * ps[j].y - ps[j].x * ps[i].y;
  }
  return 0.5 * a;
}

/* The report's example: the shoelace formula over a quadrilateral, then
 * per-lane element copies and helpers. */
__attribute__((batch, diff, diff(forward))) double sl_poly(double s, double t,
                                                           int k) {
  pt p[4] = {{0, 0}, {s, 0}, {s, t}, [3] = {.y = t}};
  double a = 0.0;
  for (int i = 0; i < 4; i++) {
    int j = (i + 1) % 4;
    a += p[i].x * p[j].y - p[j].x * p[i].y;
  }
  p[k & 3] = p[(k + 1) & 3]; /* whole element, per-lane indices */
  nudge(&p[(k >> 2) & 1], t);
  nudge(p + 2, 0.25 * s);
  a += cross(p[0], p[2]) + area(p, 4);
  pt q = p[3];
  q.x = q.x * 2.0 + s;
  p[1] = q;
  pt *r = &p[1];
  return 0.5 * a + r->x * p[1].y + p[k & 1].x;
}

/* Array members, nested structs, int members, float lanes; brace elision;
 * a pointer to an element's array member. */
typedef struct {
  float w[3];
  int id;
  struct {
    float lo, hi;
  } r;
} item;

static float clampf(float v, float lo, float hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

BATCHDIFF float sl_items(float x, float y, int k) {
  item it[3] = {{{x, y, 1.0f}, 1, {0.0f, 2.0f}},
                {{y}, 2, {0.0f, 0.0f}},
                {.w = {[2] = x}, .id = 3, .r.hi = 5.0f}};
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wmissing-braces"
  item two[2] = {x, y, 0.5f, 4, -1.0f, 1.0f}; /* braces elided */
#pragma clang diagnostic pop
  unsigned u = (unsigned)k;
  float s = 0.0f;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      s += it[i].w[j] * (float)it[i].id;
  it[u % 3].w[u & 1] += x;
  it[u % 2].id += k & 7;
  const float *w = it[(u >> 1) % 3].w;
  s += w[2] - w[0] + two[0].w[1] * (float)two[0].id + two[1].r.lo;
  item c = it[u % 3];
  c.r.lo = -y;
  it[2] = c;
  return clampf(s, it[2].r.lo, it[2].r.hi) + (float)it[u % 3].id +
         it[2].w[u % 3];
}

/* A particle set updated in a loop: positions and velocities per member. */
typedef struct {
  double pos[2], vel[2];
} particle;

BATCHDIFF double sl_particles(double x, double v, int steps) {
  particle ps[3];
  for (int i = 0; i < 3; i++) {
    ps[i].pos[0] = x + i;
    ps[i].pos[1] = x * i;
    ps[i].vel[0] = v;
    ps[i].vel[1] = -v * i;
  }
  int n = steps & 3;
  for (int s = 0; s < n; s++)
    for (int i = 0; i < 3; i++)
      for (int d = 0; d < 2; d++) {
        ps[i].vel[d] -= 0.1 * ps[i].pos[d];
        ps[i].pos[d] += 0.5 * ps[i].vel[d];
      }
  double e = 0.0;
  for (int i = 0; i < 3; i++)
    e += ps[i].pos[0] * ps[i].pos[0] + ps[i].vel[1] * ps[i].pos[1];
  return e;
}

static double gen_mod(rng_t *r) { return gen_d_mod(r); }
static float gen_fmod(rng_t *r) { return (float)gen_d_mod(r); }

DIFF3(sl_poly, double, CMP_BITS, 0, V, double, gen_d, V, double, gen_d, V, int,
      gen_i32s)
DIFF3(sl_items, float, CMP_BITS, 0, V, float, gen_f, V, float, gen_fmod, V, int,
      gen_i32s)
DIFF3(sl_particles, double, CMP_BITS, 0, V, double, gen_mod, V, double, gen_d,
      V, int, gen_i32s)

/* ---- gradients ----------------------------------------------------------- */

static int g_k;
static double poly2(const double *a) { return sl_poly(a[0], a[1], g_k); }
static double parts2(const double *a) { return sl_particles(a[0], a[1], g_k); }

static double fd(double (*f)(const double *), double *a, int j) {
  double x = a[j], h = 1e-6 * (fabs(x) + 1.0);
  a[j] = x + h;
  double p = f(a);
  a[j] = x - h;
  double m = f(a);
  a[j] = x;
  return (p - m) / (2.0 * h);
}

/* fn_grad against central differences; sl_poly's jvp against Σ grad·t. */
static void t_grad(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_local_arrays")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *a = gp_alloc(n * 8), *b = gp_alloc(n * 8), *ret = gp_alloc(n * 8);
    double *da = gp_alloc(n * 8), *db = gp_alloc(n * 8);
    double *ta = gp_alloc(n * 8), *tb = gp_alloc(n * 8);
    double *jr = gp_alloc(n * 8), *jd = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    for (int f = 0; f < 2; f++) {
      for (size_t e = 0; e < n; e++) {
        a[e] = rng_range(&rng, -2, 2);
        b[e] = rng_range(&rng, -2, 2);
        k[e] = (int)rng_below(&rng, 64);
        da[e] = db[e] = 0.0;
        ta[e] = rng_range(&rng, -1, 1);
        tb[e] = rng_range(&rng, -1, 1);
      }
      if (f == 0) {
        sl_poly_grad(n, a, b, k, ret, NULL, da, db);
        sl_poly_jvp(n, a, b, k, ta, tb, jr, jd);
      } else {
        sl_particles_grad(n, a, b, k, ret, NULL, da, db);
      }
      for (size_t e = 0; e < n; e++) {
        double x[2] = {a[e], b[e]}, g[2] = {da[e], db[e]};
        g_k = k[e];
        double (*fn)(const double *) = f ? parts2 : poly2;
        double want = fn(x);
        if (memcmp(&ret[e], &want, 8) != 0 ||
            (f == 0 && memcmp(&jr[e], &want, 8) != 0)) {
          print_error("f%d ret e=%zu: %.17g want %.17g\n", f, e, ret[e], want);
          fail();
        }
        for (int j = 0; j < 2; j++)
          if (!close_to(g[j], fd(fn, x, j), 1e-6)) {
            print_error("f%d grad n=%zu e=%zu arg %d: %.17g fd %.17g\n", f, n,
                        e, j, g[j], fd(fn, x, j));
            fail();
          }
        double dot = g[0] * ta[e] + g[1] * tb[e];
        if (f == 0 && !close_to(jd[e], dot, 1e-10)) {
          print_error("sl_poly_jvp e=%zu: %.17g want %.17g\n", e, jd[e], dot);
          fail();
        }
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(diff_sl_poly),
      cmocka_unit_test(diff_sl_items),
      cmocka_unit_test(diff_sl_particles),
      cmocka_unit_test(t_grad),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
