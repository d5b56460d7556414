/* A BD_UNIFORM array parameter passed whole to functions called once per
 * example, as ERFA's eraD2dtf and eraDtf2d pass their time scale to strcmp
 * (`if (!strcmp(scale, "UTC"))`): one string for the whole batch, which
 * each call gets as it is.
 *   - us_dtf: eraDtf2d's shape: a status and a day fraction, a leap second
 *     when the scale is "UTC" (strcmp in the annotated function);
 *   - us_weight: reads the string's first character; a helper inlined
 *     with the string or the string past a sign ('scale + 1', an offset
 *     into the array) passes it to strlen; a helper called once per example
 *     because of its string literal argument gets the array too.
 * NAME_batched bit for bit against the scalar function for several
 * strings (the array at a guard page, so nothing past its terminator is
 * read); NAME_grad against Richardson differences (exec_fd.h). */
#include "exec_fd.h"

#include "../common/test_filter.h"

#include <string.h>

BATCHDIFF int us_dtf(BD_UNIFORM const char *scale, int ihr, int imn, double sec,
                     double *frac) {
  double day = 86400.0;
  if (ihr < 0 || ihr > 23 || imn < 0 || imn > 59)
    return -2;
  if (!strcmp(scale, "UTC") && ihr == 23 && imn == 59)
    day += 1.0; /* a leap second at the end of the day */
  if (sec < 0.0 || sec >= 60.0 + (day > 86400.0))
    return -3;
  *frac = (60.0 * (60.0 * ihr + imn) + sec) / day;
  return strcmp(scale, "TAI") ? 1 : 0;
}

/* Inlined, with the array or a pointer one past its start. */
static double us_len(const char *s, double x) { return (double)strlen(s) * x; }

/* Called once per example (its string literal argument). */
static int us_is(const char *s, const char *what) { return !strcmp(s, what); }

BATCHDIFF double us_weight(BD_UNIFORM const char *scale, double x, double y) {
  double sign = scale[0] == '-' ? -1.0 : 1.0;
  int skip = scale[0] == '-' || scale[0] == '+';
  double w = sign * (skip ? us_len(scale + 1, x) : us_len(scale, x));
  if (us_is(scale, "+UTC"))
    w += 0.5 * y * y;
  return w * y + x;
}

static const char *const strings[] = {"UTC", "TAI", "+UTC", "-TT", "", "+"};
#define N_STRINGS (sizeof strings / sizeof strings[0])

/* The string at the end of a read-only guard-page buffer. */
static const char *guarded(const char *s) {
  size_t len = strlen(s) + 1;
  char *g = gp_alloc(len);
  memcpy(g, s, len);
  gp_seal(g);
  return g;
}

static void same(const char *what, size_t e, double got, double want) {
  if (memcmp(&got, &want, sizeof got)) {
    print_error("%s example %zu: %.17g, want %.17g\n", what, e, got, want);
    fail();
  }
}

static void t_dtf(void **state) {
  (void)state;
  rng_t rng = {0x9E3779B97F4A7C15ULL};
  size_t checked = 0;
  for (size_t k = 0; k < N_STRINGS; k++)
    for (size_t t = 0; t < N_TEST_NS; t++) {
      size_t n = test_ns[t];
      const char *scale = guarded(strings[k]);
      int *hr = gp_alloc(n * sizeof(int)), *mn = gp_alloc(n * sizeof(int));
      int *st = gp_alloc(n * sizeof(int));
      double *sec = gp_alloc(n * 8), *fr = gp_alloc(n * 8);
      for (size_t e = 0; e < n; e++) {
        hr[e] = rng_below(&rng, 4) ? 23 : (int)rng_below(&rng, 26) - 1;
        mn[e] = rng_below(&rng, 3) ? 59 : (int)rng_below(&rng, 62) - 1;
        sec[e] = rng_below(&rng, 4) ? rng_range(&rng, 59.0, 61.0)
                                    : rng_range(&rng, -1.0, 60.0);
        fr[e] = -7.0;
      }
      us_dtf_batched(n, scale, hr, mn, sec, fr, 1, st);
      for (size_t e = 0; e < n; e++) {
        double want = -7.0;
        int s = us_dtf(scale, hr[e], mn[e], sec[e], &want);
        if (st[e] != s) {
          print_error("us_dtf(%s) example %zu: status %d, want %d\n",
                      strings[k], e, st[e], s);
          fail();
        }
        same("us_dtf", e, fr[e], want);
        checked += s >= 0;
      }
      gp_reset();
    }
  assert_true(checked > 1000);
}

typedef struct {
  const char *scale;
  double x, y;
  int j;
} w_ctx;
static double w_of(double t, const void *p) {
  const w_ctx *c = p;
  return us_weight(c->scale, c->j ? c->x : t, c->j ? t : c->y);
}

static void t_weight(void **state) {
  (void)state;
  rng_t rng = {0x2545F4914F6CDD1DULL};
  fd_count fc = {0, 256};
  for (size_t k = 0; k < N_STRINGS; k++)
    for (size_t t = 0; t < N_TEST_NS; t++) {
      size_t n = test_ns[t];
      const char *scale = guarded(strings[k]);
      double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *r = gp_alloc(n * 8);
      double *r2 = gp_alloc(n * 8), *dr = gp_alloc(n * 8);
      double *dx = gp_alloc(n * 8), *dy = gp_alloc(n * 8);
      for (size_t e = 0; e < n; e++) {
        x[e] = rng_range(&rng, -3.0, 3.0);
        y[e] = rng_range(&rng, -3.0, 3.0);
        dr[e] = 1.0;
        dx[e] = dy[e] = 0.0;
      }
      us_weight_batched(n, scale, x, y, r);
      us_weight_grad(n, scale, x, y, r2, dr, dx, dy);
      for (size_t e = 0; e < n; e++) {
        double want = us_weight(scale, x[e], y[e]);
        same("us_weight", e, r[e], want);
        same("us_weight_grad's value", e, r2[e], want);
        w_ctx c = {scale, x[e], y[e], 0};
        fd_check(&fc, "us_weight/x", w_of, &c, x[e], dx[e]);
        c.j = 1;
        fd_check(&fc, "us_weight/y", w_of, &c, y[e], dy[e]);
      }
      gp_reset();
    }
  fd_expect(&fc, "us_weight", 2000);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_dtf),
      cmocka_unit_test(t_weight),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_uniform_string", tests, NULL, NULL);
}
