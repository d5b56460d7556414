/* The function's own array parameters passed to functions of another file
 * marked batch, diff (lane_grad_inputs.h), whose headers declare nothing
 * const, as ERFA's (eraTrxp passes its `double p[3]` to eraRxp, which only
 * reads it): each example's call gets a copy of the example's elements,
 * and only the elements whose bits the call changed are stored back
 * (docs/calls.md). Before, every element was stored back after every
 * call: inputs in read-only memory faulted, and one input array shared by
 * all examples (stride 0) was written by each. For n = 0 .. 37, inputs
 * ending at a guard page, writable and read-only (where the callees leave
 * them alone), strided and at stride 0: the values of NAME_batched and
 * NAME_grad and the arrays after them are the scalar function's bits;
 * gradients (each output seeded alone) agree with Richardson central
 * differences of the scalar function (kinks skipped; at least half
 * checked). An element the callee writes with the bits it had (0 and 1
 * squared) keeps its memory untouched and its derivative the callee's. */
#include "exec_util.h"

#include "../common/test_filter.h"
#include "lane_grad_inputs.h"

#include <batchdiff/tape.h>

#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Inputs only read by the callees: a 1-D and a 2-D array parameter passed
 * to pointers to non-const (eraCp(p, c), eraRxp(r, p, q)). */
BATCHDIFF double reads(double x, double p[3], double r[3][3]) {
  double c[3], q[3];
  lgi_cp(p, c);
  lgi_rxp(r, p, q);
  return c[0] * x + c[1] * c[2] + lgi_nrm(p) + q[0] * q[1] - q[2] * x;
}

/* Read and written in place by the callee. */
BATCHDIFF void sq(double x, double v[2], double out[2]) {
  lgi_sq(v);
  out[0] = v[0] * x;
  out[1] = v[1] + x;
}

/* Some elements written, some not, an int status besides. */
BATCHDIFF double clip(double x, double v[3]) {
  int k = lgi_clip(v);
  return v[0] + x * v[1] + v[2] * k;
}

/* In place (docs/calls-in-place.md): the function's own
 * 2-D array parameter passed twice, read and written (ERFA's eraMoon98:
 * eraRxpv(rm, pv, pv), whose promise rests on eraRxp's). */
BATCHDIFF double moon(double x, double pv[2][3]) {
  double r[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      r[i][j] = x * (i + 1) - (j + 0.5) * x * x;
  lgi_rxpv(r, pv, pv);
  return pv[0][0] + pv[1][2] * x;
}

/* The function's own array parameter for two parameters the callee only
 * reads, both not const (eraLdsun: eraLd(1.0, p, p, e, em, dlim, p1)). */
BATCHDIFF double ldsun(double x, double p[3]) {
  double e[3] = {x, 1.0 - x, 0.5}, p1[3];
  lgi_ld(0.7, p, p, e, p1);
  return p1[0] + 2.0 * p1[1] - p1[2] * x;
}

/* A local array for three parameters, read through two and written
 * through the third (eraLdn: eraLd(bm, sn, sn, e, em, dl, sn)). */
BATCHDIFF double ldn(double x, double e[3]) {
  double sn[3] = {x, x * x, 1.0 - x};
  lgi_ld(0.5, sn, sn, e, sn);
  return sn[0] * 3.0 + sn[1] - sn[2] * x;
}

/* A row twice to a function that reads both (eraStarpm: eraPdp(pv[0],
 * pv[0])), besides the other row. */
BATCHDIFF double starpm(double x, double v[3]) {
  double pv[2][3] = {{v[0] * x, v[1], v[2]}, {x, 1.0, 2.0}};
  return lgi_dot(pv[0], pv[0]) + lgi_dot(pv[0], pv[1]);
}

/* Through a function whose promise rests on one no file makes: its
 * NAME_grad fails (the arena's fail hook), its NAME_batched is the scalar
 * function's. */
BATCHDIFF double viabad(double x, double v[2]) {
  double q[2] = {x, v[0]};
  lgi_viabad(q, q);
  return q[0] * q[1] + v[1];
}

enum { MAXIN = 16 };

/* A case: flat inputs (x, then the arrays' elements, which lie at stride
 * st in the batch's buffer), flat outputs (the result or output arrays,
 * then the in-out arrays' final values). */
typedef struct {
  const char *name;
  int nin, nout;
  void (*flat)(const double *in, double *out);
  void (*batched)(size_t n, double *in, ptrdiff_t st, double *out);
  void (*grad)(size_t n, double *in, ptrdiff_t st, double *out,
               const double *seed, double *g);
  /* Input k of example b (mode 1: inputs the callees leave alone). */
  double (*gen)(rng_t *r, int k, int ro);
} gcase;

static double *xs(size_t n, const double *in, ptrdiff_t st) {
  double *x = gp_alloc((n + 1) * 8);
  for (size_t b = 0; b < n; b++)
    x[b] = in[b * st];
  return x;
}

static void reads_f(const double *in, double *out) {
  double p[3], r[3][3];
  memcpy(p, in + 1, sizeof p);
  memcpy(r, in + 4, sizeof r);
  out[0] = reads(in[0], p, r);
}
static void reads_b(size_t n, double *in, ptrdiff_t st, double *out) {
  reads_batched(n, xs(n, in, st), in + 1, st, in + 4, st, out);
}
static void reads_g(size_t n, double *in, ptrdiff_t st, double *out,
                    const double *seed, double *g) {
  double *dx = gp_alloc((n + 1) * 8), *d = gp_alloc((n + 1) * 13 * 8);
  memset(d, 0, (n + 1) * 13 * 8);
  memset(dx, 0, (n + 1) * 8);
  reads_grad(n, xs(n, in, st), in + 1, st, in + 4, st, out, seed, dx, d + 1, 13,
             d + 4, 13);
  for (size_t b = 0; b < n; b++) {
    d[b * 13] = dx[b];
    memcpy(g + b * 13, d + b * 13, 13 * 8);
  }
}
static double reads_gen(rng_t *r, int k, int ro) {
  (void)k;
  (void)ro;
  return -3.0 + 6.0 * rng_unit(r);
}

static void sq_f(const double *in, double *out) {
  double v[2] = {in[1], in[2]};
  sq(in[0], v, out);
  out[2] = v[0];
  out[3] = v[1];
}
static void sq_b(size_t n, double *in, ptrdiff_t st, double *out) {
  double *o = gp_alloc((n + 1) * 2 * 8);
  sq_batched(n, xs(n, in, st), in + 1, st, o, 2);
  for (size_t b = 0; b < n; b++) {
    out[b * 4] = o[b * 2];
    out[b * 4 + 1] = o[b * 2 + 1];
    out[b * 4 + 2] = in[b * st + 1];
    out[b * 4 + 3] = in[b * st + 2];
  }
}
static void sq_g(size_t n, double *in, ptrdiff_t st, double *out,
                 const double *seed, double *g) {
  double *o = gp_alloc((n + 1) * 2 * 8), *dx = gp_alloc((n + 1) * 8);
  double *dv = gp_alloc((n + 1) * 2 * 8), *dout = gp_alloc((n + 1) * 2 * 8);
  for (size_t b = 0; b < n; b++) {
    dx[b] = 0.0;
    dout[b * 2] = seed[b * 4];
    dout[b * 2 + 1] = seed[b * 4 + 1];
    dv[b * 2] = seed[b * 4 + 2]; /* the final v's cotangent */
    dv[b * 2 + 1] = seed[b * 4 + 3];
  }
  sq_grad(n, xs(n, in, st), in + 1, st, o, 2, dx, dv, 2, dout, 2);
  for (size_t b = 0; b < n; b++) {
    out[b * 4] = o[b * 2];
    out[b * 4 + 1] = o[b * 2 + 1];
    out[b * 4 + 2] = in[b * st + 1];
    out[b * 4 + 3] = in[b * st + 2];
    g[b * 3] = dx[b];
    g[b * 3 + 1] = dv[b * 2];
    g[b * 3 + 2] = dv[b * 2 + 1];
  }
}
static double sq_gen(rng_t *r, int k, int ro) {
  static const double keep[] = {0.0, 1.0};
  static const double some[] = {0.0, 1.0, -0.0, -1.0};
  if (k == 0)
    return -3.0 + 6.0 * rng_unit(r);
  if (ro) /* (squared, the same bits: -0 and -1 would change) */
    return keep[rng_below(r, 2)];
  return rng_below(r, 2) ? some[rng_below(r, 4)] : -2.0 + 4.0 * rng_unit(r);
}

static void clip_f(const double *in, double *out) {
  double v[3] = {in[1], in[2], in[3]};
  out[0] = clip(in[0], v);
  memcpy(out + 1, v, sizeof v);
}
static void clip_b(size_t n, double *in, ptrdiff_t st, double *out) {
  double *ret = gp_alloc((n + 1) * 8);
  clip_batched(n, xs(n, in, st), in + 1, st, ret);
  for (size_t b = 0; b < n; b++) {
    out[b * 4] = ret[b];
    memcpy(out + b * 4 + 1, in + b * st + 1, 3 * 8);
  }
}
static void clip_g(size_t n, double *in, ptrdiff_t st, double *out,
                   const double *seed, double *g) {
  double *ret = gp_alloc((n + 1) * 8), *dret = gp_alloc((n + 1) * 8);
  double *dx = gp_alloc((n + 1) * 8), *dv = gp_alloc((n + 1) * 3 * 8);
  for (size_t b = 0; b < n; b++) {
    dx[b] = 0.0;
    dret[b] = seed[b * 4];
    memcpy(dv + b * 3, seed + b * 4 + 1, 3 * 8);
  }
  clip_grad(n, xs(n, in, st), in + 1, st, ret, dret, dx, dv, 3);
  for (size_t b = 0; b < n; b++) {
    out[b * 4] = ret[b];
    memcpy(out + b * 4 + 1, in + b * st + 1, 3 * 8);
    g[b * 4] = dx[b];
    memcpy(g + b * 4 + 1, dv + b * 3, 3 * 8);
  }
}
static double clip_gen(rng_t *r, int k, int ro) {
  if (k == 0)
    return -3.0 + 6.0 * rng_unit(r);
  return ro ? -2.0 + 3.0 * rng_unit(r) : -1.0 + 3.5 * rng_unit(r);
}

/* f(double x, double v[K]) returning a number, v read and written: flat
 * inputs x, v; outputs the result, v's final values (as clip). */
#define INPLACE(f, K)                                                          \
  static void f##_f(const double *in, double *out) {                           \
    double v[K];                                                               \
    memcpy(v, in + 1, sizeof v);                                               \
    out[0] = f(in[0], (void *)v);                                              \
    memcpy(out + 1, v, sizeof v);                                              \
  }                                                                            \
  static void f##_b(size_t n, double *in, ptrdiff_t st, double *out) {         \
    double *ret = gp_alloc((n + 1) * 8);                                       \
    f##_batched(n, xs(n, in, st), (void *)(in + 1), st, ret);                  \
    for (size_t b = 0; b < n; b++) {                                           \
      out[b * (K + 1)] = ret[b];                                               \
      memcpy(out + b * (K + 1) + 1, in + b * st + 1, K * 8);                   \
    }                                                                          \
  }                                                                            \
  static void f##_g(size_t n, double *in, ptrdiff_t st, double *out,           \
                    const double *seed, double *g) {                           \
    double *ret = gp_alloc((n + 1) * 8), *dret = gp_alloc((n + 1) * 8);        \
    double *dx = gp_alloc((n + 1) * 8), *dv = gp_alloc((n + 1) * K * 8);       \
    for (size_t b = 0; b < n; b++) {                                           \
      dx[b] = 0.0;                                                             \
      dret[b] = seed[b * (K + 1)];                                             \
      memcpy(dv + b * K, seed + b * (K + 1) + 1, K * 8);                       \
    }                                                                          \
    f##_grad(n, xs(n, in, st), (void *)(in + 1), st, ret, dret, dx,            \
             (void *)dv, K);                                                   \
    for (size_t b = 0; b < n; b++) {                                           \
      out[b * (K + 1)] = ret[b];                                               \
      memcpy(out + b * (K + 1) + 1, in + b * st + 1, K * 8);                   \
      g[b * (K + 1)] = dx[b];                                                  \
      memcpy(g + b * (K + 1) + 1, dv + b * K, K * 8);                          \
    }                                                                          \
  }
INPLACE(moon, 6)
INPLACE(ldsun, 3)
INPLACE(ldn, 3)
INPLACE(starpm, 3)
static double inplace_gen(rng_t *r, int k, int ro) {
  (void)k;
  (void)ro;
  return -1.5 + 3.0 * rng_unit(r);
}

static const gcase cases[] = {
    {"reads", 13, 1, reads_f, reads_b, reads_g, reads_gen},
    {"sq", 3, 4, sq_f, sq_b, sq_g, sq_gen},
    {"clip", 4, 4, clip_f, clip_b, clip_g, clip_gen},
};

/* In place: writable inputs only (the callees write them). */
static const gcase inplace[] = {
    {"moon", 7, 7, moon_f, moon_b, moon_g, inplace_gen},
    {"ldsun", 4, 4, ldsun_f, ldsun_b, ldsun_g, inplace_gen},
    {"ldn", 4, 4, ldn_f, ldn_b, ldn_g, inplace_gen},
    {"starpm", 4, 4, starpm_f, starpm_b, starpm_g, inplace_gen},
};

static void same_bits(const gcase *c, const char *what, size_t n, size_t b,
                      int k, double got, double want) {
  if (memcmp(&got, &want, sizeof got) != 0)
    fail_msg("%s %s n=%zu example %zu [%d]: %a, scalar %a", c->name, what, n, b,
             k, got, want);
}

/* The batch's inputs: example b's at in + b * st, the last one's last
 * element before a guard page (st 0: one example's, for all). */
static double *inputs(const gcase *c, size_t n, ptrdiff_t st,
                      const double *from) {
  size_t len = n ? (n - 1) * st + c->nin : 1;
  double *in = gp_alloc(len * 8);
  memcpy(in, from, len * 8);
  return in;
}

/* Mode 0: writable inputs at stride MAXIN; 1: read-only (the callees
 * leave them alone); 2: read-only, one array for all examples (stride 0,
 * reads only). */
static void check(const gcase *c, int mode) {
  rng_t r = {name_seed(c->name) + (uint64_t)mode};
  long checked = 0, points = 0;
  int ro = mode > 0;
  ptrdiff_t st = mode == 2 ? 0 : MAXIN;
  for (size_t n = 0; n <= 37; n += n < 9 ? 1 : 7) {
    size_t len = n ? (n - 1) * st + c->nin : 1;
    double *in0 = gp_alloc((len + 1) * 8);
    for (size_t e = 0; e < len; e++)
      in0[e] = c->gen(&r, (int)(st ? e % st : e), ro);
    /* The scalar function per example, on copies of its inputs. */
    double *want = gp_alloc((n + 1) * c->nout * 8);
    for (size_t b = 0; b < n; b++) {
      double e[MAXIN];
      memcpy(e, in0 + b * st, c->nin * 8);
      c->flat(e, want + b * c->nout);
    }
    double *in = inputs(c, n, st, in0);
    double *got = gp_alloc((n + 1) * c->nout * 8);
    if (ro)
      gp_seal(in);
    c->batched(n, in, st, got);
    for (size_t b = 0; b < n * c->nout; b++)
      same_bits(c, "batched", n, b / c->nout, (int)(b % c->nout), got[b],
                want[b]);
    /* Gradients: each output seeded alone. */
    double *seed = gp_alloc((n + 1) * c->nout * 8);
    double *g = gp_alloc((n + 1) * c->nin * 8);
    for (int o = 0; o < c->nout; o++) {
      for (size_t b = 0; b < n * c->nout; b++)
        seed[b] = b % c->nout == (size_t)o;
      in = inputs(c, n, st, in0);
      if (ro)
        gp_seal(in);
      c->grad(n, in, st, got, seed, g);
      for (size_t b = 0; b < n; b++) {
        for (int k = 0; k < c->nout; k++)
          same_bits(c, "grad's value", n, b, k, got[b * c->nout + k],
                    want[b * c->nout + k]);
        for (int k = 0; k < c->nin; k++) {
          double e[MAXIN], outp[MAXIN], outm[MAXIN], dd[3];
          for (int j = 0; j < 3; j++) {
            double h = 1e-3 / (1 << j);
            memcpy(e, in0 + b * st, c->nin * 8);
            e[k] += h;
            c->flat(e, outp);
            memcpy(e, in0 + b * st, c->nin * 8);
            e[k] -= h;
            c->flat(e, outm);
            dd[j] = (outp[o] - outm[o]) / (2 * h);
          }
          double r1 = (4 * dd[1] - dd[0]) / 3, r2 = (4 * dd[2] - dd[1]) / 3;
          double d = g[b * c->nin + k];
          points++;
          if (!isfinite(r2) || fabs(r1 - r2) > 1e-8 * (1 + fabs(r2)))
            continue; /* a kink */
          checked++;
          if (!(fabs(d - r2) <= 1e-6 * (1 + fabs(r2))))
            fail_msg("%s mode %d n=%zu example %zu: d out[%d] / d in[%d] "
                     "%.17g, differences %.17g",
                     c->name, mode, n, b, o, k, d, r2);
        }
      }
    }
    gp_reset();
  }
  if (checked * 2 < points)
    fail_msg("%s: %ld of %ld gradients checked", c->name, checked, points);
}

static void test_writable(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    check(&cases[i], 0);
}

static void test_read_only(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
    check(&cases[i], 1);
}

static void test_shared(void **state) {
  (void)state;
  check(&cases[0], 2);
}

static void test_in_place(void **state) {
  (void)state;
  for (size_t i = 0; i < sizeof inplace / sizeof inplace[0]; i++)
    check(&inplace[i], 0);
}

/* viabad: its file's promise lists lgi_viabad's, which lists lgi_bad's,
 * which its file does not define (lgi_bad reads p[0] after writing rp[0]):
 * NAME_grad reports it through the fail hook, before any shadow changes. */
static jmp_buf fail_jb;
static char fail_msg_buf[512];
static void *hook_alloc(size_t bytes, void *ctx) {
  (void)ctx;
  return malloc(bytes);
}
static void hook_free(void *p, void *ctx) {
  (void)ctx;
  free(p);
}
static void hook_fail(const char *msg, void *ctx) {
  (void)ctx;
  snprintf(fail_msg_buf, sizeof fail_msg_buf, "%s", msg);
  longjmp(fail_jb, 1);
}

static void test_in_place_unpromised(void **state) {
  (void)state;
  double x[3] = {0.5, -1.25, 2.0}, v[3][2] = {{1, 2}, {3, -1}, {0.5, 0.25}};
  double ret[3], want[3], dx[3] = {0, 0, 0}, dv[3][2] = {{0}};
  for (int b = 0; b < 3; b++) {
    double e[2] = {v[b][0], v[b][1]};
    want[b] = viabad(x[b], e);
  }
  viabad_batched(3, x, &v[0][0], 2, ret);
  for (int b = 0; b < 3; b++)
    assert_memory_equal(&ret[b], &want[b], sizeof ret[b]);
  bd_alloc_hooks h = {hook_alloc, hook_free, hook_fail, NULL};
  bd_set_alloc_hooks(&h);
  int failed = setjmp(fail_jb);
  if (!failed)
    viabad_grad(3, x, &v[0][0], 2, ret, NULL, dx, &dv[0][0], 2);
  bd_set_alloc_hooks(NULL);
  assert_true(failed);
  if (!strstr(fail_msg_buf, "batchdiff.inplace:lgi_viabad:0:1"))
    fail_msg("the failure: %s", fail_msg_buf);
  for (int b = 0; b < 3; b++)
    assert_true(dx[b] == 0.0 && dv[b][0] == 0.0 && dv[b][1] == 0.0);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_writable),
      cmocka_unit_test(test_read_only),
      cmocka_unit_test(test_shared),
      cmocka_unit_test(test_in_place),
      cmocka_unit_test(test_in_place_unpromised),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_lane_grad_inputs", tests, NULL,
                                     NULL);
}
