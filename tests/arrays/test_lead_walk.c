/* Walks that extent inference finds without a declared extent: a pointer
 * set from the array parameter (`p = c;`, also in K&R definitions), read by
 * `*p++` before a loop and once per iteration of a loop counted down by a
 * local copy of an integer parameter (Cephes' polevl, p1evl and chbevl
 * shapes, written here anew: `i = N; do ... while (--i);`, and `while
 * (i--)`, `for (; i > 0; i--)`, `for (i = n; i-- > 0;)`; docs/subset.md).
 *   - the functions as such code declares them (`double c[]`, K&R):
 *     strided batches whose last example ends at a guard page, gaps
 *     between examples left as they were; each example alone with its
 *     array right before a guard page; the table shared (stride 0);
 *   - the same bodies on BD_PACKED arrays, each example's last element
 *     right before a guard page, its length the extent the remarks state
 *     (also `c[0]` besides a walk of n: max(n, 1), n = 0 included);
 *   - NAME_batched bit for bit the scalar function, NAME_grad against
 *     central differences (x and every element of the array), no shadow
 *     element written outside the extent. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"
#include "ragged_util.h"

/* Cephes' polevl shape: c[0] .. c[N], N >= 1. */
#define POLEVL(Q, c, N)                                                        \
  double ans;                                                                  \
  int i;                                                                       \
  Q *p;                                                                        \
  p = c;                                                                       \
  ans = *p++;                                                                  \
  i = N;                                                                       \
  do                                                                           \
    ans = ans * x + *p++;                                                      \
  while (--i);                                                                 \
  return ans;
/* p1evl: a leading 1 not stored, c[0] .. c[N - 1], N >= 2. */
#define P1EVL(Q, c, N)                                                         \
  double ans;                                                                  \
  int i;                                                                       \
  Q *p;                                                                        \
  p = c;                                                                       \
  ans = x + *p++;                                                              \
  i = N - 1;                                                                   \
  do                                                                           \
    ans = ans * x + *p++;                                                      \
  while (--i);                                                                 \
  return ans;
/* chbevl: a Clenshaw recurrence, a[0] .. a[n - 1], n >= 2. */
#define CHBEVL(Q, a, n)                                                        \
  double b0, b1, b2;                                                           \
  Q *p;                                                                        \
  int i;                                                                       \
  p = a;                                                                       \
  b0 = *p++;                                                                   \
  b1 = 0.0;                                                                    \
  i = n - 1;                                                                   \
  do {                                                                         \
    b2 = b1;                                                                   \
    b1 = b0;                                                                   \
    b0 = x * b1 - b2 + *p++;                                                   \
  } while (--i);                                                               \
  return 0.5 * (b0 - b2);
/* `while (i--)`: c[0] .. c[n], n >= 0. */
#define WHILEDEC(Q, c, n)                                                      \
  Q *p;                                                                        \
  int i;                                                                       \
  double s;                                                                    \
  p = c;                                                                       \
  s = *p++;                                                                    \
  i = n;                                                                       \
  while (i--)                                                                  \
    s = s * x + *p++;                                                          \
  return s;
/* `for (; i > 0; i--)` from n - 1: max(n, 1) elements, any n. */
#define FORDOWN(Q, c, n)                                                       \
  Q *p;                                                                        \
  int i;                                                                       \
  double s;                                                                    \
  p = c;                                                                       \
  i = n - 1;                                                                   \
  s = *p++;                                                                    \
  for (; i > 0; i--) {                                                         \
    if (s > 1.0)                                                               \
      s = s * 0.5 + 0.5;                                                       \
    s = s * x + *p++;                                                          \
  }                                                                            \
  return s;
/* two reads before `for (i = n; i-- > 0;)`: max(n, 0) + 2 elements. */
#define TWO(Q, c, n)                                                           \
  Q *p;                                                                        \
  int i;                                                                       \
  double s, t;                                                                 \
  p = c;                                                                       \
  s = *p++;                                                                    \
  t = *p++ * x;                                                                \
  for (i = n; i-- > 0;)                                                        \
    s = s * x + t * *p++;                                                      \
  return s + t;

/* c[0] read whatever n is, then a walk of n: max(n, 1) elements. */
#define FIRST(Q, c, n)                                                         \
  Q *p;                                                                        \
  int i;                                                                       \
  double s;                                                                    \
  p = c;                                                                       \
  s = c[0] * x;                                                                \
  for (i = 0; i < n; i++)                                                      \
    s = s * x + *p++;                                                          \
  return s;

/* As such code declares them. */
BATCHDIFF double lw_polevl(double x, double coef[], int N) {
  POLEVL(double, coef, N);
}
BATCHDIFF double lw_p1evl(double x, double coef[], int N) {
  P1EVL(double, coef, N);
}
BATCHDIFF double lw_chbevl(double x, double array[], int n) {
  CHBEVL(double, array, n);
}
BATCHDIFF double lw_while(double x, double c[], int n) {
  WHILEDEC(double, c, n);
}
BATCHDIFF double lw_for(double x, double c[], int n) { FORDOWN(double, c, n); }
BATCHDIFF double lw_two(double x, double c[], int n) { TWO(double, c, n); }
BATCHDIFF double lw_first(double x, double c[], int n) { FIRST(double, c, n); }
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-non-prototype"
BATCHDIFF double lw_polevl_kr(x, coef, N)
double x;
double coef[];
int N;
{ POLEVL(double, coef, N); }
BATCHDIFF double lw_chbevl_kr(x, array, n)
double x;
double array[];
int n;
{ CHBEVL(double, array, n); }
#pragma clang diagnostic pop

/* The same bodies on BD_PACKED arrays. */
BATCHDIFF double pk_polevl(double x, BD_PACKED const double *coef, int N) {
  POLEVL(const double, coef, N);
}
BATCHDIFF double pk_p1evl(double x, BD_PACKED const double *coef, int N) {
  P1EVL(const double, coef, N);
}
BATCHDIFF double pk_chbevl(double x, BD_PACKED const double *array, int n) {
  CHBEVL(const double, array, n);
}
BATCHDIFF double pk_while(double x, BD_PACKED const double *c, int n) {
  WHILEDEC(const double, c, n);
}
BATCHDIFF double pk_for(double x, BD_PACKED const double *c, int n) {
  FORDOWN(const double, c, n);
}
BATCHDIFF double pk_two(double x, BD_PACKED const double *c, int n) {
  TWO(const double, c, n);
}
BATCHDIFF double pk_first(double x, BD_PACKED const double *c, int n) {
  FIRST(const double, c, n);
}

typedef double (*lw_scalar)(double, double *, int);
typedef void (*lw_batched)(size_t, const double *, double *, ptrdiff_t,
                           const int *, double *);
typedef void (*lw_grad)(size_t, const double *, double *, ptrdiff_t,
                        const int *, double *, const double *, double *,
                        double *, ptrdiff_t);
typedef void (*pk_batched)(size_t, const double *, const double *,
                           const size_t *, const int *, double *);
typedef void (*pk_grad)(size_t, const double *, const double *, const size_t *,
                        const int *, double *, const double *, double *,
                        double *);

/* The extents the remarks state (tests/arrays/remarks_arrays.c). */
static int len_polevl(int n) { return n + 1; }
static int len_n(int n) { return n; }
static int len_for(int n) { return n > 1 ? n : 1; }
static int len_two(int n) { return (n > 0 ? n : 0) + 2; }

#define MAXLEN 20

static const struct {
  const char *name;
  lw_batched fb;
  lw_grad fg;
  lw_scalar fs;
  pk_batched pb;
  pk_grad pg;
  int (*len)(int);
  int min_n; /* below it the scalar loop does not end: never passed */
} fns[] = {
    {"polevl", lw_polevl_batched, lw_polevl_grad, lw_polevl, pk_polevl_batched,
     pk_polevl_grad, len_polevl, 1},
    {"p1evl", lw_p1evl_batched, lw_p1evl_grad, lw_p1evl, pk_p1evl_batched,
     pk_p1evl_grad, len_n, 2},
    {"chbevl", lw_chbevl_batched, lw_chbevl_grad, lw_chbevl, pk_chbevl_batched,
     pk_chbevl_grad, len_n, 2},
    {"while", lw_while_batched, lw_while_grad, lw_while, pk_while_batched,
     pk_while_grad, len_polevl, 0},
    {"for", lw_for_batched, lw_for_grad, lw_for, pk_for_batched, pk_for_grad,
     len_for, -3},
    {"two", lw_two_batched, lw_two_grad, lw_two, pk_two_batched, pk_two_grad,
     len_two, -3},
    {"first", lw_first_batched, lw_first_grad, lw_first, pk_first_batched,
     pk_first_grad, len_for, -3},
    {"polevl_kr", lw_polevl_kr_batched, lw_polevl_kr_grad, lw_polevl_kr, NULL,
     NULL, len_polevl, 1},
    {"chbevl_kr", lw_chbevl_kr_batched, lw_chbevl_kr_grad, lw_chbevl_kr, NULL,
     NULL, len_n, 2},
};
#define N_FNS (sizeof fns / sizeof fns[0])

/* Counts from min_n up (some at min_n itself) and their extents. */
static void gen_counts(rng_t *g, size_t n, int min_n, int (*len)(int), int *cnt,
                       int *lens) {
  for (size_t b = 0; b < n; b++) {
    cnt[b] = min_n + rng_below(g, MAXLEN - 2 - min_n);
    if (rng_below(g, 4) == 0)
      cnt[b] = min_n;
    lens[b] = len(cnt[b]);
  }
}

static double gen_x(rng_t *g) { return rng_range(g, -1.5, 1.5); }

/* Central differences of fs at example (x, c[0 .. len - 1], cnt) against
 * the gradient dx, dc (d_ret 1). */
static void check_grad(const char *what, size_t b, lw_scalar fs, double x,
                       const double *c, int len, int cnt, double dx,
                       const double *dc) {
  const double h = 1e-6;
  double cc[MAXLEN + 2];
  memcpy(cc, c, (size_t)len * sizeof(double));
  double fdx = (fs(x + h, cc, cnt) - fs(x - h, cc, cnt)) / (2 * h);
  if (!close_to(dx, fdx, 1e-5)) {
    print_error("%s d_x b=%zu cnt=%d: %.17g fd %.17g\n", what, b, cnt, dx, fdx);
    fail();
  }
  for (int i = 0; i < len; i++) {
    double o = cc[i];
    cc[i] = o + h;
    double up = fs(x, cc, cnt);
    cc[i] = o - h;
    double fd = (up - fs(x, cc, cnt)) / (2 * h);
    cc[i] = o;
    if (!close_to(dc[i], fd, 1e-5)) {
      print_error("%s d_c b=%zu cnt=%d i=%d: %.17g fd %.17g\n", what, b, cnt, i,
                  dc[i], fd);
      fail();
    }
  }
}

/* As declared (`double c[]`): a strided batch whose last example ends at a
 * guard page, the gaps NaN and left so; the shadow likewise, gaps 0. */
static void t_as_found(void **state) {
  (void)state;
  rng_t g = {name_seed("lead walk as found")};
  for (size_t f = 0; f < N_FNS; f++)
    for (size_t k = 0; k < N_NS; k++) {
      size_t n = ns[k];
      const char *fn = fns[f].name;
      const ptrdiff_t S = MAXLEN + 3;
      int *cnt = calloc(n + 1, sizeof(int)), *len = calloc(n + 1, sizeof(int));
      double *x = calloc(n + 1, 8), *got = calloc(n + 1, 8),
             *dx = calloc(n + 1, 8);
      gen_counts(&g, n, fns[f].min_n, fns[f].len, cnt, len);
      size_t tot = n ? (n - 1) * (size_t)S + (size_t)len[n - 1] : 1;
      double *c = gp_alloc(tot * 8), *dc = gp_alloc(tot * 8);
      for (size_t e = 0; e < tot; e++)
        c[e] = NAN, dc[e] = 0.0;
      for (size_t b = 0; b < n; b++) {
        x[b] = gen_x(&g);
        for (int i = 0; i < len[b]; i++)
          c[b * S + i] = rng_range(&g, -2.0, 2.0);
      }
      fns[f].fb(n, x, c, S, cnt, got);
      for (size_t b = 0; b < n; b++)
        EXPECT_SAME(got[b], fns[f].fs(x[b], c + b * S, cnt[b]),
                    "lw_%s_batched n=%zu b=%zu cnt=%d", fn, n, b, cnt[b]);
      fns[f].fg(n, x, c, S, cnt, NULL, NULL, dx, dc, S);
      for (size_t b = 0; b < n && b < 40; b++)
        check_grad(fn, b, fns[f].fs, x[b], c + b * S, len[b], cnt[b], dx[b],
                   dc + b * S);
      for (size_t e = 0; e < tot; e++)
        if ((ptrdiff_t)(e % (size_t)S) >= len[e / (size_t)S] &&
            (!isnan(c[e]) || dc[e] != 0.0)) {
          print_error("lw_%s n=%zu: element %zu outside every extent "
                      "written\n",
                      fn, n, e);
          fail();
        }
      /* Cephes' use: one table for every example (stride 0), the counts
       * varying, the table ending at a guard page. */
      if (n) {
        int lmax = 0;
        for (size_t b = 0; b < n; b++)
          lmax = len[b] > lmax ? len[b] : lmax;
        double *t = gp_alloc((size_t)lmax * 8);
        for (int i = 0; i < lmax; i++)
          t[i] = rng_range(&g, -2.0, 2.0);
        fns[f].fb(n, x, t, 0, cnt, got);
        for (size_t b = 0; b < n; b++)
          EXPECT_SAME(got[b], fns[f].fs(x[b], t, cnt[b]),
                      "lw_%s_batched stride 0 n=%zu b=%zu cnt=%d", fn, n, b,
                      cnt[b]);
      }
      /* Each example alone, its array right before a guard page. */
      for (size_t b = 0; b < n && b < 12; b++) {
        double *one = gp_alloc((size_t)len[b] * 8),
               *d1 = gp_alloc((size_t)len[b] * 8), r, rx = 0.0;
        memcpy(one, c + b * S, (size_t)len[b] * 8);
        fns[f].fb(1, x + b, one, 0, cnt + b, &r);
        EXPECT_SAME(r, fns[f].fs(x[b], one, cnt[b]),
                    "lw_%s_batched alone b=%zu cnt=%d", fn, b, cnt[b]);
        fns[f].fg(1, x + b, one, 0, cnt + b, NULL, NULL, &rx, d1, 0);
        check_grad(fn, b, fns[f].fs, x[b], one, len[b], cnt[b], rx, d1);
      }
      gp_reset();
      free(cnt), free(len), free(x), free(got), free(dx);
    }
}

/* BD_PACKED: each example's last element right before a guard page. */
static void t_packed(void **state) {
  (void)state;
  rng_t g = {name_seed("lead walk packed")};
  for (size_t f = 0; f < N_FNS; f++)
    for (size_t k = 0; k < N_NS; k++) {
      if (!fns[f].pb)
        continue;
      size_t n = ns[k];
      const char *fn = fns[f].name;
      int *cnt = calloc(n + 1, sizeof(int)), *len = calloc(n + 1, sizeof(int));
      double *x = calloc(n + 1, 8), *got = calloc(n + 1, 8),
             *dx = calloc(n + 1, 8);
      gen_counts(&g, n, fns[f].min_n, fns[f].len, cnt, len);
      for (size_t b = 0; b < n; b++)
        x[b] = gen_x(&g);
      pk_t X, D;
      pk_make(&X, n, len, 1), pk_make(&D, n, len, 1);
      fill(&X, n, len, &g);
      for (size_t b = 0; b < n; b++)
        for (int i = 0; i < len[b]; i++)
          AT(&D, b, i) = 0.0;
      fns[f].pb(n, x, X.base, X.off, cnt, got);
      for (size_t b = 0; b < n; b++) {
        double cc[MAXLEN + 2];
        memcpy(cc, &AT(&X, b, 0), (size_t)len[b] * 8);
        EXPECT_SAME(got[b], fns[f].fs(x[b], cc, cnt[b]),
                    "pk_%s_batched n=%zu b=%zu cnt=%d", fn, n, b, cnt[b]);
      }
      fns[f].pg(n, x, X.base, X.off, cnt, NULL, NULL, dx, D.base);
      for (size_t b = 0; b < n && b < 40; b++) {
        double cc[MAXLEN + 2];
        memcpy(cc, &AT(&X, b, 0), (size_t)len[b] * 8);
        check_grad(fn, b, fns[f].fs, x[b], cc, len[b], cnt[b], dx[b],
                   &AT(&D, b, 0));
      }
      pk_check_gaps(&D, n, len, fn);
      pk_free(&X), pk_free(&D);
      free(cnt), free(len), free(x), free(got), free(dx);
    }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_as_found),
      cmocka_unit_test(t_packed),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
