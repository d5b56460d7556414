/* Scratch memory from malloc/calloc/alloca set to a local pointer where it
 * is declared (docs/subset.md): the example's own memory, as a local
 * variable-length array. Values against the scalar function (bit for bit:
 * no math beyond sqrt), gradients against central differences of the
 * scalar function; sizes that differ between the lanes of a vector (0
 * among them), a calloc whose zeros are read, a pointer walking the memory,
 * the never-taken `if (!w)` error path and free. Inputs end at guard
 * pages. */
#include "exec_util.h"

#include "../common/test_filter.h"

#include <stdio.h>
#include <stdlib.h>

#define MAXN 12 /* elements per example in x (its stride) */

/* The usual shape: malloc, a test that aborts, two passes, free. */
BATCHDIFF double m_norm(int n, const double x[n], double a) {
  double *w = malloc(n * sizeof *w);
  if (!w) {
    fprintf(stderr, "out of memory\n");
    abort();
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    w[i] = a * x[i] - 1.0;
  for (int i = 0; i < n; i++)
    s += w[i] * w[i];
  free(w);
  return sqrt(s + 1.0);
}

/* calloc's zeros are read (every third element is never written); a
 * cast; float elements. */
BATCHDIFF float m_calloc(int n, const float x[n], float a) {
  float *t = (float *)calloc((size_t)n + 2, sizeof(float));
  for (int i = 0; i < n; i += 3)
    t[i + 1] = x[i] * a;
  float s = 0.0f;
  for (int i = 0; i < n + 2; i++)
    s += t[i] * (float)(i + 1);
  free(t);
  return s;
}

/* alloca of a constant size; walked by another pointer. */
BATCHDIFF double m_walk(int n, const double x[n], double a) {
  double *w = __builtin_alloca(4 * sizeof(double));
  double *q = w;
  for (int i = 0; i < 4; i++)
    *q++ = i < n ? x[i] * a : a;
  double p = 1.0;
  for (q = w; q < w + 4; q++)
    p *= *q + 2.0;
  return p;
}

/* ---- checks ------------------------------------------------------------- */

typedef double (*scal)(int, const double *, double);

static const size_t ns[] = {0, 1, WD - 1, WD, WD + 1, 2 * WF + 3, 100};
#define NNS (sizeof ns / sizeof ns[0])

/* Inputs for n examples: sizes 0..MAXN, x in [-2, 2], a in [0.5, 1.5]. */
static void inputs(rng_t *rng, size_t n, int *k, double *x, double *a) {
  for (size_t e = 0; e < n; e++) {
    k[e] = rng_below(rng, MAXN + 1);
    a[e] = rng_range(rng, 0.5, 1.5);
    for (int i = 0; i < MAXN; i++)
      x[e * MAXN + i] = rng_range(rng, -2, 2);
  }
}

static void check_double(const char *name, scal f,
                         void (*b)(size_t, const int *, const double *,
                                   ptrdiff_t, const double *, double *),
                         void (*g)(size_t, const int *, const double *,
                                   ptrdiff_t, const double *, double *,
                                   const double *, double *, ptrdiff_t,
                                   double *)) {
  rng_t rng = {name_seed(name)};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    int *k = gp_alloc(n * sizeof(int));
    double *x = gp_alloc(n * MAXN * 8), *a = gp_alloc(n * 8);
    double *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *dx = gp_alloc(n * MAXN * 8), *da = gp_alloc(n * 8);
    inputs(&rng, n, k, x, a);
    gp_seal(k), gp_seal(x), gp_seal(a);
    memset(dx, 0, n * MAXN * 8);
    memset(da, 0, n * 8);
    b(n, k, x, MAXN, a, r);
    g(n, k, x, MAXN, a, r2, NULL, dx, MAXN, da);
    for (size_t e = 0; e < n; e++) {
      const double *xe = x + e * MAXN;
      double s = f(k[e], xe, a[e]), h = 1e-6;
      same_result(name, e, r[e], s, 0);
      same_result(name, e, r2[e], s, 0);
      double fd = (f(k[e], xe, a[e] + h) - f(k[e], xe, a[e] - h)) / (2 * h);
      same_result(name, e, da[e], fd, 1e-6);
      double xc[MAXN];
      memcpy(xc, xe, sizeof xc);
      for (int i = 0; i < MAXN; i++) {
        xc[i] = xe[i] + h;
        double up = f(k[e], xc, a[e]);
        xc[i] = xe[i] - h;
        double dn = f(k[e], xc, a[e]);
        xc[i] = xe[i];
        same_result(name, e, dx[e * MAXN + i], (up - dn) / (2 * h), 1e-6);
      }
    }
    gp_reset();
  }
}

static void t_norm(void **state) {
  (void)state, check_double("m_norm", m_norm, m_norm_batched, m_norm_grad);
}
static void t_walk(void **state) {
  (void)state, check_double("m_walk", m_walk, m_walk_batched, m_walk_grad);
}

static void t_calloc(void **state) {
  (void)state;
  rng_t rng = {name_seed("m_calloc")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    int *k = gp_alloc(n * sizeof(int));
    double *xd = malloc(n * MAXN * 8 + 8), *ad = malloc(n * 8 + 8);
    inputs(&rng, n, k, xd, ad);
    float *x = gp_alloc(n * MAXN * 4), *a = gp_alloc(n * 4);
    float *r = gp_alloc(n * 4), *dx = gp_alloc(n * MAXN * 4),
          *da = gp_alloc(n * 4);
    for (size_t e = 0; e < n * MAXN; e++)
      x[e] = (float)xd[e];
    for (size_t e = 0; e < n; e++)
      a[e] = (float)ad[e];
    gp_seal(k), gp_seal(x), gp_seal(a);
    memset(dx, 0, n * MAXN * 4);
    memset(da, 0, n * 4);
    m_calloc_batched(n, k, x, MAXN, a, r);
    m_calloc_grad(n, k, x, MAXN, a, NULL, NULL, dx, MAXN, da);
    for (size_t e = 0; e < n; e++) {
      const float *xe = x + e * MAXN;
      same_result("m_calloc", e, r[e], m_calloc(k[e], xe, a[e]), 0);
      /* linear in a: the gradient is the sum over written elements */
      double want = 0;
      for (int i = 0; i < k[e]; i += 3)
        want += (double)xe[i] * (i + 2);
      same_result("m_calloc d_a", e, da[e], want, 1e-5);
      for (int i = 0; i < MAXN; i++)
        same_result("m_calloc d_x", e, dx[e * MAXN + i],
                    i < k[e] && i % 3 == 0 ? (double)a[e] * (i + 2) : 0.0,
                    1e-5);
    }
    free(xd), free(ad);
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {cmocka_unit_test(t_norm),
                                     cmocka_unit_test(t_calloc),
                                     cmocka_unit_test(t_walk)};
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_local_malloc", tests, NULL, NULL);
}
