/* Extents inferred from loops that count pairs and loops that count down
 * (plugin/lower/ExtentLoops.h; docs/abi-arrays.md): `x[2 * i]`, `x[2 * i +
 * 1]` under `i < n / 2` or `i < (n >> 1)` (2 * (n / 2) elements: the odd
 * one is not read), `x[i]` under `i < n / 2`, pairs then the odd one
 * (`if (n % 2) ... x[n - 1]`: n), and counters set to n and counted down
 * by the body's first statement (`while (i > 0) { i--; ... x[i]; }`, `i
 * -= 2` under `i >= 2`), by the test (`while (i-- > 0)`), or by a for
 * loop reading x[i - 1], or set to n - 1 and counted down by the body's
 * last statement (`while (i >= 0) { ... x[i]; i--; }`); pairs by `i + 1 <
 * n` stepped by 2 (2 * (n / 2)); and the indices of a bracketing search, `lo =
 * 0; hi = n - 1; while (hi - lo > 1) { mid = (lo + hi) / 2; ... }` (n, for
 * n >= 1); since session 55, a copy of n counted down by `while (i--)`,
 * pairs under a local `int h = n / 2;`, under `i <= n / 2 - 1` and under
 * `2 * i + 1 < n`, and n itself counted down by `do ... while (--n)`
 * reading x[n - 1]. For the strided (default), BD_PACKED and
 * BD_POINTERS layouts, doubles and floats, n = 1 .. 3W + 2 examples and
 * lengths 0 .. 3W + 1 (every one, odd and even, in random order):
 *   - NAME_batched bit for bit the scalar function; NAME_grad's ret bit
 *     for bit, its shadows the same bits in the three layouts (and
 *     incremented: they start at 0.25), against central differences;
 *   - a guard page right after the last element each example reads (for
 *     `x[2 * i]` alone: 2 * (n / 2) - 1), in one mapping for BD_PACKED /
 *     BD_POINTERS; strided, one call per example with that example the
 *     last in memory; bytes between the examples' shadows keep their
 *     sentinels.
 * Before these rules the plugin refused every function here but
 * `down_for` ("cannot infer the extent of 'x'"). */
#include "exec_util.h"

#include "../common/ragged_layouts.h"
#include "../common/test_filter.h"

/* ---- pairs: loops to n / 2 ---------------------------------------------- */

#define PAIRS_BODY(T)                                                          \
  T s = a;                                                                     \
  for (int i = 0; i < n / 2; i++)                                              \
    s = s * b + x[2 * i] * x[2 * i + 1];                                       \
  return s;

#define PAIRS_SHIFT_BODY(T)                                                    \
  T s = 0;                                                                     \
  for (int i = 0; i < (n >> 1); i++)                                           \
    s += a * x[2 * i + 1] - b * x[2 * i] * x[2 * i];                           \
  return s;

/* x[2 * i] alone: reads up to 2 * (n / 2) - 2. */
#define EVENS_BODY(T)                                                          \
  T s = b;                                                                     \
  for (int i = 0; i < n / 2; i++)                                              \
    s = s * a + x[2 * i];                                                      \
  return s;

/* The first half: x[i] under i < n / 2. */
#define HALF_BODY(T)                                                           \
  T s = 0;                                                                     \
  for (unsigned i = 0; i < (unsigned)n / 2; i++)                               \
    s += x[i] * (a + b * x[i]);                                                \
  return s;

/* Pairs, then the odd one: n elements. */
#define PAIRS_ODD_BODY(T)                                                      \
  T s = 0;                                                                     \
  for (int i = 0; i < n / 2; i++)                                              \
    s += x[2 * i] * x[2 * i + 1] * a;                                          \
  if (n % 2)                                                                   \
    s += b * x[n - 1];                                                         \
  return s;

/* Pairs by `i + 1 < n` stepped by 2: 2 * (n / 2) too. */
#define PAIRS_PLUS_BODY(T)                                                     \
  T s = b;                                                                     \
  for (int i = 0; i + 1 < n; i += 2)                                           \
    s = s * a + x[i] * x[i + 1];                                               \
  return s;

/* ---- counting down from n ---------------------------------------------- */

/* The body's first statement decrements, then reads x[i]. */
#define DOWN_FIRST_BODY(T)                                                     \
  T s = a;                                                                     \
  int i = n;                                                                   \
  while (i > 0) {                                                              \
    i--;                                                                       \
    s = s * b + x[i];                                                          \
  }                                                                            \
  return s;

/* The test decrements. */
#define DOWN_TEST_BODY(T)                                                      \
  T s = 0;                                                                     \
  int i;                                                                       \
  i = n;                                                                       \
  while (i-- > 0)                                                              \
    s = s * a + b * x[i] * x[i];                                               \
  return s;

/* A for loop reading x[i - 1] (accepted before: a regression guard). */
#define DOWN_FOR_BODY(T)                                                       \
  T s = b;                                                                     \
  int i;                                                                       \
  for (i = n; i > 0; i--)                                                      \
    s = s * a + x[i - 1];                                                      \
  return s;

/* Pairs from the top, `i -= 2` under `i >= 2`: reads x[n - 1] down to x[0]
 * (n even) or x[1] (n odd), nothing for n < 2. */
#define DOWN_PAIRS_BODY(T)                                                     \
  T s = a;                                                                     \
  int i = n;                                                                   \
  while (i >= 2) {                                                             \
    i -= 2;                                                                    \
    s = s * b + x[i] * x[i + 1];                                               \
  }                                                                            \
  return s;

/* From n - 1, the decrement the body's last statement. */
#define DOWN_LAST_BODY(T)                                                      \
  T s = a;                                                                     \
  int i = n - 1;                                                               \
  while (i >= 0) {                                                             \
    s = s * b + x[i] * a;                                                      \
    i--;                                                                       \
  }                                                                            \
  return s;

/* ---- a bracketing search ---------------------------------------------- */

/* lo, hi and mid stay within 0 .. n - 1 (for n >= 1: n = 0 returns first);
 * x need not be sorted for that. */
#define SEARCH_BODY(T)                                                         \
  if (n < 1)                                                                   \
    return a;                                                                  \
  int lo = 0, hi = n - 1, mid;                                                 \
  while (hi - lo > 1) {                                                        \
    mid = (lo + hi) / 2;                                                       \
    if (x[mid] > a)                                                            \
      hi = mid;                                                                \
    else                                                                       \
      lo = mid;                                                                \
  }                                                                            \
  return x[lo] + b * (x[hi] - x[lo]) * a;

/* ---- shapes accepted since session 55 ---------------------------------- */

/* A local copy of n counted down by the test alone: `while (i--)` (n, for
 * n >= 0). */
#define DOWN_BARE_BODY(T)                                                      \
  T s = b;                                                                     \
  int i = n;                                                                   \
  while (i--)                                                                  \
    s = s * a + x[i];                                                          \
  return s;

/* Pairs under a local `int h = n / 2;` and under `i <= n / 2 - 1`: 2 * (n /
 * 2) elements. */
#define HALVES_BODY(T)                                                         \
  T s = a;                                                                     \
  int h = n / 2;                                                               \
  for (int i = 0; i < h; i++)                                                  \
    s = s * b + x[2 * i + 1] * x[2 * i];                                       \
  for (int i = 0; i <= n / 2 - 1; i++)                                         \
    s -= b * x[2 * i + 1];                                                     \
  return s;

/* Pairs under `2 * i + 1 < n`: n (x[n - 1] of an odd n is not read). */
#define PAIRS_MUL_BODY(T)                                                      \
  T s = b;                                                                     \
  for (int i = 0; 2 * i + 1 < n; i++)                                          \
    s = s * a + x[2 * i] * x[2 * i + 1];                                       \
  return s;

/* The parameter itself counted down by a do/while loop: x[n - 1] .. x[0]
 * (n, for n >= 1: below it the scalar loop runs n down until it wraps). */
#define DO_PARAM_BODY(T)                                                       \
  T s = a;                                                                     \
  if (n < 1)                                                                   \
    return b;                                                                  \
  do {                                                                         \
    s = s * b + a * x[n - 1];                                                  \
  } while (--n);                                                               \
  return s;

#define FAMILY(NAME, T, BODY)                                                  \
  BATCHDIFF T NAME##_s(const T *x, int n, T a, T b){                           \
      BODY(T)} BATCHDIFF T NAME##_o(BD_PACKED const T *x, int n, T a, T b){    \
      BODY(T)} BATCHDIFF T NAME##_p(BD_POINTERS const T *x, int n, T a, T b) { \
    BODY(T)                                                                    \
  }

FAMILY(pairs, double, PAIRS_BODY)
FAMILY(pairsf, float, PAIRS_BODY)
FAMILY(pairs_shift, double, PAIRS_SHIFT_BODY)
FAMILY(evens, double, EVENS_BODY)
FAMILY(half, double, HALF_BODY)
FAMILY(pairs_odd, double, PAIRS_ODD_BODY)
FAMILY(down_first, double, DOWN_FIRST_BODY)
FAMILY(down_firstf, float, DOWN_FIRST_BODY)
FAMILY(down_test, double, DOWN_TEST_BODY)
FAMILY(down_for, double, DOWN_FOR_BODY)
FAMILY(down_pairs, double, DOWN_PAIRS_BODY)
FAMILY(search, double, SEARCH_BODY)
FAMILY(pairs_plus, double, PAIRS_PLUS_BODY)
FAMILY(down_last, double, DOWN_LAST_BODY)
FAMILY(searchf, float, SEARCH_BODY)
FAMILY(down_bare, double, DOWN_BARE_BODY)
FAMILY(halves, double, HALVES_BODY)
FAMILY(pairs_mul, double, PAIRS_MUL_BODY)
FAMILY(pairs_mulf, float, PAIRS_MUL_BODY)
FAMILY(do_param, double, DO_PARAM_BODY)

/* ---- layouts: tests/common/ragged_layouts.h ----------------------------- */

#include "../common/ragged_layouts.h"
/* ---- one family -------------------------------------------------------- */

/* Lengths 0 .. 3W + 1 (W: the type's lanes), each once in random order
 * while n allows; extents EXT(len). */
static void gen_lengths(rng_t *r, size_t n, int *len, int maxlen) {
  for (size_t b = 0; b < n; b++)
    len[b] = (int)(b % (size_t)(maxlen + 1));
  for (size_t b = n; b > 1; b--) {
    size_t j = (size_t)rng_below(r, (int)b);
    int t = len[b - 1];
    len[b - 1] = len[j];
    len[j] = t;
  }
}

/* The elements each example reads: one past the last. */
#define EXT_N(l) (l)
#define EXT_PAIRS(l) (2 * ((l) / 2))
#define EXT_EVENS(l) ((l) >= 2 ? 2 * ((l) / 2) - 1 : 0)
#define EXT_HALF(l) ((l) / 2)
#define EXT_DOWN2(l) ((l) >= 2 ? (l) : 0)

#define RUN_FAMILY(NAME, T, EXT, FDTOL)                                        \
  static void run_##NAME(size_t n, rng_t *r) {                                 \
    const size_t es = sizeof(T);                                               \
    int W = sizeof(T) == 4 ? BD_WN : BD_WD, maxlen = 3 * W + 1;                \
    int *len = malloc((n + 1) * sizeof(int));                                  \
    int *ext = malloc((n + 1) * sizeof(int));                                  \
    T *a = malloc((n + 1) * es), *bb = malloc((n + 1) * es);                   \
    gen_lengths(r, n, len, maxlen);                                            \
    size_t st = 0;                                                             \
    for (size_t b = 0; b < n; b++) {                                           \
      ext[b] = EXT(len[b]);                                                    \
      st = (size_t)ext[b] > st ? (size_t)ext[b] : st;                          \
      a[b] = (T)rng_range(r, 0.5, 1.5);                                        \
      bb[b] = (T)rng_range(r, 0.5, 1.8);                                       \
    }                                                                          \
    st += 3;                                                                   \
    lay_t X, D, D2;                                                            \
    lay_make(&X, n, ext, es);                                                  \
    lay_make(&D, n, ext, es);                                                  \
    lay_make(&D2, n, ext, es);                                                 \
    for (size_t b = 0; b < n; b++)                                             \
      for (int i = 0; i < ext[b]; i++) {                                       \
        ((T *)X.ptr[b])[i] = (T)rng_range(r, -2.0, 2.0);                       \
        ((T *)D.ptr[b])[i] = ((T *)D2.ptr[b])[i] = (T)0.25;                    \
      }                                                                        \
    gp_pages_seal(&X.m);                                                       \
    T *want = malloc((n + 1) * es), *got = gp_alloc(n * es);                   \
    for (size_t b = 0; b < n; b++)                                             \
      want[b] = NAME##_s((const T *)X.ptr[b], len[b], a[b], bb[b]);            \
    /* NAME_batched: packed, pointers. */                                      \
    NAME##_o_batched(n, (const T *)X.m.map, X.off, len, a, bb, got);           \
    for (size_t b = 0; b < n; b++)                                             \
      if (!same_bits(&got[b], &want[b], es)) {                                 \
        print_error(#NAME "_o_batched n=%zu b=%zu len=%d: %a want %a\n", n, b, \
                    len[b], (double)got[b], (double)want[b]);                  \
        fail();                                                                \
      }                                                                        \
    NAME##_p_batched(n, (const T *const *)X.ptr, len, a, bb, got);             \
    for (size_t b = 0; b < n; b++)                                             \
      if (!same_bits(&got[b], &want[b], es)) {                                 \
        print_error(#NAME "_p_batched n=%zu b=%zu len=%d: %a want %a\n", n, b, \
                    len[b], (double)got[b], (double)want[b]);                  \
        fail();                                                                \
      }                                                                        \
    /* NAME_grad: packed, pointers; shadows start at 0.25. */                  \
    T *seed = malloc((n + 1) * es);                                            \
    T *da = malloc((n + 1) * es), *db = malloc((n + 1) * es);                  \
    T *da2 = malloc((n + 1) * es), *db2 = malloc((n + 1) * es);                \
    for (size_t b = 0; b < n; b++) {                                           \
      seed[b] = (T)rng_range(r, -1.0, 1.0);                                    \
      da[b] = db[b] = da2[b] = db2[b] = (T)0.5;                                \
    }                                                                          \
    NAME##_o_grad(n, (const T *)X.m.map, X.off, len, a, bb, got, seed,         \
                  (T *)D.m.map, da, db);                                       \
    for (size_t b = 0; b < n; b++)                                             \
      if (!same_bits(&got[b], &want[b], es)) {                                 \
        print_error(#NAME "_o_grad ret n=%zu b=%zu\n", n, b);                  \
        fail();                                                                \
      }                                                                        \
    NAME##_p_grad(n, (const T *const *)X.ptr, len, a, bb, got, seed,           \
                  (T *const *)D2.ptr, da2, db2);                               \
    for (size_t b = 0; b < n; b++) {                                           \
      if (!same_bits(&got[b], &want[b], es) ||                                 \
          !same_bits(&da[b], &da2[b], es) ||                                   \
          !same_bits(&db[b], &db2[b], es)) {                                   \
        print_error(#NAME "_p_grad ret/d_a/d_b n=%zu b=%zu\n", n, b);          \
        fail();                                                                \
      }                                                                        \
      for (int i = 0; i < ext[b]; i++)                                         \
        if (!same_bits(&((T *)D.ptr[b])[i], &((T *)D2.ptr[b])[i], es)) {       \
          print_error(#NAME "_p_grad d_x n=%zu b=%zu i=%d\n", n, b, i);        \
          fail();                                                              \
        }                                                                      \
    }                                                                          \
    lay_check_gaps(&D, n, ext, es, #NAME "_o_grad d_x");                       \
    lay_check_gaps(&D2, n, ext, es, #NAME "_p_grad d_x");                      \
    /* Central differences of the scalar function (a few examples). */         \
    for (size_t b = 0; b < n && b < 8; b++) {                                  \
      T *xb = malloc(((size_t)ext[b] + 1) * es);                               \
      memcpy(xb, X.ptr[b], (size_t)ext[b] * es);                               \
      for (int i = 0; i < ext[b]; i += 1 + ext[b] / 5) {                       \
        T x0 = xb[i], e = (T)(sizeof(T) == 4 ? 1e-2 : 1e-6);                   \
        double f0 = NAME##_s(xb, len[b], a[b], bb[b]);                         \
        xb[i] = x0 + e;                                                        \
        double fp = NAME##_s(xb, len[b], a[b], bb[b]);                         \
        xb[i] = x0 - e;                                                        \
        double fm = NAME##_s(xb, len[b], a[b], bb[b]);                         \
        xb[i] = x0;                                                            \
        double fd = seed[b] * (fp - fm) / (2.0 * e);                           \
        double g = (double)((T *)D.ptr[b])[i] - 0.25;                          \
        /* A break or a condition on x[i] makes f a step: skip where the       \
         * one-sided slopes disagree. Rounding: relative to f. */              \
        double up = fp - f0, down = f0 - fm;                                   \
        if (fabs(up - down) > 0.1 * (fabs(up) + fabs(down)) + 1e-300)          \
          continue;                                                            \
        double round = (sizeof(T) == 4 ? 1e-6 : 1e-15) * fabs(f0) / e;         \
        if (!close_to(g, fd, FDTOL) && fabs(g - fd) > 10 * round) {            \
          print_error(#NAME "_grad FD n=%zu b=%zu i=%d: %g vs %g\n", n, b, i,  \
                      g, fd);                                                  \
          fail();                                                              \
        }                                                                      \
      }                                                                        \
      free(xb);                                                                \
    }                                                                          \
    /* Strided: each example in turn the last in memory, at a guard page;      \
     * its shadow too. */                                                      \
    for (size_t e = 0; e < n; e++) {                                           \
      T *xs = strided_last(&X, e, ext, st, es);                                \
      gp_seal(xs);                                                             \
      NAME##_s_batched(e + 1, xs, (ptrdiff_t)st, len, a, bb, got);             \
      for (size_t b = 0; b <= e; b++)                                          \
        if (!same_bits(&got[b], &want[b], es)) {                               \
          print_error(#NAME "_s_batched e=%zu b=%zu len=%d: %a want %a\n", e,  \
                      b, len[b], (double)got[b], (double)want[b]);             \
          fail();                                                              \
        }                                                                      \
      T *ds = gp_alloc((e * st + (size_t)ext[e]) * es);                        \
      for (size_t b = 0; b <= e; b++) {                                        \
        for (int i = 0; i < ext[b]; i++)                                       \
          ds[b * st + (size_t)i] = (T)0.25;                                    \
        da2[b] = db2[b] = (T)0.5;                                              \
      }                                                                        \
      NAME##_s_grad(e + 1, xs, (ptrdiff_t)st, len, a, bb, got, seed, ds,       \
                    (ptrdiff_t)st, da2, db2);                                  \
      for (size_t b = 0; b <= e; b++) {                                        \
        if (!same_bits(&got[b], &want[b], es) ||                               \
            !same_bits(&da[b], &da2[b], es) ||                                 \
            !same_bits(&db[b], &db2[b], es)) {                                 \
          print_error(#NAME "_s_grad ret/d_a/d_b e=%zu b=%zu\n", e, b);        \
          fail();                                                              \
        }                                                                      \
        for (int i = 0; i < ext[b]; i++)                                       \
          if (!same_bits(&ds[b * st + (size_t)i], &((T *)D.ptr[b])[i], es)) {  \
            print_error(#NAME "_s_grad d_x e=%zu b=%zu i=%d\n", e, b, i);      \
            fail();                                                            \
          }                                                                    \
      }                                                                        \
      gp_reset();                                                              \
      got = gp_alloc(n * es);                                                  \
    }                                                                          \
    free(len), free(ext), free(a), free(bb), free(want);                       \
    free(seed), free(da), free(db), free(da2), free(db2);                      \
    lay_free(&X), lay_free(&D), lay_free(&D2);                                 \
    gp_reset();                                                                \
  }                                                                            \
  static void t_##NAME(void **state) {                                         \
    (void)state;                                                               \
    rng_t r = {name_seed(#NAME)};                                              \
    int W = sizeof(T) == 4 ? BD_WN : BD_WD;                                    \
    for (size_t n = 1; n <= (size_t)(3 * W + 2); n++)                          \
      run_##NAME(n, &r);                                                       \
    run_##NAME((size_t)(6 * W + 5), &r);                                       \
  }

RUN_FAMILY(pairs, double, EXT_PAIRS, 1e-6)
RUN_FAMILY(pairsf, float, EXT_PAIRS, 2e-2)
RUN_FAMILY(pairs_shift, double, EXT_PAIRS, 1e-6)
RUN_FAMILY(evens, double, EXT_EVENS, 1e-6)
RUN_FAMILY(half, double, EXT_HALF, 1e-6)
RUN_FAMILY(pairs_odd, double, EXT_N, 1e-6)
RUN_FAMILY(down_first, double, EXT_N, 1e-6)
RUN_FAMILY(down_firstf, float, EXT_N, 2e-2)
RUN_FAMILY(down_test, double, EXT_N, 1e-6)
RUN_FAMILY(down_for, double, EXT_N, 1e-6)
RUN_FAMILY(down_pairs, double, EXT_DOWN2, 1e-6)
RUN_FAMILY(search, double, EXT_N, 1e-6)
RUN_FAMILY(pairs_plus, double, EXT_PAIRS, 1e-6)
RUN_FAMILY(down_last, double, EXT_N, 1e-6)
RUN_FAMILY(searchf, float, EXT_N, 2e-2)
RUN_FAMILY(down_bare, double, EXT_N, 1e-6)
RUN_FAMILY(halves, double, EXT_PAIRS, 1e-6)
RUN_FAMILY(pairs_mul, double, EXT_PAIRS, 1e-6)
RUN_FAMILY(pairs_mulf, float, EXT_PAIRS, 2e-2)
RUN_FAMILY(do_param, double, EXT_N, 1e-6)

/* Column-major matrices with a leading dimension: extent_matrix.c. */
void t_mx_colsum(void **state);
void t_mx_diag(void **state);
void t_mx_upper(void **state);
void t_mx_strict(void **state);
void t_mx_inplace(void **state);

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_pairs),       cmocka_unit_test(t_pairsf),
      cmocka_unit_test(t_pairs_shift), cmocka_unit_test(t_evens),
      cmocka_unit_test(t_half),        cmocka_unit_test(t_pairs_odd),
      cmocka_unit_test(t_down_first),  cmocka_unit_test(t_down_firstf),
      cmocka_unit_test(t_down_test),   cmocka_unit_test(t_down_for),
      cmocka_unit_test(t_down_pairs),  cmocka_unit_test(t_search),
      cmocka_unit_test(t_searchf),     cmocka_unit_test(t_pairs_plus),
      cmocka_unit_test(t_down_last),   cmocka_unit_test(t_down_bare),
      cmocka_unit_test(t_halves),      cmocka_unit_test(t_pairs_mul),
      cmocka_unit_test(t_pairs_mulf),  cmocka_unit_test(t_do_param),
      cmocka_unit_test(t_mx_colsum),   cmocka_unit_test(t_mx_diag),
      cmocka_unit_test(t_mx_upper),    cmocka_unit_test(t_mx_strict),
      cmocka_unit_test(t_mx_inplace),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
