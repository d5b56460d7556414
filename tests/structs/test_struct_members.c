/* Array members of struct parameters and struct return values (issue 11
 * part 1, docs/abi.md "Structs"): `l.w[j]` of a record passed by value
 * (varying: n records; BD_UNIFORM: by value) and a returned record with an
 * array member; shadows, seeds and tangents are records of the same type.
 *   - NAME_batched bit for bit against the scalar function, records right
 *     before a guard page, ret ending at one, integer members of ret
 *     written, of shadows left alone;
 *   - NAME_grad against central differences per element (the uniform
 *     record's shadow summed over the batch), of Σ d_ret·ret for the
 *     returned record; NAME_jvp against central differences. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"

typedef struct {
  double w[3];
  double b;
  int k[2];
} layer;

BATCHDIFF double affine(layer l, BD_UNIFORM layer u, double x) {
  double s = l.b + (double)l.k[1];
  for (int j = 0; j < 3; j++)
    s = s * x + l.w[j] * u.w[j];
  return s + u.b * x * l.w[2];
}

typedef struct {
  double m[4];
  int tag;
} mat2;

__attribute__((batch, diff, diff(forward))) mat2 rot(double t, double r) {
  double c = 1.0 - 0.5 * t * t, s = t - t * t * t / 6.0;
  mat2 q = {{r * c, -r * s, r * s, r * c}, t < 0.0};
  q.m[3] += q.m[0] * q.m[1];
  return q;
}

static int same(double got, double want) {
  return same_bits_or_nan(&got, &want, sizeof got, 1);
}
static layer gen_layer(rng_t *r, int edge) {
  layer l;
  memset(&l, 0x5A, sizeof l);
  for (int j = 0; j < 3; j++)
    l.w[j] = edge ? gen_d(r) : rng_range(r, -2, 2);
  l.b = edge ? gen_d(r) : rng_range(r, -2, 2);
  l.k[0] = (int)rng_u64(r);
  l.k[1] = rng_below(r, 7) - 3;
  return l;
}
/* Element j of a layer's floating members: w[0..2], b. */
static double *lslot(layer *l, int j) { return j < 3 ? &l->w[j] : &l->b; }

static void t_batched(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_members_batched")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    layer *l = gp_alloc(n * sizeof(layer));
    double *x = gp_alloc(n * 8), *t = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++) {
      l[b] = gen_layer(&rng, 1);
      x[b] = gen_d(&rng);
      t[b] = gen_d(&rng);
      r[b] = gen_d(&rng);
    }
    gp_seal(l);
    layer u = gen_layer(&rng, 1);
    double *o = gp_alloc(n * 8);
    mat2 *q = gp_alloc(n * sizeof(mat2));
    affine_batched(n, l, u, x, o);
    rot_batched(n, t, r, q);
    for (size_t b = 0; b < n; b++) {
      mat2 want = rot(t[b], r[b]);
      int ok = same(o[b], affine(l[b], u, x[b])) && q[b].tag == want.tag;
      for (int j = 0; j < 4; j++)
        ok = ok && same(q[b].m[j], want.m[j]);
      if (!ok) {
        print_error("n=%zu b=%zu: affine %.17g want %.17g, rot tag %d\n", n, b,
                    o[b], affine(l[b], u, x[b]), q[b].tag);
        fail();
      }
    }
    gp_reset();
  }
}

static void t_grad(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_members_grad")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    layer *l = gp_alloc(n * sizeof(layer)), *dl = gp_alloc(n * sizeof(layer));
    double *x = gp_alloc(n * 8), *dx = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++) {
      l[b] = gen_layer(&rng, 0);
      memset(&dl[b], 0xC3, sizeof(layer)); /* sentinels: ints, padding */
      for (int j = 0; j < 4; j++)
        *lslot(&dl[b], j) = 0.5 * j;
      x[b] = rng_range(&rng, -1.5, 1.5);
      dx[b] = 0.0;
    }
    layer u = gen_layer(&rng, 0), du;
    memset(&du, 0, sizeof du);
    affine_grad(n, l, u, x, NULL, NULL, dl, &du, dx);
    double sum[4] = {0, 0, 0, 0}, h = 1e-6;
    for (size_t b = 0; b < n; b++) {
      for (int j = 0; j < 4; j++) {
        layer p = l[b], m = l[b], up = u, um = u;
        *lslot(&p, j) += h;
        *lslot(&m, j) -= h;
        *lslot(&up, j) += h;
        *lslot(&um, j) -= h;
        double f = (affine(p, u, x[b]) - affine(m, u, x[b])) / (2 * h);
        sum[j] += (affine(l[b], up, x[b]) - affine(l[b], um, x[b])) / (2 * h);
        if (!close_to(*lslot(&dl[b], j) - 0.5 * j, f, 1e-6)) {
          print_error("affine_grad n=%zu b=%zu member %d: %.17g fd %.17g\n", n,
                      b, j, *lslot(&dl[b], j) - 0.5 * j, f);
          fail();
        }
      }
      layer s;
      memset(&s, 0xC3, sizeof s);
      assert_memory_equal(dl[b].k, s.k, sizeof s.k);
      double f =
          (affine(l[b], u, x[b] + h) - affine(l[b], u, x[b] - h)) / (2 * h);
      assert_true(close_to(dx[b], f, 1e-6));
    }
    for (int j = 0; j < 4; j++)
      if (!close_to(*lslot(&du, j), sum[j], 1e-6 * (double)(n + 1))) {
        print_error("affine_grad n=%zu d_u member %d: %.17g want %.17g\n", n, j,
                    *lslot(&du, j), sum[j]);
        fail();
      }
    gp_reset();
  }
}

/* The returned record: NAME_grad's seeds d_ret[b].m[j], NAME_jvp's
 * tangents. */
static void t_return(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_members_return")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *t = gp_alloc(n * 8), *r = gp_alloc(n * 8);
    double *dt = gp_alloc(n * 8), *dr = gp_alloc(n * 8);
    double *tt = gp_alloc(n * 8), *tr = gp_alloc(n * 8);
    mat2 *seed = gp_alloc(n * sizeof(mat2)), *q = gp_alloc(n * sizeof(mat2));
    mat2 *jq = gp_alloc(n * sizeof(mat2)), *jd = gp_alloc(n * sizeof(mat2));
    for (size_t b = 0; b < n; b++) {
      t[b] = rng_range(&rng, -1, 1);
      r[b] = rng_range(&rng, 0.5, 2);
      tt[b] = rng_range(&rng, -1, 1);
      tr[b] = rng_range(&rng, -1, 1);
      dt[b] = dr[b] = 0.0;
      for (int j = 0; j < 4; j++)
        seed[b].m[j] = rng_range(&rng, -1, 1);
      seed[b].tag = 99;
      jd[b].tag = -5;
    }
    rot_grad(n, t, r, q, seed, dt, dr);
    rot_jvp(n, t, r, tt, tr, jq, jd);
    double h = 1e-6;
    for (size_t b = 0; b < n; b++) {
      mat2 tp = rot(t[b] + h, r[b]), tm = rot(t[b] - h, r[b]);
      mat2 rp = rot(t[b], r[b] + h), rm = rot(t[b], r[b] - h);
      mat2 vp = rot(t[b] + h * tt[b], r[b] + h * tr[b]);
      mat2 vm = rot(t[b] - h * tt[b], r[b] - h * tr[b]);
      double ft = 0.0, fr = 0.0;
      for (int j = 0; j < 4; j++) {
        ft += seed[b].m[j] * (tp.m[j] - tm.m[j]) / (2 * h);
        fr += seed[b].m[j] * (rp.m[j] - rm.m[j]) / (2 * h);
        double fj = (vp.m[j] - vm.m[j]) / (2 * h);
        if (!close_to(jd[b].m[j], fj, 1e-6)) {
          print_error("rot_jvp n=%zu b=%zu m[%d]: %.17g fd %.17g\n", n, b, j,
                      jd[b].m[j], fj);
          fail();
        }
      }
      mat2 want = rot(t[b], r[b]);
      assert_memory_equal(q[b].m, want.m, sizeof want.m);
      assert_memory_equal(jq[b].m, want.m, sizeof want.m);
      assert_int_equal(jd[b].tag, -5);
      if (!close_to(dt[b], ft, 1e-6) || !close_to(dr[b], fr, 1e-6)) {
        print_error("rot_grad n=%zu b=%zu: %.17g fd %.17g, %.17g fd %.17g\n", n,
                    b, dt[b], ft, dr[b], fr);
        fail();
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_batched),
      cmocka_unit_test(t_grad),
      cmocka_unit_test(t_return),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
