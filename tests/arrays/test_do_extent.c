/* do/while loops as extent evidence (docs/subset.md): the body runs once
 * before the condition is tested, so an index of the loop's counter needs
 * max(n, 1) elements (`i = 0; do { ... x[i] ...; i++; } while (i < n);`),
 * and walks `do { s += *p++; } while (--n > 0);` likewise; `while (--n)`
 * needs n >= 1 (below it the scalar function runs past INT_MIN).
 *   - every form BD_PACKED, each example's last element right before a
 *     guard page, its length the extent the remarks state (n < 1 included:
 *     lanes whose loop ends at once still read what the scalar function
 *     reads, and nothing more);
 *   - NAME_batched bit for bit the scalar function, NAME_grad against
 *     central differences, no shadow element written outside the extent. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"
#include "ragged_util.h"

#define STEP(a) s = s * w + (a) * (a)-0.5 * (a)

BATCHDIFF double do_idx(BD_PACKED const double *x, int n, BD_UNIFORM double w) {
  double s = 0.0;
  int i = 0;
  do {
    STEP(x[i]);
    i++;
  } while (i < n);
  return s;
}
BATCHDIFF double do_pair(BD_PACKED const double *x, int n,
                         BD_UNIFORM double w) {
  double s = 0.0;
  int i = 0;
  do {
    STEP(x[2 * i] * x[2 * i + 1]);
    ++i;
  } while (i < n);
  return s;
}
BATCHDIFF double do_prev(BD_PACKED const double *x, int n,
                         BD_UNIFORM double w) {
  double s = 0.0;
  int i = 1;
  do {
    if (x[i] > x[i - 1])
      STEP(x[i] - x[i - 1]);
    i++;
  } while (i < n);
  return s;
}
BATCHDIFF double do_walk(BD_PACKED const double *p, int n,
                         BD_UNIFORM double w) {
  double s = 0.0, a;
  do
    a = *p++, STEP(a);
  while (--n > 0);
  return s;
}
BATCHDIFF double do_dec(BD_PACKED const double *p, int n, BD_UNIFORM double w) {
  double s = 0.0;
  do {
    double a = *p++;
    STEP(a);
  } while (--n);
  return s;
}
BATCHDIFF double do_step(BD_PACKED const double *p, int n,
                         BD_UNIFORM double w) {
  double s = 0.0;
  do {
    STEP(p[0] * p[1]);
    p += 2;
  } while (--n > 0);
  return s;
}

typedef void (*do_batched)(size_t, const double *, const size_t *, const int *,
                           double, double *);
typedef void (*do_grad)(size_t, const double *, const size_t *, const int *,
                        double, double *, const double *, double *, double *);
typedef double (*do_scalar)(const double *, int, double);

static int max1(int n) { return n > 1 ? n : 1; }
static int len_idx(int n) { return max1(n); }
static int len_pair(int n) { return 2 * max1(n); }
static int len_prev(int n) { return n > 2 ? n : 2; }
static int len_dec(int n) { return n; }

static const struct {
  const char *name;
  do_batched fb;
  do_grad fg;
  do_scalar fs;
  int (*len)(int);
  int min_n; /* do_dec: n >= 1 */
} fns[] = {
    {"do_idx", do_idx_batched, do_idx_grad, do_idx, len_idx, -2},
    {"do_pair", do_pair_batched, do_pair_grad, do_pair, len_pair, -2},
    {"do_prev", do_prev_batched, do_prev_grad, do_prev, len_prev, -2},
    {"do_walk", do_walk_batched, do_walk_grad, do_walk, len_idx, -2},
    {"do_dec", do_dec_batched, do_dec_grad, do_dec, len_dec, 1},
    {"do_step", do_step_batched, do_step_grad, do_step, len_pair, -2},
};

static void t_do(void **state) {
  (void)state;
  rng_t g = {name_seed("do extent")};
  const double w = 0.75, h = 1e-6;
  for (size_t f = 0; f < sizeof fns / sizeof fns[0]; f++)
    for (size_t k = 0; k < N_NS; k++) {
      size_t n = ns[k];
      const char *fn = fns[f].name;
      int *cnt = calloc(n + 1, sizeof(int)), *len = calloc(n + 1, sizeof(int));
      gen_lens(&g, n, cnt, 12);
      for (size_t b = 0; b < n; b++) {
        cnt[b] += fns[f].min_n + (int)rng_below(&g, 3); /* some below 1 */
        if (cnt[b] < fns[f].min_n)
          cnt[b] = fns[f].min_n;
        len[b] = fns[f].len(cnt[b]);
      }
      pk_t X, D;
      pk_make(&X, n, len, 1), pk_make(&D, n, len, 1);
      fill(&X, n, len, &g);
      for (size_t b = 0; b < n; b++)
        for (int i = 0; i < len[b]; i++)
          AT(&D, b, i) = 0.0;
      double *got = calloc(n + 1, 8), dw = 0.0, dws = 0.0;
      fns[f].fb(n, X.base, X.off, cnt, w, got);
      for (size_t b = 0; b < n; b++)
        EXPECT_SAME(got[b], fns[f].fs(&AT(&X, b, 0), cnt[b], w),
                    "%s_batched n=%zu b=%zu cnt=%d", fn, n, b, cnt[b]);
      fns[f].fg(n, X.base, X.off, cnt, w, NULL, NULL, D.base, &dw);
      for (size_t b = 0; b < n; b++) {
        double xc[2 * 16 + 2];
        memcpy(xc, &AT(&X, b, 0), (size_t)len[b] * 8);
        dws += (fns[f].fs(xc, cnt[b], w + h) - fns[f].fs(xc, cnt[b], w - h)) /
               (2 * h);
        if (b >= 40)
          continue;
        for (int i = 0; i < len[b]; i++) {
          double o = xc[i];
          xc[i] = o + h;
          double up = fns[f].fs(xc, cnt[b], w);
          xc[i] = o - h;
          double fd = (up - fns[f].fs(xc, cnt[b], w)) / (2 * h);
          xc[i] = o;
          if (!close_to(AT(&D, b, i), fd, 1e-5)) {
            print_error("%s_grad d_x n=%zu b=%zu i=%d: %g fd %g\n", fn, n, b, i,
                        AT(&D, b, i), fd);
            fail();
          }
        }
      }
      if (!close_to(dw, dws, 1e-5)) {
        print_error("%s_grad d_w n=%zu: %g fd %g\n", fn, n, dw, dws);
        fail();
      }
      pk_check_gaps(&D, n, len, fn);
      pk_free(&X), pk_free(&D);
      free(cnt), free(len), free(got);
    }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_do),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
