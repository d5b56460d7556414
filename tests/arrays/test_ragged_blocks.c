/* Ragged rows read in blocks (plugin/emit/KernelRagged.cpp): a varying
 * array read at its loop's counter, `x[i]` under `i < n` with n per
 * example, takes W trips' elements per block (a masked load per lane and a
 * transpose) instead of a gather per trip. Values must stay the gather's,
 * and nothing past an example's extent may be touched. For the strided
 * (default), BD_PACKED and BD_POINTERS layouts, doubles and floats, n =
 * 1 .. 3W + 2 examples and lengths 0 .. 3W + 1 (every one, in random
 * order, most not multiples of W):
 *   - Kahan mean, a biquad filter, a loop left by `break` on a value, a
 *     read under a per-example condition (lanes off when a block is
 *     filled), the same array read by a second loop and by a loop run
 *     again from another start, a do/while loop (extent max(n, 1): a lane
 *     of length 0 reads x[0]);
 *   - NAME_batched bit for bit the scalar function; NAME_grad's ret bit
 *     for bit, its shadows the same bits in the three layouts (and
 *     incremented: they start at 0.25), against central differences;
 *   - a guard page right after every example's extent: BD_PACKED /
 *     BD_POINTERS in one mapping (a PROT_NONE page after each example);
 *     strided, one call per example with that example the last in memory,
 *     its extent ending at the guard page; bytes between the examples'
 *     shadows keep their sentinels. */
#include "../exec/exec_util.h"

#include "../common/ragged_layouts.h"
#include "../common/test_filter.h"

#define KAHAN_BODY(T)                                                          \
  T s = 0, c = 0;                                                              \
  for (int i = 0; i < n; i++) {                                                \
    T y = x[i] - c;                                                            \
    T t = s + y;                                                               \
    c = (t - s) - y;                                                           \
    s = t;                                                                     \
  }                                                                            \
  return n > 0 ? s / n : 0;

#define BIQUAD_BODY(T)                                                         \
  T x1 = 0, x2 = 0, y1 = 0, y2 = 0, acc = 0;                                   \
  T b0 = a, b1 = b, b2 = (T)0.3, a1 = (T)-0.2 * a, a2 = (T)0.1;                \
  for (int i = 0; i < n; i++) {                                                \
    T y = b0 * x[i] + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;                   \
    x2 = x1;                                                                   \
    x1 = x[i];                                                                 \
    y2 = y1;                                                                   \
    y1 = y;                                                                    \
    acc += y * y;                                                              \
  }                                                                            \
  return acc;

/* A break on a value; a read under a per-example condition; a second loop
 * over the same array; the loop again from start j (blocks kept). */
#define MIXED_BODY(T)                                                          \
  T s = 0, t = 0, u = 0;                                                       \
  for (int i = 0; i < n; i++) {                                                \
    if (x[i] > b)                                                              \
      break;                                                                   \
    s = s * (T)0.5 + x[i] * a;                                                 \
  }                                                                            \
  for (int i = 0; i < n; i++)                                                  \
    if ((i + k) % 3 == 0)                                                      \
      t += x[i] * x[i];                                                        \
  for (int j = 0; j < 3; j++) {                                                \
    if (j == k % 4)                                                            \
      continue;                                                                \
    for (int i = j; i < n; i++)                                                \
      u = u * (T)0.25 + x[i];                                                  \
  }                                                                            \
  return s + t * a + u;

/* The body runs once whatever n is: extent max(n, 1). */
#define DOWHILE_BODY(T)                                                        \
  T s = a;                                                                     \
  int i = 0;                                                                   \
  do {                                                                         \
    s = s * b + x[i];                                                          \
    i++;                                                                       \
  } while (i < n);                                                             \
  return s;

#define FAMILY(NAME, T, BODY)                                                  \
  BATCHDIFF T NAME##_s(const T *x, int n, T a, T b, int k){BODY(               \
      T)} BATCHDIFF T NAME##_o(BD_PACKED const T *x, int n, T a, T b, int k){  \
      BODY(T)} BATCHDIFF T NAME##_p(BD_POINTERS const T *x, int n, T a, T b,   \
                                    int k) {                                   \
    BODY(T)                                                                    \
  }

FAMILY(kahan, double, KAHAN_BODY)
FAMILY(kahanf, float, KAHAN_BODY)
FAMILY(biquad, double, BIQUAD_BODY)
FAMILY(biquadf, float, BIQUAD_BODY)
FAMILY(mixed, double, MIXED_BODY)
FAMILY(mixedf, float, MIXED_BODY)
FAMILY(dowhile, double, DOWHILE_BODY)

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

#define EXT_N(l) (l)
#define EXT_MAX1(l) ((l) > 0 ? (l) : 1)

#define RUN_FAMILY(NAME, T, EXT, FDTOL)                                        \
  static void run_##NAME(size_t n, rng_t *r) {                                 \
    const size_t es = sizeof(T);                                               \
    int W = sizeof(T) == 4 ? BD_WN : BD_WD, maxlen = 3 * W + 1;                \
    int *len = malloc((n + 1) * sizeof(int));                                  \
    int *ext = malloc((n + 1) * sizeof(int));                                  \
    int *k = malloc((n + 1) * sizeof(int));                                    \
    T *a = malloc((n + 1) * es), *bb = malloc((n + 1) * es);                   \
    gen_lengths(r, n, len, maxlen);                                            \
    size_t st = 0;                                                             \
    for (size_t b = 0; b < n; b++) {                                           \
      ext[b] = EXT(len[b]);                                                    \
      st = (size_t)ext[b] > st ? (size_t)ext[b] : st;                          \
      k[b] = rng_below(r, 7);                                                  \
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
      want[b] = NAME##_s((const T *)X.ptr[b], len[b], a[b], bb[b], k[b]);      \
    /* NAME_batched: packed, pointers. */                                      \
    NAME##_o_batched(n, (const T *)X.m.map, X.off, len, a, bb, k, got);        \
    for (size_t b = 0; b < n; b++)                                             \
      if (!same_bits(&got[b], &want[b], es)) {                                 \
        print_error(#NAME "_o_batched n=%zu b=%zu len=%d: %a want %a\n", n, b, \
                    len[b], (double)got[b], (double)want[b]);                  \
        fail();                                                                \
      }                                                                        \
    NAME##_p_batched(n, (const T *const *)X.ptr, len, a, bb, k, got);          \
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
    NAME##_o_grad(n, (const T *)X.m.map, X.off, len, a, bb, k, got, seed,      \
                  (T *)D.m.map, da, db);                                       \
    for (size_t b = 0; b < n; b++)                                             \
      if (!same_bits(&got[b], &want[b], es)) {                                 \
        print_error(#NAME "_o_grad ret n=%zu b=%zu\n", n, b);                  \
        fail();                                                                \
      }                                                                        \
    NAME##_p_grad(n, (const T *const *)X.ptr, len, a, bb, k, got, seed,        \
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
        double f0 = NAME##_s(xb, len[b], a[b], bb[b], k[b]);                   \
        xb[i] = x0 + e;                                                        \
        double fp = NAME##_s(xb, len[b], a[b], bb[b], k[b]);                   \
        xb[i] = x0 - e;                                                        \
        double fm = NAME##_s(xb, len[b], a[b], bb[b], k[b]);                   \
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
      NAME##_s_batched(e + 1, xs, (ptrdiff_t)st, len, a, bb, k, got);          \
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
      NAME##_s_grad(e + 1, xs, (ptrdiff_t)st, len, a, bb, k, got, seed, ds,    \
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
    free(len), free(ext), free(k), free(a), free(bb), free(want);              \
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

RUN_FAMILY(kahan, double, EXT_N, 1e-6)
RUN_FAMILY(kahanf, float, EXT_N, 2e-2)
RUN_FAMILY(biquad, double, EXT_N, 1e-6)
RUN_FAMILY(biquadf, float, EXT_N, 2e-2)
RUN_FAMILY(mixed, double, EXT_N, 1e-5)
RUN_FAMILY(mixedf, float, EXT_N, 5e-2)
RUN_FAMILY(dowhile, double, EXT_MAX1, 1e-6)

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_kahan),   cmocka_unit_test(t_kahanf),
      cmocka_unit_test(t_biquad),  cmocka_unit_test(t_biquadf),
      cmocka_unit_test(t_mixed),   cmocka_unit_test(t_mixedf),
      cmocka_unit_test(t_dowhile),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
