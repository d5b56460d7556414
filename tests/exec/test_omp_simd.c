/* Loops under '#pragma omp simd' in batch, diff functions, compiled with
 * -fopenmp-simd (before: "an OpenMP directive ('#pragma omp') is not
 * supported"). NAME_batched runs the examples in SIMD lanes itself, so the
 * pragma's loop is lowered as the plain loop, in source order for each
 * example (docs/subset.md). Covered: reduction(+), reduction(max) and an
 * int reduction, private (the variable outside the loop keeps its value),
 * linear on the loop's counter with lastprivate, aligned / safelen /
 * simdlen, collapse(2) in an inlined helper, nested loops with the pragma
 * on the inner one, per-example trip counts, variables and a local array
 * declared inside the loop; and loop hints (#pragma clang loop, #pragma
 * unroll; clang ignores #pragma GCC ivdep). For n in test_ns: NAME_batched's
 * values and NAME_grad's ret are, bit for bit, those of the loop in source
 * order: the scalar function itself where its loop has no reduction; where it
 * has one, the same function compiled without the pragma (_ref), since clang
 * may vectorize the scalar loop under the pragma and add in another order
 * (docs/abi.md): the scalar function is checked against that reference
 * within 1e-11 relative. Gradients agree with Richardson central
 * differences of the reference (fd_check). */
#include "exec_fd.h"
#include "exec_util.h"

#include "../common/test_filter.h"

#include <math.h>
#include <string.h>

#define MAXN 9 /* per-example trip counts 0 .. MAXN */

/* Reduction with a start that is not 0, a trip count per example, hints;
 * dotn_ref is the same loop without the pragma. */
BATCHDIFF double dotn(int n, const double *x, const double *w) {
  double acc = 0.5;
#pragma omp simd reduction(+ : acc) aligned(x, w : 8) safelen(8) simdlen(4)
  for (int i = 0; i < n; i++)
    acc += x[i] * w[i];
  return acc * acc;
}
static double dotn_ref(int n, const double *x, const double *w) {
  double acc = 0.5;
  for (int i = 0; i < n; i++)
    acc += x[i] * w[i];
  return acc * acc;
}

/* Nested loops, the pragma on the inner one: private(t) (t is 7 again
 * after each loop), a variable and an array declared inside the loops. */
BATCHDIFF double nest(const double a[12], const double v[4]) {
  double s = 0, t = 7.0;
  for (int r = 0; r < 3; r++) {
    double row[4];
#pragma omp simd private(t)
    for (int c = 0; c < 4; c++) {
      t = a[4 * r + c] * v[c];
      double q = t * t;
      row[c] = q / (1.0 + q) + t;
    }
    s += (row[0] + row[1]) * (row[2] - row[3]);
  }
  return s * t;
}

/* linear on the loop's own counter (8 after the loop), lastprivate. */
BATCHDIFF double lin(const double x[8], double k) {
  int i;
  double last = 0;
#pragma omp simd linear(i : 1) lastprivate(last)
  for (i = 0; i < 8; i++)
    last = x[i] * k + i;
  return last * k + i;
}

/* reduction(max) read by its update, and an int reduction, over a VLA
 * parameter of a per-example length. */
BATCHDIFF double maxcnt(int n, const double x[n]) {
  double m = 0;
  int cnt = 0;
#pragma omp simd reduction(max : m) reduction(+ : cnt)
  for (int i = 0; i < n; i++) {
    double a = fabs(x[i]);
    m = a > m ? a : m;
    cnt += a > 1.0;
  }
  return m * cnt + m;
}

/* collapse(2) in a helper the batch function inlines (hsum_ref: the same
 * loops without the pragma). */
static double hsum(const double *a, int rows, double k) {
  double s = 0;
#pragma omp simd collapse(2) reduction(+ : s)
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < 3; c++)
      s += a[3 * r + c] * k;
  return s;
}
static double hsum_ref(const double *a, int rows, double k) {
  double s = 0;
  for (int r = 0; r < rows; r++)
    for (int c = 0; c < 3; c++)
      s += a[3 * r + c] * k;
  return s;
}
BATCHDIFF double coll(const double a[6], double k) {
  return hsum(a, 2, k) + 1.0 / (1.0 + k * k);
}
static double coll_ref(const double a[6], double k) {
  return hsum_ref(a, 2, k) + 1.0 / (1.0 + k * k);
}

/* Loop hints: kept by clang for the scalar function, ignored here. */
BATCHDIFF double hints(const double x[4], const double y[4]) {
  double p[4], s = 1.0;
#pragma clang loop vectorize(enable) interleave(disable)
  for (int i = 0; i < 4; i++)
    p[i] = x[i] * y[i];
#pragma unroll 2
  for (int i = 0; i < 4; i++)
    p[i] += x[i];
#pragma clang loop unroll(full)
  for (int i = 0; i < 4; i++)
    s = s * 0.5 + p[i];
  return s;
}

/* Every case as a function of NP doubles per example (the arrays one after
 * the other) and a trip count. */
typedef struct {
  const char *name;
  int np;
  int ragged; /* n in 0 .. MAXN per example (else unused) */
  double (*ref)(const double *p, int n);
  double (*scalar)(const double *p, int n);
  double tol; /* scalar against ref: 0 = bit for bit */
  void (*batched)(size_t N, const double *P, const int *ns, double *ret);
  void (*grad)(size_t N, const double *P, const int *ns, double *ret,
               double *dP);
} ocase;

#define S(np) (ptrdiff_t)(np)
static double dotn_s(const double *p, int n) { return dotn(n, p, p + 9); }
static double dotn_r(const double *p, int n) { return dotn_ref(n, p, p + 9); }
static void dotn_b(size_t N, const double *P, const int *ns, double *ret) {
  dotn_batched(N, ns, P, S(18), P + 9, S(18), ret);
}
static void dotn_g(size_t N, const double *P, const int *ns, double *ret,
                   double *dP) {
  dotn_grad(N, ns, P, S(18), P + 9, S(18), ret, NULL, dP, S(18), dP + 9, S(18));
}

static double nest_s(const double *p, int n) {
  (void)n;
  return nest(p, p + 12);
}
static void nest_b(size_t N, const double *P, const int *ns, double *ret) {
  (void)ns;
  nest_batched(N, P, S(16), P + 12, S(16), ret);
}
static void nest_g(size_t N, const double *P, const int *ns, double *ret,
                   double *dP) {
  (void)ns;
  nest_grad(N, P, S(16), P + 12, S(16), ret, NULL, dP, S(16), dP + 12, S(16));
}

/* k = p[8]: a scalar parameter, its values one per example (stride 9
 * here: gathered by the wrappers below). */
static double lin_s(const double *p, int n) {
  (void)n;
  return lin(p, p[8]);
}
static void lin_b(size_t N, const double *P, const int *ns, double *ret) {
  (void)ns;
  double *k = malloc((N + 1) * sizeof *k);
  for (size_t b = 0; b < N; b++)
    k[b] = P[9 * b + 8];
  lin_batched(N, P, S(9), k, ret);
  free(k);
}
static void lin_g(size_t N, const double *P, const int *ns, double *ret,
                  double *dP) {
  (void)ns;
  double *k = malloc((N + 1) * sizeof *k), *dk = calloc(N + 1, sizeof *dk);
  for (size_t b = 0; b < N; b++)
    k[b] = P[9 * b + 8];
  lin_grad(N, P, S(9), k, ret, NULL, dP, S(9), dk);
  for (size_t b = 0; b < N; b++)
    dP[9 * b + 8] += dk[b];
  free(k);
  free(dk);
}

static double maxcnt_s(const double *p, int n) { return maxcnt(n, p); }
static void maxcnt_b(size_t N, const double *P, const int *ns, double *ret) {
  maxcnt_batched(N, ns, P, S(9), ret);
}
static void maxcnt_g(size_t N, const double *P, const int *ns, double *ret,
                     double *dP) {
  maxcnt_grad(N, ns, P, S(9), ret, NULL, dP, S(9));
}

static double coll_s(const double *p, int n) {
  (void)n;
  return coll(p, p[6]);
}
static double coll_r(const double *p, int n) {
  (void)n;
  return coll_ref(p, p[6]);
}
static void coll_b(size_t N, const double *P, const int *ns, double *ret) {
  (void)ns;
  double *k = malloc((N + 1) * sizeof *k);
  for (size_t b = 0; b < N; b++)
    k[b] = P[7 * b + 6];
  coll_batched(N, P, S(7), k, ret);
  free(k);
}
static void coll_g(size_t N, const double *P, const int *ns, double *ret,
                   double *dP) {
  (void)ns;
  double *k = malloc((N + 1) * sizeof *k), *dk = calloc(N + 1, sizeof *dk);
  for (size_t b = 0; b < N; b++)
    k[b] = P[7 * b + 6];
  coll_grad(N, P, S(7), k, ret, NULL, dP, S(7), dk);
  for (size_t b = 0; b < N; b++)
    dP[7 * b + 6] += dk[b];
  free(k);
  free(dk);
}

static double hints_s(const double *p, int n) {
  (void)n;
  return hints(p, p + 4);
}
static void hints_b(size_t N, const double *P, const int *ns, double *ret) {
  (void)ns;
  hints_batched(N, P, S(8), P + 4, S(8), ret);
}
static void hints_g(size_t N, const double *P, const int *ns, double *ret,
                    double *dP) {
  (void)ns;
  hints_grad(N, P, S(8), P + 4, S(8), ret, NULL, dP, S(8), dP + 4, S(8));
}

typedef struct {
  const ocase *c;
  const double *p;
  int n, j;
} fd_ctx;

static double fd_at(double x, const void *ctx) {
  const fd_ctx *f = ctx;
  double p[32];
  memcpy(p, f->p, (size_t)f->c->np * sizeof p[0]);
  p[f->j] = x;
  return f->c->ref(p, f->n);
}

static void same_bits(const char *what, size_t N, size_t b, double got,
                      double want) {
  if (memcmp(&got, &want, sizeof got) != 0 && !(isnan(got) && isnan(want)))
    fail_msg("%s N=%zu example %zu: %a, expected %a", what, N, b, got, want);
}

static void run(const ocase *c, size_t min_fd) {
  rng_t r = {name_seed(c->name)};
  fd_count fc = {0, 64};
  size_t np = (size_t)c->np;
  for (size_t t = 0; t < N_TEST_NS; t++) {
    size_t N = test_ns[t];
    double *P = malloc((N * np + 1) * sizeof *P);
    double *dP = calloc(N * np + 1, sizeof *dP);
    double *ret = gp_alloc((N + 1) * sizeof(double)),
           *ret2 = malloc((N + 1) * 8);
    int *ns = malloc((N + 1) * sizeof *ns);
    for (size_t b = 0; b < N; b++) {
      for (size_t j = 0; j < np; j++)
        P[b * np + j] = rng_range(&r, -2.0, 2.0);
      ns[b] = c->ragged ? (int)rng_below(&r, MAXN + 1) : 0;
    }
    c->batched(N, P, ns, ret);
    c->grad(N, P, ns, ret2, dP);
    for (size_t b = 0; b < N; b++) {
      const double *p = P + b * np;
      double want = c->ref(p, ns[b]), s = c->scalar(p, ns[b]);
      same_bits(c->name, N, b, ret[b], want);
      same_bits(c->name, N, b, ret2[b], want);
      if (c->tol == 0)
        same_bits(c->name, N, b, s, want);
      else if (!(fabs(s - want) <= c->tol * (1 + fabs(want))))
        fail_msg("%s example %zu: scalar %a, in source order %a", c->name, b, s,
                 want);
      if (N > 40 && b % 8) // (the gradient of a few of the 1000)
        continue;
      for (size_t j = 0; j < np; j++) {
        fd_ctx f = {c, p, ns[b], (int)j};
        fd_check(&fc, c->name, fd_at, &f, p[j], dP[b * np + j]);
      }
    }
    free(P);
    free(dP);
    free(ret2);
    free(ns);
    gp_reset();
  }
  fd_expect(&fc, c->name, min_fd);
}

static const ocase cases[] = {
    {"dotn", 18, 1, dotn_r, dotn_s, 1e-11, dotn_b, dotn_g},
    {"nest", 16, 0, nest_s, nest_s, 0, nest_b, nest_g},
    {"lin", 9, 0, lin_s, lin_s, 0, lin_b, lin_g},
    {"maxcnt", 9, 1, maxcnt_s, maxcnt_s, 0, maxcnt_b, maxcnt_g},
    {"coll", 7, 0, coll_r, coll_s, 1e-11, coll_b, coll_g},
    {"hints", 8, 0, hints_s, hints_s, 0, hints_b, hints_g},
};

static void test_dotn(void **state) {
  (void)state;
  run(&cases[0], 1000);
}
static void test_nest(void **state) {
  (void)state;
  run(&cases[1], 1000);
}
static void test_lin(void **state) {
  (void)state;
  run(&cases[2], 1000);
}
static void test_maxcnt(void **state) {
  (void)state;
  run(&cases[3], 300);
}
static void test_coll(void **state) {
  (void)state;
  run(&cases[4], 500);
}
static void test_hints(void **state) {
  (void)state;
  run(&cases[5], 500);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_dotn), cmocka_unit_test(test_nest),
      cmocka_unit_test(test_lin),  cmocka_unit_test(test_maxcnt),
      cmocka_unit_test(test_coll), cmocka_unit_test(test_hints),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_omp_simd", tests, NULL, NULL);
}
