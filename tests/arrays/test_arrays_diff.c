/* Differential tests of array parameters: NAME_batched against a loop over
 * the scalar NAME, bit for bit (any NaN matches any NaN), for static and
 * dynamic extents, uniform and varying arrays, output and in-out arrays,
 * ragged batches (n[b] differs per example, including 0), strides larger
 * than the extent, stride 0 for a varying input, int elements, and every
 * batch size of arr_ns. Every example's data ends right before a PROT_NONE
 * page (arrays_util.h, LAY_EACH), so touching x[n[b]] of any example
 * faults; every other accessible element (gaps between examples, elements
 * past n[b] of outputs) must keep its sentinel. */
#include "arrays_util.h"
#include "../common/test_filter.h"

/* ---- the functions ------------------------------------------------------ */

/* static extent, declared */
BATCHDIFF double sum3(const double x[3]) {
  return x[0] * 2.0 + x[1] * x[2] - x[0] * x[2];
}
/* static extents, [static N], two arrays */
BATCHDIFF float dot4s(const float v[static 4], const float w[static 4]) {
  float s = v[0] * w[0] + v[1] * w[1];
  if (s > v[2])
    s = s - v[3] * w[3];
  return s + v[2] * w[2];
}
/* static extent from constant indices, plus a varying scalar */
BATCHDIFF double polyc(const double *c, double t) {
  return c[0] + t * (c[1] + t * c[2]);
}
/* dynamic extent, declared VLA parameter; branch per element */
BATCHDIFF double sumvla(int n, const double x[n]) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    if (x[i] > s)
      s = x[i] * 0.5 + s;
    else
      s -= x[i] * x[i];
  }
  return s;
}
/* dynamic from a loop bound, uniform weights */
BATCHDIFF float dotw(const float *x, BD_UNIFORM const float *w, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += x[i] > 0.0f ? x[i] * w[i] : 0.5f * x[i];
  return s;
}
/* varying output array */
BATCHDIFF void scale(const double *x, double *y, double a, int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + x[i] * x[i];
}
/* in-out array */
BATCHDIFF void axpy(double *y, const double *x, double a, int n) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}
/* int elements, int return (batch only) */
__attribute__((batch)) int isum(const int *k, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += k[i] * (i % 5 + 1) - (k[i] > 3 ? 7 : 0);
  return s;
}
/* int and float elements, uniform extent (no mask needed) */
BATCHDIFF float fimix(const int *k, const float *x, BD_UNIFORM int n) {
  float s = 1.0f;
  for (int i = 0; i < n; i++)
    s = s * 0.75f + (float)k[i] * x[i];
  return s;
}
/* int output array */
__attribute__((batch)) void iscale(const int *k, int *o, int n) {
  for (int i = 0; i < n; i++)
    o[i] = k[i] * 3 - i;
}

/* ---- adapters ----------------------------------------------------------- */

/* A: varying arrays (in order of the parameters), S: their strides, U:
 * uniform arrays, n: per-example extents, a: the varying double scalar. */
typedef void (*bfn_t)(size_t nb, void *const *A, const ptrdiff_t *S,
                      void *const *U, const int *n, const double *a,
                      void *ret);
/* Example b: A[j] points at its data. */
typedef void (*sfn_t)(void *const *A, void *const *U, int n, double a,
                      void *ret);

#define BF(name) static void b_##name(size_t nb, void *const *A, const ptrdiff_t *S, void *const *U, const int *n, const double *a, void *ret)
#define SF(name) static void s_##name(void *const *A, void *const *U, int n, double a, void *ret)

BF(sum3) { (void)U, (void)n, (void)a; sum3_batched(nb, A[0], S[0], ret); }
SF(sum3) { (void)U, (void)n, (void)a; *(double *)ret = sum3(A[0]); }
BF(dot4s) { (void)U, (void)n, (void)a; dot4s_batched(nb, A[0], S[0], A[1], S[1], ret); }
SF(dot4s) { (void)U, (void)n, (void)a; *(float *)ret = dot4s(A[0], A[1]); }
BF(polyc) { (void)U, (void)n; polyc_batched(nb, A[0], S[0], a, ret); }
SF(polyc) { (void)U, (void)n; *(double *)ret = polyc(A[0], a); }
BF(sumvla) { (void)U, (void)a; sumvla_batched(nb, n, A[0], S[0], ret); }
SF(sumvla) { (void)U, (void)a; *(double *)ret = sumvla(n, A[0]); }
BF(dotw) { (void)a; dotw_batched(nb, A[0], S[0], U[0], n, ret); }
SF(dotw) { (void)a; *(float *)ret = dotw(A[0], U[0], n); }
BF(scale) { (void)U, (void)ret; scale_batched(nb, A[0], S[0], A[1], S[1], a, n); }
SF(scale) { (void)U, (void)ret; scale(A[0], A[1], a, n); }
BF(axpy) { (void)U, (void)ret; axpy_batched(nb, A[0], S[0], A[1], S[1], a, n); }
SF(axpy) { (void)U, (void)ret; axpy(A[0], A[1], a, n); }
BF(isum) { (void)U, (void)a; isum_batched(nb, A[0], S[0], n, ret); }
SF(isum) { (void)U, (void)a; *(int *)ret = isum(A[0], n); }
BF(fimix) { (void)U, (void)a; fimix_batched(nb, A[0], S[0], A[1], S[1], nb ? n[0] : 0, ret); }
SF(fimix) { (void)U, (void)a; *(float *)ret = fimix(A[0], A[1], n); }
BF(iscale) { (void)U, (void)a, (void)ret; iscale_batched(nb, A[0], S[0], A[1], S[1], n); }
SF(iscale) { (void)U, (void)a, (void)ret; iscale(A[0], A[1], n); }

/* ---- the runner ------------------------------------------------------------ */

enum { EXT_STATIC, EXT_RAGGED, EXT_UNIFORM };
#define MAXA 3

typedef struct {
  const char *name;
  int nvar;            /* varying arrays */
  int kind[MAXA];      /* element kinds of the varying arrays */
  int out[MAXA];       /* 1: written by the function */
  int nuni;            /* uniform input arrays (kind ukind) */
  int ukind;
  int ret;             /* return kind, 0 for void */
  int ext_mode;
  int static_ext;      /* EXT_STATIC */
  bfn_t batched;
  sfn_t scalar;
} dcase;

static size_t ksz(int k) { return k == K_D ? 8 : 4; }

static void gen_el(rng_t *r, int kind, void *dst) {
  if (kind == K_D) {
    double v = gen_d(r);
    memcpy(dst, &v, 8);
  } else if (kind == K_F) {
    float v = gen_f(r);
    memcpy(dst, &v, 4);
  } else { /* small ints: the functions' int arithmetic must not overflow */
    int v = rng_below(r, 21) - 10;
    memcpy(dst, &v, 4);
  }
}

static void print_el(const char *what, const void *p, int kind) {
  if (kind == K_D)
    PV(what, *(const double *)p);
  else if (kind == K_F)
    PV(what, *(const float *)p);
  else
    print_error("%s=%d ", what, *(const int *)p);
}

/* Layout variants per (n, rep):
 *   STATIC: rep 0 dense (stride = extent, guard after the last example),
 *           rep 1 page-aligned ends (stride 2 pages), rep 2 stride extent+3
 *           with sentinel gaps.
 *   RAGGED / UNIFORM: per-example guards, stride m pages - d; ext from
 *           (b*d - off) mod P + k*P; rep picks (d, off, kmax). */
static const struct {
  size_t d, off_from_end; /* off = P - off_from_end (mod P) */
  int kmax;
} rag_reps[] = {
    {1, 0, 0},  /* ext[b] = b: 0, 1, 2, ... */
    {1, 3, 0},  /* b + 3 */
    {2, 1, 0},  /* 2b + 1 */
    {0, 0, 1},  /* 0 or P: all lanes alike or not */
    {3, 5, 1},  /* 3b + 5 + k P */
    {0, 7, 0},  /* 7 everywhere */
    {0, 0, 0},  /* 0 everywhere */
    {5, 2, 1},
};
#define N_RAG (sizeof rag_reps / sizeof rag_reps[0])

static void run_dcase(const dcase *c) {
  rng_t rng = {name_seed(c->name)};
  gp_reset();
  int nrep = c->ext_mode == EXT_STATIC ? 3 : (int)N_RAG;
  for (size_t ni = 0; ni < N_ARR_NS; ni++) {
    size_t nb = arr_ns[ni];
    for (int rep = 0; rep < nrep; rep++) {
      int *ext = gp_alloc((nb ? nb : 1) * sizeof(int));
      lay_t L[MAXA];
      size_t P = lay_P(ksz(c->kind[0]));
      for (int j = 1; j < c->nvar; j++)
        assert_int_equal(ksz(c->kind[j]), ksz(c->kind[0]));
      ptrdiff_t S;
      size_t off = 0;
      int mode;
      if (c->ext_mode == EXT_STATIC) {
        int E = c->static_ext;
        for (size_t b = 0; b < nb; b++)
          ext[b] = E;
        if (rep == 0) {
          S = E, mode = LAY_END;
        } else if (rep == 1) {
          S = (ptrdiff_t)(2 * P), mode = LAY_EACH, off = P - (size_t)E;
        } else {
          S = E + 3, mode = LAY_END;
        }
      } else {
        size_t d = rag_reps[rep].d;
        off = (P - rag_reps[rep].off_from_end) % P;
        int kmax = rag_reps[rep].kmax;
        if (c->ext_mode == EXT_UNIFORM)
          d = 0; /* same extent for everyone */
        lay_ragged_ext(ksz(c->kind[0]), nb, d, off, kmax, &rng, ext);
        if (c->ext_mode == EXT_UNIFORM)
          for (size_t b = 1; b < nb; b++)
            ext[b] = ext[0];
        S = (ptrdiff_t)((size_t)(kmax + 3) * P - d);
        mode = LAY_EACH;
      }
      gp_seal(ext);
      int maxext = 0;
      for (size_t b = 0; b < nb; b++)
        maxext = ext[b] > maxext ? ext[b] : maxext;

      void *A[MAXA], *RA[MAXA];
      ptrdiff_t Sv[MAXA];
      for (int j = 0; j < c->nvar; j++) {
        lay_make(&L[j], ksz(c->kind[j]), nb, S, ext, off, mode);
        for (size_t b = 0; b < nb; b++)
          for (int i = 0; i < ext[b]; i++)
            gen_el(&rng, c->kind[j],
                   (char *)L[j].p + ((ptrdiff_t)b * S + i) * (ptrdiff_t)L[j].esz);
        lay_snapshot(&L[j]);
        if (!c->out[j])
          lay_seal(&L[j]);
        A[j] = L[j].p;
        Sv[j] = S;
      }
      void *U[MAXA];
      for (int j = 0; j < c->nuni; j++) {
        U[j] = gp_alloc((size_t)maxext * ksz(c->ukind));
        for (int i = 0; i < maxext; i++)
          gen_el(&rng, c->ukind, (char *)U[j] + (size_t)i * ksz(c->ukind));
        gp_seal(U[j]);
      }
      double *a = gp_alloc(nb * sizeof(double));
      for (size_t b = 0; b < nb; b++)
        a[b] = gen_d(&rng);
      gp_seal(a);
      size_t rsz = c->ret ? ksz(c->ret) : 1;
      char *ret = gp_alloc(nb * rsz);
      memset(ret, 0x5A, nb * rsz);

      c->batched(nb, A, Sv, U, ext, a, ret);

      char want[8];
      for (size_t b = 0; b < nb; b++) {
        for (int j = 0; j < c->nvar; j++)
          RA[j] = LAY_REF(&L[j], b);
        c->scalar(RA, U, ext[b], a[b], want);
        if (c->ret && !el_same(ret + b * rsz, want, c->ret)) {
          print_error("%s_batched: n=%zu rep=%d example %zu (extent %d, "
                      "stride %td): ",
                      c->name, nb, rep, b, ext[b], S);
          print_el("got", ret + b * rsz, c->ret);
          print_el("want", want, c->ret);
          print_error("\n");
          fail();
        }
      }
      for (int j = 0; j < c->nvar; j++) {
        long e = lay_cmp(&L[j], c->kind[j]);
        if (e >= 0) {
          long rel = e - (long)L[j].off;
          long b = S ? (rel < 0 ? -1 : rel / S) : 0;
          long i = rel - b * S;
          print_error("%s_batched: n=%zu rep=%d array %d: element %ld of "
                      "example %ld (extent %d, stride %td) %s: ",
                      c->name, nb, rep, j, i, b,
                      b >= 0 && (size_t)b < nb ? ext[b] : -1, S,
                      b >= 0 && (size_t)b < nb && i < ext[b]
                          ? "differs from the scalar loop"
                          : "outside every extent was changed");
          print_el("got", L[j].m.map + (size_t)e * L[j].esz, c->kind[j]);
          print_el("want", L[j].ref + (size_t)e * L[j].esz, c->kind[j]);
          print_error("\n");
          fail();
        }
        lay_free(&L[j]);
      }
      gp_reset();
    }
  }
}

#define DT(nm, ...)                                                            \
  static const dcase c_##nm = {#nm, __VA_ARGS__, b_##nm, s_##nm};              \
  static void t_##nm(void **st) {                                              \
    (void)st;                                                                  \
    run_dcase(&c_##nm);                                                        \
  }

/*    name    nvar kinds          out      nuni ukind ret  ext_mode  static */
DT(sum3,   1, {K_D},         {0},     0, 0,   K_D, EXT_STATIC, 3)
DT(dot4s,  2, {K_F, K_F},    {0, 0},  0, 0,   K_F, EXT_STATIC, 4)
DT(polyc,  1, {K_D},         {0},     0, 0,   K_D, EXT_STATIC, 3)
DT(sumvla, 1, {K_D},         {0},     0, 0,   K_D, EXT_RAGGED, 0)
DT(dotw,   1, {K_F},         {0},     1, K_F, K_F, EXT_RAGGED, 0)
DT(scale,  2, {K_D, K_D},    {0, 1},  0, 0,   0,   EXT_RAGGED, 0)
DT(axpy,   2, {K_D, K_D},    {1, 0},  0, 0,   0,   EXT_RAGGED, 0)
DT(isum,   1, {K_I},         {0},     0, 0,   K_I, EXT_RAGGED, 0)
DT(fimix,  2, {K_I, K_F},    {0, 0},  0, 0,   K_F, EXT_UNIFORM, 0)
DT(iscale, 2, {K_I, K_I},    {0, 1},  0, 0,   0,   EXT_RAGGED, 0)

/* ---- stride 0 for a varying input ---------------------------------------- */

/* Every example reads the same array x (ending at a guard page), each up
 * to its own n[b]; one of them reads all of it. */
static void t_stride0(void **st) {
  (void)st;
  rng_t rng = {name_seed("stride0")};
  for (size_t ni = 0; ni < N_ARR_NS; ni++) {
    size_t nb = arr_ns[ni];
    for (int rep = 0; rep < 4; rep++) {
      int len = rep == 0 ? 0 : rng_below(&rng, 40) + 1;
      double *x = gp_alloc((size_t)len * sizeof(double));
      float *xf = gp_alloc((size_t)len * sizeof(float));
      float *w = gp_alloc((size_t)len * sizeof(float));
      for (int i = 0; i < len; i++) {
        x[i] = gen_d(&rng);
        xf[i] = gen_f(&rng);
        w[i] = gen_f(&rng);
      }
      gp_seal(x), gp_seal(xf), gp_seal(w);
      int *n = gp_alloc(nb * sizeof(int));
      for (size_t b = 0; b < nb; b++)
        n[b] = b == nb / 2 ? len : rng_below(&rng, len + 1);
      gp_seal(n);
      double *r = gp_alloc(nb * sizeof(double));
      float *rf = gp_alloc(nb * sizeof(float));
      sumvla_batched(nb, n, x, 0, r);
      dotw_batched(nb, xf, 0, w, n, rf);
      for (size_t b = 0; b < nb; b++) {
        double want = sumvla(n[b], x);
        float wantf = dotw(xf, w, n[b]);
        if (!el_same(&r[b], &want, K_D) || !el_same(&rf[b], &wantf, K_F)) {
          print_error("stride 0: n=%zu b=%zu n[b]=%d: ", nb, b, n[b]);
          PV("sumvla", r[b]);
          PV("want", want);
          PV("dotw", rf[b]);
          PV("want", wantf);
          print_error("\n");
          fail();
        }
      }
      /* An output written with stride 0 by a batch of one is allowed
       * (exactly one example writes it). */
      gp_reset();
    }
  }
}

/* ---- negative strides: examples laid out backwards ------------------------ */

static void t_negstride(void **st) {
  (void)st;
  rng_t rng = {name_seed("negstride")};
  for (size_t ni = 0; ni < N_ARR_NS; ni++) {
    size_t nb = arr_ns[ni];
    enum { SS = 5 }; /* stride -5, extent 3 or up to 5 */
    double *x = gp_alloc((nb ? nb : 1) * SS * sizeof(double));
    float *xf = gp_alloc((nb ? nb : 1) * SS * sizeof(float));
    float *w = gp_alloc(SS * sizeof(float));
    for (size_t i = 0; i < (nb ? nb : 1) * SS; i++)
      x[i] = gen_d(&rng), xf[i] = gen_f(&rng);
    for (int i = 0; i < SS; i++)
      w[i] = gen_f(&rng);
    int *n = gp_alloc(nb * sizeof(int));
    for (size_t b = 0; b < nb; b++)
      n[b] = rng_below(&rng, SS + 1);
    gp_seal(x), gp_seal(xf), gp_seal(w), gp_seal(n);
    /* example b at last - b * SS: example 0 is the last block */
    const double *x0 = x + (nb ? nb - 1 : 0) * SS;
    const float *xf0 = xf + (nb ? nb - 1 : 0) * SS;
    double *r = gp_alloc(nb * sizeof(double));
    float *rf = gp_alloc(nb * sizeof(float));
    sum3_batched(nb, x0, -SS, r);
    dotw_batched(nb, xf0, -SS, w, n, rf);
    for (size_t b = 0; b < nb; b++) {
      double want = sum3(x0 - (ptrdiff_t)b * SS);
      float wantf = dotw(xf0 - (ptrdiff_t)b * SS, w, n[b]);
      if (!el_same(&r[b], &want, K_D) || !el_same(&rf[b], &wantf, K_F)) {
        print_error("negative stride: n=%zu b=%zu: ", nb, b);
        PV("sum3", r[b]);
        PV("want", want);
        PV("dotw", rf[b]);
        PV("want", wantf);
        print_error("\n");
        fail();
      }
    }
    gp_reset();
  }
}

/* ---- a uniform array shorter than a lane's reach --------------------------
 * dotw's w has only max(n[b]) elements, ending at a guard page: covered in
 * run_dcase (U arrays are gp_alloc'd with exactly maxext elements). */

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_sum3),   cmocka_unit_test(t_dot4s),
      cmocka_unit_test(t_polyc),  cmocka_unit_test(t_sumvla),
      cmocka_unit_test(t_dotw),   cmocka_unit_test(t_scale),
      cmocka_unit_test(t_axpy),   cmocka_unit_test(t_isum),
      cmocka_unit_test(t_fimix),  cmocka_unit_test(t_iscale),
      cmocka_unit_test(t_stride0), cmocka_unit_test(t_negstride),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
