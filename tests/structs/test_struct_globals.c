/* Structs at file scope and static local ones, as numeric C writes them
 * (docs/globals.md, file-scope data): a const parameter struct and a
 * non-const one nothing writes, Gauss-Legendre nodes and weights, a table
 * of piecewise-quadratic segments searched per example, char/short/_Bool
 * members, a two-dimensional table of structs, static local tables of
 * structs, and two-dimensional local arrays of structs. Tables of records
 * are read in place, member by member.
 *   - NAME_batched against the scalar function for every n of test_ns,
 *     bit for bit, output at a guard page (exec_util.h's DIFFk);
 *   - the segment table ends at a PROT_NONE page while the search loop
 *     `k < 6 && x >= S[k].hi` reaches k = 6 in lanes still running: C reads
 *     no S[6] there, and neither may the batched code (it faults otherwise);
 *   - NAME_grad against the derivative written out (pw_eval) and against
 *     central differences (tables are constants). */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"

#include <string.h>
#include <sys/mman.h>

/* ---- a const parameter struct and a non-const one ---------------------- */

static const struct params {
  double a, b;
  int n;
} P = {1.5, 2.0, 3};

struct cfg {
  double scale;
  int order;
  float w[4];
  struct {
    double lo, hi;
  } range;
};
/* Not const, never written: read in place, where the examples run. */
struct cfg CFG = {0.75, 2, {0.5f, -1.0f, 2.0f, 0.25f}, {-1.5, 2.5}};

static double cfg_clamp(const struct cfg *c, double v) {
  return v < c->range.lo ? c->range.lo : v > c->range.hi ? c->range.hi : v;
}

BATCHDIFF double gs_params(double x, int k) {
  double s = x * P.a + P.b; /* constants, as const scalars */
  for (int i = 0; i < P.n; i++)
    s = s * x + P.a * i;
  double t = CFG.scale * x + (double)CFG.w[k & 3]; /* a gathered member */
  for (int i = 0; i < CFG.order; i++)
    t *= 0.5 + 0.1 * x;
  struct cfg c = CFG; /* a copy */
  c.scale += x;
  return cfg_clamp(&CFG, s) + t * c.scale + (double)c.w[(k >> 2) & 3];
}

/* ---- Gauss-Legendre quadrature: nodes and weights as records ----------- */

static const struct {
  double x, w;
} GL[5] = {{0.0, 0.5688888888888889},
           {-0.5384693101056831, 0.4786286704993665},
           {0.5384693101056831, 0.4786286704993665},
           {-0.9061798459386640, 0.2369268850561891},
           {0.9061798459386640, 0.2369268850561891}};

/* The integral of 1 / (1 + a t^2) over [lo, hi] (no math call: bit for
 * bit). */
BATCHDIFF double gl_gauss(double a, double lo, double hi) {
  double c = 0.5 * (hi + lo), h = 0.5 * (hi - lo), s = 0.0;
  for (int i = 0; i < 5; i++) {
    double t = c + h * GL[i].x;
    s += GL[i].w / (1.0 + a * t * t);
  }
  return h * s;
}

/* ---- piecewise-quadratic segments, the table at a guard page ----------- */

typedef struct {
  double lo, hi, c0, c1, c2;
} seg;

/* Six segments of [-3, 3), 240 bytes ending where a page ends; the next
 * page (bd_sg_guard) is made PROT_NONE (laid out in assembly: the order of
 * C definitions in a section is not kept). */
__asm__(".pushsection bd_sg_tables, \"aw\"\n"
        ".balign 4096\n"
        ".skip 3856\n"
        "bd_sg_segs:\n"
        ".double -3.0, -2.0, 1.0, 0.5, -0.25\n"
        ".double -2.0, -1.0, 0.75, -1.0, 0.5\n"
        ".double -1.0, 0.0, -0.5, 2.0, 1.5\n"
        ".double 0.0, 1.0, 1.25, -0.75, 0.125\n"
        ".double 1.0, 2.0, 0.5, 1.5, -2.0\n"
        ".double 2.0, 3.0, -1.0, 0.25, 0.75\n"
        "bd_sg_guard:\n"
        ".skip 4096\n"
        ".skip 4064\n"
        "bd_sg_edges:\n"
        ".double -2.0, 0.0, 1.0, 3.0\n"
        "bd_sg_guard2:\n"
        ".skip 4096\n"
        ".popsection\n");
extern const seg S[6] __asm__("bd_sg_segs");
extern char SG_GUARD[4096] __asm__("bd_sg_guard");
/* A numeric table before a guard page too (the same search). */
extern const double EDGES[4] __asm__("bd_sg_edges");
extern char SG_GUARD2[4096] __asm__("bd_sg_guard2");

static double seg_eval(const seg *s, double x) {
  double t = x - s->lo;
  return s->c0 + t * (s->c1 + t * s->c2);
}
static double seg_slope(seg s, double x) { /* by value */
  return s.c1 + 2.0 * s.c2 * (x - s.lo);
}

/* The segment of x, found by a search loop per example (x >= 3 runs to
 * k = 6), evaluated through a pointer to it. */
BATCHDIFF double pw_eval(double x) {
  int k = 0;
  while (k < 6 && x >= S[k].hi)
    k++;
  if (k == 6)
    k = 5;
  return seg_eval(&S[k], x);
}
BATCHDIFF double bucket(double x) {
  int k = 0;
  while (k < 4 && x >= EDGES[k])
    k++;
  return x * k;
}
static double d_pw_eval(double x) {
  int k = 0;
  while (k < 6 && x >= S[k].hi)
    k++;
  if (k == 6)
    k = 5;
  return seg_slope(S[k], x);
}

/* Per-example indices straight into the table, `S + k`, a ?: arm, the
 * table walked by a pointer to its first record, a copy of a record. */
BATCHDIFF double pw_mix(double x, int k) {
  int i = k & 7;
  double v = i < 6 ? S[i].c0 * x : x; /* S[6], S[7] not read */
  const seg *p = S + (k & 3);
  v += p->c1 + p[1].c2 * x + seg_slope(S[(k >> 3) & 3], x);
  const seg *q = S;
  for (int j = 0; j < 6; j++)
    v += q[j].c2 * (x - q[j].lo) * 0.125;
  seg c = S[5];
  return v + c.hi * seg_eval(&c, x);
}

/* ---- char, short and _Bool members: the narrow gather ------------------ */

static const struct tap {
  short di;
  unsigned char f;
  _Bool on;
  float w;
} NT[8] = {{-3, 200, 1, 0.5f},     {7, 1, 0, -1.25f},     {0, 255, 1, 2.0f},
           {-32768, 0, 1, 0.125f}, {32767, 17, 0, -0.5f}, {12, 3, 1, 1.5f},
           {-1, 128, 0, 3.0f},     {5, 64, 1, -2.0f}};

BATCHDIFF float nt_taps(float x, int k) {
  int i = k & 7;
  float s = NT[i].on ? x * NT[i].w : -x;
  s += (float)NT[i].di * 0.5f + (float)NT[(i + 3) & 7].f;
  for (int j = 0; j < 8; j++)
    if (NT[j].on)
      s += NT[j].w * x * (float)(NT[j].f & 3);
  return s;
}

/* ---- a two-dimensional table of structs -------------------------------- */

struct cell {
  float a, b;
};
static const struct cell GRID[3][4] = {
    {{1.0f, 0.5f}, {2.0f, -0.5f}, {0.25f, 1.0f}, {-1.0f, 2.0f}},
    {{0.5f, 0.5f}, {-2.0f, 1.5f}, {3.0f, 0.0f}, {1.25f, -1.0f}},
    {{-0.75f, 2.5f}, {0.0f, 1.0f}, {1.5f, -1.5f}}};

static float row_sum(const struct cell *row, float x) {
  float s = 0.0f;
  for (int j = 0; j < 4; j++)
    s += row[j].a * x + row[j].b;
  return s;
}

BATCHDIFF float grid_read(float x, int k) {
  int r = (k & 0xff) % 3, c = (k >> 8) & 3;
  return GRID[r][c].a * x + GRID[r][c].b + row_sum(GRID[r], x) +
         GRID[2][3].a * row_sum(GRID[1], x); /* GRID[2][3]: zero */
}

/* ---- static local structs and tables of structs ------------------------ */

BATCHDIFF double st_local(double x, int k) {
  static const seg LOC[3] = {{0.0, 1.0, 0.5, -0.25, 1.0},
                             {1.0, 2.0, 1.0, 0.5, -0.5},
                             {2.0, 4.0, 0.25, 2.0, 0.125}};
  static const struct params Q = {0.5, -0.25, 2};
  double s = Q.a * x + Q.b;
  for (int i = 0; i < Q.n; i++)
    s += seg_eval(&LOC[i], x);
  int j = (k & 0xf) % 3;
  return s + LOC[j].c1 * x + seg_slope(LOC[j], x) + seg_eval(LOC + 2, x);
}

/* ---- two-dimensional local arrays of structs --------------------------- */

typedef struct {
  double x, y;
} pt;

static double ring(const pt *ps, int n) {
  double a = 0.0;
  for (int i = 0; i < n; i++) {
    int j = i + 1 == n ? 0 : i + 1;
    a += ps[i].x * ps[j].y - ps[j].x * ps[i].y;
  }
  return 0.5 * a;
}

BATCHDIFF double pts_2d(double s, double t, int k) {
  pt ps[2][3] = {{{0, 0}, {s, 0}, {s, t}}, {{1, 1}, [2] = {.y = t}}};
  ps[1][1] = ps[0][(k & 0xf) % 3];
  ps[(k >> 4) & 1][(k >> 5) % 3].x += s * t;
  pt *r = &ps[1][2];
  r->x = t - s;
  return ring(ps[0], 3) + ring(ps[1], 3) + ps[1][(k >> 7) % 3].y * s;
}

/* ---- whole structs by memcpy, memmove, memset --------------------------- */

BATCHDIFF double mem_structs(double x, int k) {
  seg a, b[3];
  memcpy(&a, &S[k & 3], sizeof a); /* a record of the table */
  memset(b, 0, sizeof b);
  b[1].c0 = x;
  b[2].c1 = x * x;
  memcpy(&b[0], &a, sizeof(seg));
  memmove(b + 1, b, 2 * sizeof(seg)); /* overlapping: b[1] = b[0] first */
  pt q = {x, 2.0 * x}, r;
  memcpy(&r, &q, sizeof r);
  pt ps[2][2];
  memset(&ps[1][0], 0, 2 * sizeof(pt));
  ps[0][0] = r;
  ps[0][1] = q;
  memcpy(ps[1], ps[0], sizeof ps[0]);
  return seg_eval(&b[2], x) + a.c1 * r.y + b[1].c0 + ring(ps[1], 2) +
         ps[1][(k >> 2) & 1].x;
}

/* ---- arrays of structs as members of struct locals --------------------- */

typedef struct {
  pt v[3];
  double w;
} tri;

static double tri_area(const tri *t) { return ring(t->v, 3); }
static tri shift(tri t, double d) { /* by value, returned */
  for (int i = 0; i < 3; i++)
    t.v[i].x += d;
  return t;
}

BATCHDIFF double tri_local(double s, double t, int k) {
  tri a = {{{0, 0}, {s, 0}, {0, t}}, 1.0};
  tri b = shift(a, t);
  b.v[(k & 0xff) % 3].y *= s; /* per-example index */
  pt p = b.v[(k >> 8) & 1];
  b.v[2] = p;
  tri c;
  c = b;
  c.w = tri_area(&c) + ring(a.v, 3);
  memcpy(&c.v[0], &a.v[1], sizeof(pt));
  pt *q = &c.v[1];
  q->y -= 0.5 * s;
  return c.w + c.v[0].x * a.v[(k >> 4) % 3].y + b.v[1].x + q->y;
}

/* ---- differential tests ------------------------------------------------ */

static double gen_mod(rng_t *r) { return gen_d_mod(r); }
static float gen_fmod(rng_t *r) { return (float)gen_d_mod(r); }
static int gen_k(rng_t *r) { return (int)rng_below(r, 1 << 12); }
/* Around the segments (beyond them too), some edges exactly. */
static double gen_seg(rng_t *r) {
  if (rng_below(r, 8) == 0)
    return (double)((int)rng_below(r, 9) - 4);
  if (rng_below(r, 16) == 0)
    return gen_d(r);
  return rng_range(r, -4.0, 4.0);
}

DIFF2(gs_params, double, CMP_BITS, 0, V, double, gen_d, V, int, gen_k)
DIFF3(gl_gauss, double, CMP_BITS, 0, V, double, gen_mod, V, double, gen_mod, V,
      double, gen_d)
BITS1(pw_eval, double, double, gen_seg)
BITS1(bucket, double, double, gen_seg)
DIFF2(pw_mix, double, CMP_BITS, 0, V, double, gen_d, V, int, gen_k)
DIFF2(nt_taps, float, CMP_BITS, 0, V, float, gen_f, V, int, gen_k)
DIFF2(grid_read, float, CMP_BITS, 0, V, float, gen_fmod, V, int, gen_k)
DIFF2(st_local, double, CMP_BITS, 0, V, double, gen_d, V, int, gen_k)
DIFF3(pts_2d, double, CMP_BITS, 0, V, double, gen_d, V, double, gen_mod, V, int,
      gen_k)
DIFF2(mem_structs, double, CMP_BITS, 0, V, double, gen_d, V, int, gen_k)
DIFF3(tri_local, double, CMP_BITS, 0, V, double, gen_d, V, double, gen_mod, V,
      int, gen_k)

/* pw_eval and pw_mix with the page after S made PROT_NONE, bucket with
 * the one after EDGES. */
static void diff_pw_guarded(void **state) {
  assert_true(gp_ends_at(S + 6, SG_GUARD));
  assert_true(gp_ends_at(EDGES + 4, SG_GUARD2));
  assert_int_equal(mprotect(SG_GUARD, 4096, PROT_NONE), 0);
  assert_int_equal(mprotect(SG_GUARD2, 4096, PROT_NONE), 0);
  diff_pw_eval(state);
  diff_pw_mix(state);
  diff_bucket(state);
  assert_int_equal(mprotect(SG_GUARD, 4096, PROT_READ | PROT_WRITE), 0);
  assert_int_equal(mprotect(SG_GUARD2, 4096, PROT_READ | PROT_WRITE), 0);
}

/* ---- gradients --------------------------------------------------------- */

static int g_k;
static double f_params(const double *a) { return gs_params(a[0], g_k); }
static double f_gauss(const double *a) { return gl_gauss(a[0], a[1], a[2]); }
static double f_mix(const double *a) { return pw_mix(a[0], g_k); }
static double f_local(const double *a) { return st_local(a[0], g_k); }
static double f_pts(const double *a) { return pts_2d(a[0], a[1], g_k); }
static double f_mem(const double *a) { return mem_structs(a[0], g_k); }
static double f_tri(const double *a) { return tri_local(a[0], a[1], g_k); }

static double fd_h(double (*f)(const double *), double *a, int j, double s) {
  double x = a[j], h = s * (fabs(x) + 1.0);
  a[j] = x + h;
  double p = f(a);
  a[j] = x - h;
  double m = f(a);
  a[j] = x;
  return (p - m) / (2.0 * h);
}
static double fd(double (*f)(const double *), double *a, int j) {
  return fd_h(f, a, j, 1e-6);
}
/* Near a kink (a segment edge, a clamp) two step sizes disagree: central
 * differences mean nothing there. */
static int smooth(double (*f)(const double *), double *a, int j) {
  return close_to(fd(f, a, j), fd_h(f, a, j, 1e-5), 1e-5);
}

/* pw_eval's gradient against its derivative written out; the others
 * against central differences. */
static void diff_grads(void **state) {
  (void)state;
  rng_t rng = {name_seed("struct_globals")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *a = gp_alloc(n * 8), *b = gp_alloc(n * 8), *c = gp_alloc(n * 8);
    double *ret = gp_alloc(n * 8), *da = gp_alloc(n * 8);
    double *db = gp_alloc(n * 8), *dc = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    for (int f = 0; f < 8; f++) {
      for (size_t e = 0; e < n; e++) {
        a[e] = rng_range(&rng, f == 1 ? 0.1 : -4.0, f == 1 ? 3.0 : 4.0);
        b[e] = rng_range(&rng, -2, 2);
        c[e] = rng_range(&rng, -2, 2);
        k[e] = gen_k(&rng);
        da[e] = db[e] = dc[e] = 0.0;
      }
      double (*fn)(const double *) = NULL;
      int np = 1;
      switch (f) {
      case 0:
        pw_eval_grad(n, a, ret, NULL, da);
        break;
      case 1:
        gl_gauss_grad(n, a, b, c, ret, NULL, da, db, dc);
        fn = f_gauss, np = 3;
        break;
      case 2:
        gs_params_grad(n, a, k, ret, NULL, da);
        fn = f_params;
        break;
      case 3:
        pw_mix_grad(n, a, k, ret, NULL, da);
        fn = f_mix;
        break;
      case 4:
        st_local_grad(n, a, k, ret, NULL, da);
        fn = f_local;
        break;
      case 5:
        pts_2d_grad(n, a, b, k, ret, NULL, da, db);
        fn = f_pts, np = 2;
        break;
      case 6:
        mem_structs_grad(n, a, k, ret, NULL, da);
        fn = f_mem;
        break;
      default:
        tri_local_grad(n, a, b, k, ret, NULL, da, db);
        fn = f_tri, np = 2;
        break;
      }
      for (size_t e = 0; e < n; e++) {
        double x[3] = {a[e], b[e], c[e]}, g[3] = {da[e], db[e], dc[e]};
        g_k = k[e];
        if (f == 0) {
          double want = d_pw_eval(a[e]);
          if (!close_to(g[0], want, 1e-14)) {
            print_error("pw_eval_grad e=%zu x=%.17g: %.17g want %.17g\n", e,
                        a[e], g[0], want);
            fail();
          }
          continue;
        }
        for (int j = 0; j < np; j++)
          if (smooth(fn, x, j) && !close_to(g[j], fd(fn, x, j), 1e-6)) {
            print_error("f%d grad n=%zu e=%zu arg %d: %.17g fd %.17g\n", f, n,
                        e, j, g[j], fd(fn, x, j));
            fail();
          }
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T_(gs_params), T_(gl_gauss),   T_(pw_eval), T_(pw_mix),      T_(nt_taps),
      T_(grid_read), T_(st_local),   T_(pts_2d),  T_(mem_structs), T_(bucket),
      T_(tri_local), T_(pw_guarded), T_(grads),
  };

  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("struct_globals", tests, NULL, NULL);
}
