/* Records as users store them (issue 11): functions of vec3 records (AoS,
 * 24 bytes of doubles or 12 of floats) batched two ways, in one process:
 * "shuffles" (full groups of W records read and written with whole-vector
 * loads and permutes, batchdiff/aos.h) and "members" (the same functions
 * compiled with -fplugin-arg-batchdiff-dense-records=0: one lane buffer per
 * member, record by record), each against the scalar loop, and the two
 * against each other. Rows: dist (vec3 -> double), normalize (vec3 ->
 * vec3), dist_grad (shadows are vec3 records), distf (floats, 16 lanes at
 * AVX-512); records of 6 doubles and of 8 floats (M vector loads and
 * permutes too): energy (state6 -> double), step (state6 -> state6),
 * energy_grad, dot (f8 -> float). Results are checked bit for bit between
 * the three.
 * Single-threaded. Usage: bench_records [n per run] [reps] [pool]
 * (default 4096 31 65536) */
#include "bench_util.h"

#include <batchdiff/batchdiff_rt.h>

#include <string.h>

typedef struct {
  double x, y, z;
} rc_vec3;
typedef struct {
  float x, y, z;
} rc_vec3f;
typedef struct {
  double x, y, z, vx, vy, vz;
} rc_state6;
typedef struct {
  float w[8];
} rc_f8;

#define RC_DECL(S)                                                             \
  void rc_dist##S##_batched(size_t n, const rc_vec3 *a, rc_vec3 c,             \
                            double *ret);                                      \
  void rc_dist##S##_grad(size_t n, const rc_vec3 *a, rc_vec3 c, double *ret,   \
                         const double *d_ret, rc_vec3 *d_a, rc_vec3 *d_c);     \
  void rc_normalize##S##_batched(size_t n, const rc_vec3 *a, rc_vec3 *ret);    \
  void rc_distf##S##_batched(size_t n, const rc_vec3f *a, rc_vec3f c,          \
                             float *ret);                                      \
  void rc_energy6##S##_batched(size_t n, const rc_state6 *s, double g,         \
                               double *ret);                                   \
  void rc_energy6##S##_grad(size_t n, const rc_state6 *s, double g,            \
                            double *ret, const double *d_ret, rc_state6 *d_s,  \
                            double *d_g);                                      \
  void rc_step6##S##_batched(size_t n, const rc_state6 *s, double dt,          \
                             rc_state6 *ret);                                  \
  void rc_dot8f##S##_batched(size_t n, const rc_f8 *a, rc_f8 c, float *ret);
RC_DECL()
RC_DECL(_members)
void rc_dist_loop(size_t n, const rc_vec3 *a, rc_vec3 c, double *ret);
void rc_normalize_loop(size_t n, const rc_vec3 *a, rc_vec3 *ret);
void rc_distf_loop(size_t n, const rc_vec3f *a, rc_vec3f c, float *ret);
void rc_energy6_loop(size_t n, const rc_state6 *a, double g, double *ret);
void rc_step6_loop(size_t n, const rc_state6 *a, double dt, rc_state6 *ret);
void rc_dot8f_loop(size_t n, const rc_f8 *a, rc_f8 c, float *ret);

typedef struct {
  size_t n, off;
  rc_vec3 *a, c, *v3out, *da, dc;
  rc_vec3f *af, cf;
  rc_state6 *s6, *s6out, *ds6;
  rc_f8 *f8, c8;
  double *out, dg;
  float *outf;
} ctx;

#define A (x->a + x->off)
#define AF (x->af + x->off)
static void dist_loop(void *p) {
  ctx *x = p;
  rc_dist_loop(x->n, A, x->c, x->out);
}
static void dist_sh(void *p) {
  ctx *x = p;
  rc_dist_batched(x->n, A, x->c, x->out);
}
static void dist_mb(void *p) {
  ctx *x = p;
  rc_dist_members_batched(x->n, A, x->c, x->out);
}
static void norm_loop(void *p) {
  ctx *x = p;
  rc_normalize_loop(x->n, A, x->v3out);
}
static void norm_sh(void *p) {
  ctx *x = p;
  rc_normalize_batched(x->n, A, x->v3out);
}
static void norm_mb(void *p) {
  ctx *x = p;
  rc_normalize_members_batched(x->n, A, x->v3out);
}
static void grad_sh(void *p) {
  ctx *x = p;
  rc_dist_grad(x->n, A, x->c, x->out, NULL, x->da, &x->dc);
}
static void grad_mb(void *p) {
  ctx *x = p;
  rc_dist_members_grad(x->n, A, x->c, x->out, NULL, x->da, &x->dc);
}
static void distf_loop(void *p) {
  ctx *x = p;
  rc_distf_loop(x->n, AF, x->cf, x->outf);
}
static void distf_sh(void *p) {
  ctx *x = p;
  rc_distf_batched(x->n, AF, x->cf, x->outf);
}
static void distf_mb(void *p) {
  ctx *x = p;
  rc_distf_members_batched(x->n, AF, x->cf, x->outf);
}
#define S6 (x->s6 + x->off)
#define F8 (x->f8 + x->off)
/* (x->off: a slice of the pool, as for vec3: cold caches alike.) */
#define RC_CASE(nm, loop, sh, mb)                                              \
  __attribute__((unused)) static void nm##_loop(void *p) {                     \
    ctx *x = p;                                                                \
    loop;                                                                      \
  }                                                                            \
  static void nm##_sh(void *p) {                                               \
    ctx *x = p;                                                                \
    sh;                                                                        \
  }                                                                            \
  static void nm##_mb(void *p) {                                               \
    ctx *x = p;                                                                \
    mb;                                                                        \
  }
RC_CASE(en6, rc_energy6_loop(x->n, S6, 9.81, x->out),
        rc_energy6_batched(x->n, S6, 9.81, x->out),
        rc_energy6_members_batched(x->n, S6, 9.81, x->out))
RC_CASE(en6g, (void)x,
        rc_energy6_grad(x->n, S6, 9.81, x->out, NULL, x->ds6, &x->dg),
        rc_energy6_members_grad(x->n, S6, 9.81, x->out, NULL, x->ds6, &x->dg))
RC_CASE(step6, rc_step6_loop(x->n, S6, 0.01, x->s6out),
        rc_step6_batched(x->n, S6, 0.01, x->s6out),
        rc_step6_members_batched(x->n, S6, 0.01, x->s6out))
RC_CASE(dot8f, rc_dot8f_loop(x->n, F8, x->c8, x->outf),
        rc_dot8f_batched(x->n, F8, x->c8, x->outf),
        rc_dot8f_members_batched(x->n, F8, x->c8, x->outf))

typedef struct {
  const char *name;
  void (*loop)(void *), (*sh)(void *), (*mb)(void *);
} bench_case;

int main(int argc, char **argv) {
  size_t n = 4096, pool = 65536;
  int reps = 31;
  bd_bench_args(argc, argv, &n, &reps, &pool);
  bd_set_num_threads(1);
  ctx x = {0};
  x.n = n;
  x.a = bd_bench_alloc(pool, sizeof(rc_vec3));
  x.af = bd_bench_alloc(pool, sizeof(rc_vec3f));
  x.v3out = bd_bench_alloc(n, sizeof(rc_vec3));
  x.da = bd_bench_alloc(n, sizeof(rc_vec3));
  x.out = bd_bench_alloc(n, sizeof(double));
  x.outf = bd_bench_alloc(n, sizeof(float));
  x.s6 = bd_bench_alloc(pool, sizeof(rc_state6));
  x.s6out = bd_bench_alloc(n, sizeof(rc_state6));
  x.ds6 = bd_bench_alloc(n, sizeof(rc_state6));
  x.f8 = bd_bench_alloc(pool, sizeof(rc_f8));
  bd_bench_rng g = {42};
  for (size_t b = 0; b < pool; b++) {
    x.a[b] = (rc_vec3){bd_bench_uniform(&g, -2, 2), bd_bench_uniform(&g, -2, 2),
                       bd_bench_uniform(&g, -2, 2)};
    x.af[b] = (rc_vec3f){(float)x.a[b].x, (float)x.a[b].y, (float)x.a[b].z};
    double *q = &x.s6[b].x;
    for (int k = 0; k < 6; k++)
      q[k] = bd_bench_uniform(&g, -2, 2);
    for (int k = 0; k < 8; k++)
      x.f8[b].w[k] = (float)bd_bench_uniform(&g, -2, 2);
  }
  for (int k = 0; k < 8; k++)
    x.c8.w[k] = 0.125f * (float)(k - 3);
  x.c = (rc_vec3){0.25, -0.5, 0.75};
  x.cf = (rc_vec3f){0.25f, -0.5f, 0.75f};

  /* Bit for bit: the scalar loop, shuffles and members agree. */
  int bad = 0;
  {
    double *r0 = bd_bench_alloc(pool, 8), *r1 = bd_bench_alloc(pool, 8),
           *r2 = bd_bench_alloc(pool, 8);
    rc_vec3 *v0 = bd_bench_alloc(pool, sizeof(rc_vec3)),
            *v1 = bd_bench_alloc(pool, sizeof(rc_vec3)),
            *v2 = bd_bench_alloc(pool, sizeof(rc_vec3));
    rc_dist_loop(pool, x.a, x.c, r0);
    rc_dist_batched(pool, x.a, x.c, r1);
    rc_dist_members_batched(pool, x.a, x.c, r2);
    rc_normalize_loop(pool, x.a, v0);
    rc_normalize_batched(pool, x.a, v1);
    rc_normalize_members_batched(pool, x.a, v2);
    rc_vec3 *d1 = bd_bench_alloc(pool, sizeof(rc_vec3)),
            *d2 = bd_bench_alloc(pool, sizeof(rc_vec3));
    rc_vec3 dc1 = {0, 0, 0}, dc2 = {0, 0, 0};
    rc_dist_grad(pool, x.a, x.c, NULL, NULL, d1, &dc1);
    rc_dist_members_grad(pool, x.a, x.c, NULL, NULL, d2, &dc2);
    bad |=
        bd_bench_check("dist: loop = shuffles = members",
                       memcmp(r0, r1, pool * 8) || memcmp(r1, r2, pool * 8), 0);
    bad |= bd_bench_check("normalize: loop = shuffles = members",
                          memcmp(v0, v1, pool * sizeof *v0) ||
                              memcmp(v1, v2, pool * sizeof *v0),
                          0);
    bad |= bd_bench_check(
        "dist_grad: shuffles = members",
        memcmp(d1, d2, pool * sizeof *d1) || memcmp(&dc1, &dc2, sizeof dc1), 0);
    free(r0), free(r1), free(r2), free(v0), free(v1), free(v2), free(d1),
        free(d2);
  }
  {
    double *r0 = bd_bench_alloc(pool, 8), *r1 = bd_bench_alloc(pool, 8),
           *r2 = bd_bench_alloc(pool, 8);
    float *f0 = bd_bench_alloc(pool, 4), *f1 = bd_bench_alloc(pool, 4),
          *f2 = bd_bench_alloc(pool, 4);
    size_t sz = pool * sizeof(rc_state6);
    rc_state6 *v0 = bd_bench_alloc(pool, sizeof(rc_state6)),
              *v1 = bd_bench_alloc(pool, sizeof(rc_state6)),
              *v2 = bd_bench_alloc(pool, sizeof(rc_state6));
    rc_energy6_loop(pool, x.s6, 9.81, r0);
    rc_energy6_batched(pool, x.s6, 9.81, r1);
    rc_energy6_members_batched(pool, x.s6, 9.81, r2);
    bad |=
        bd_bench_check("energy6: loop = shuffles = members",
                       memcmp(r0, r1, pool * 8) || memcmp(r1, r2, pool * 8), 0);
    rc_step6_loop(pool, x.s6, 0.01, v0);
    rc_step6_batched(pool, x.s6, 0.01, v1);
    rc_step6_members_batched(pool, x.s6, 0.01, v2);
    bad |= bd_bench_check("step6: loop = shuffles = members",
                          memcmp(v0, v1, sz) || memcmp(v1, v2, sz), 0);
    double g1 = 0, g2 = 0;
    memset(v1, 0, sz);
    memset(v2, 0, sz);
    rc_energy6_grad(pool, x.s6, 9.81, NULL, NULL, v1, &g1);
    rc_energy6_members_grad(pool, x.s6, 9.81, NULL, NULL, v2, &g2);
    bad |= bd_bench_check("energy6_grad: shuffles = members",
                          memcmp(v1, v2, sz) || memcmp(&g1, &g2, 8), 0);
    rc_dot8f_loop(pool, x.f8, x.c8, f0);
    rc_dot8f_batched(pool, x.f8, x.c8, f1);
    rc_dot8f_members_batched(pool, x.f8, x.c8, f2);
    bad |=
        bd_bench_check("dot8f: loop = shuffles = members",
                       memcmp(f0, f1, pool * 4) || memcmp(f1, f2, pool * 4), 0);
    free(r0), free(r1), free(r2), free(f0), free(f1), free(f2), free(v0),
        free(v1), free(v2);
  }

  bd_bench_slices sl = {&x.off, n, pool};
  bench_case cs[] = {{"dist vec3", dist_loop, dist_sh, dist_mb},
                     {"normalize vec3", norm_loop, norm_sh, norm_mb},
                     {"dist_grad vec3", NULL, grad_sh, grad_mb},
                     {"distf vec3f", distf_loop, distf_sh, distf_mb},
                     {"energy state6", en6_loop, en6_sh, en6_mb},
                     {"step state6", step6_loop, step6_sh, step6_mb},
                     {"energy_grad state6", NULL, en6g_sh, en6g_mb},
                     {"dot f8", dot8f_loop, dot8f_sh, dot8f_mb}};
  for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
    char nm[96];
    double ta, tb;
    if (cs[k].loop) {
      bd_bench_pair(cs[k].loop, &x, cs[k].sh, &x, reps, bd_bench_next_slice,
                    &sl, &ta, &tb);
      snprintf(nm, sizeof nm, "%s: shuffles vs scalar loop", cs[k].name);
      bd_bench_row("records", nm, ta, tb, n, "");
      bd_bench_pair(cs[k].loop, &x, cs[k].mb, &x, reps, bd_bench_next_slice,
                    &sl, &ta, &tb);
      snprintf(nm, sizeof nm, "%s: members vs scalar loop", cs[k].name);
      bd_bench_row("records", nm, ta, tb, n, "");
    }
    /* Both orders: the second of a pair tends to gain under load. */
    double t1, t2;
    bd_bench_pair(cs[k].mb, &x, cs[k].sh, &x, reps, bd_bench_next_slice, &sl,
                  &ta, &tb);
    bd_bench_pair(cs[k].sh, &x, cs[k].mb, &x, reps, bd_bench_next_slice, &sl,
                  &t2, &t1);
    snprintf(nm, sizeof nm, "%s: shuffles vs members", cs[k].name);
    bd_bench_row("records", nm, (ta + t1) / 2, (tb + t2) / 2, n, "");
  }
  return bad;
}
