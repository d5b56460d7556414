/* Rows of an array member of an element of an array of structs passed to
 * functions of another file marked batch, diff (record_rows.h), as ERFA's
 * eraLdn passes `b[i].pv[0]` of its `eraLDBODY b[]` to eraPmp: each
 * example's call gets a copy of the member's elements of that record (the
 * record at a per-example index, in a loop to a per-example count), read
 * and written in place, differentiated through the callee's NAME_grad
 * (docs/calls.md). Before: call-extern-table ("with 'b[i].pv[0]' as an
 * argument"). For n = 0 .. 37 examples of 0 .. 4 records each, records
 * ending at guard pages: NAME_batched's and NAME_grad's values and
 * records are the scalar function's bits; every partial (ob, each record's
 * bm, dl and pv) agrees with Richardson central differences. */
#include "exec_util.h"

#include "../common/test_filter.h"
#include "record_rows.h"

#include <math.h>
#include <string.h>

BATCHDIFF double walk(int n, rr_body b[], double ob[3]) {
  double s = 0.0, v[3];
  for (int i = 0; i < n; i++) {
    rr_pmp(ob, b[i].pv[0], v);
    rr_half(b[i].pv[1]);
    s += v[0] * b[i].bm + v[1] * v[2] + b[i].pv[1][2] * b[i].dl;
  }
  return s;
}

/* The address of a scalar member passed with an array member of the same
 * struct, as eraApcs calls `eraPn(ph, &astrom->em, astrom->eh)`: of the
 * function's struct out-parameter, and of a struct local. */
BATCHDIFF double apcs(double x, double y, rr_astrom *a) {
  double ph[3] = {x, y, x * y + 1.0};
  rr_pn(ph, &a->em, a->eh);
  return a->em * x + a->eh[1] * y;
}

BATCHDIFF double apcs_local(double x, double y) {
  rr_astrom s;
  double ph[3] = {x, y, 1.5};
  rr_pn(ph, &s.em, s.eh);
  return s.em * s.eh[0] + s.eh[2];
}

enum { MB = 4, NIN = 3 + MB * 8 };

/* Input k of an example: ob[k] (k < 3), else record (k - 3) / 8's member
 * (k - 3) % 8 (bm, dl, pv). */
static double *at(double *ob, rr_body *b, int k) {
  if (k < 3)
    return &ob[k];
  rr_body *r = &b[(k - 3) / 8];
  int m = (k - 3) % 8;
  return m == 0 ? &r->bm : m == 1 ? &r->dl : &r->pv[(m - 2) / 3][(m - 2) % 3];
}

static double walk_at(int n, const rr_body *b0, const double *ob0, int k,
                      double h) {
  rr_body b[MB];
  double ob[3];
  memcpy(b, b0, sizeof b);
  memcpy(ob, ob0, sizeof ob);
  *at(ob, b, k) += h;
  return walk(n, b, ob);
}

static void test_walk(void **state) {
  (void)state;
  rng_t r = {name_seed("walk")};
  long checked = 0, points = 0;
  for (size_t n = 0; n <= 37; n++) {
    int *cnt = gp_alloc((n + 1) * sizeof(int));
    double *ob = gp_alloc((n + 1) * 3 * 8), *dob = gp_alloc((n + 1) * 3 * 8);
    double *ret = gp_alloc((n + 1) * 8), *ret2 = gp_alloc((n + 1) * 8);
    size_t nb = n ? n * MB : 1;
    rr_body *b0 = gp_alloc(nb * sizeof(rr_body));
    rr_body *b = gp_alloc(nb * sizeof(rr_body));
    rr_body *b2 = gp_alloc(nb * sizeof(rr_body));
    rr_body *db = gp_alloc(nb * sizeof(rr_body));
    for (size_t e = 0; e < n; e++) {
      cnt[e] = rng_below(&r, MB + 1);
      for (int k = 0; k < NIN; k++)
        *at(ob + 3 * e, b0 + e * MB, k) = -2.0 + 4.0 * rng_unit(&r);
    }
    memcpy(b, b0, nb * sizeof(rr_body));
    memcpy(b2, b0, nb * sizeof(rr_body));
    memset(db, 0, nb * sizeof(rr_body));
    memset(dob, 0, (n + 1) * 3 * 8);
    walk_batched(n, cnt, b, MB, ob, 3, ret);
    walk_grad(n, cnt, b2, MB, ob, 3, ret2, NULL, db, MB, dob, 3);
    for (size_t e = 0; e < n; e++) {
      rr_body s[MB];
      memcpy(s, b0 + e * MB, sizeof s);
      double want = walk(cnt[e], s, ob + 3 * e);
      if (memcmp(&want, &ret[e], 8) || memcmp(&want, &ret2[e], 8))
        fail_msg("walk n=%zu example %zu: %a (grad %a), scalar %a", n, e,
                 ret[e], ret2[e], want);
      if (memcmp(s, b + e * MB, sizeof s) || memcmp(s, b2 + e * MB, sizeof s))
        fail_msg("walk n=%zu example %zu: the records differ", n, e);
      for (int k = 0; k < 3 + 8 * cnt[e]; k++) {
        double dd[3];
        for (int j = 0; j < 3; j++) {
          double h = 1e-3 / (1 << j);
          dd[j] = (walk_at(cnt[e], b0 + e * MB, ob + 3 * e, k, h) -
                   walk_at(cnt[e], b0 + e * MB, ob + 3 * e, k, -h)) /
                  (2 * h);
        }
        double r1 = (4 * dd[1] - dd[0]) / 3, r2 = (4 * dd[2] - dd[1]) / 3;
        double g = *at(dob + 3 * e, db + e * MB, k);
        points++;
        if (!isfinite(r2) || fabs(r1 - r2) > 1e-8 * (1 + fabs(r2)))
          continue;
        checked++;
        if (!(fabs(g - r2) <= 1e-6 * (1 + fabs(r2))))
          fail_msg("walk n=%zu example %zu: partial %d %.17g, differences "
                   "%.17g",
                   n, e, k, g, r2);
      }
    }
    gp_reset();
  }
  if (checked * 2 < points)
    fail_msg("walk: %ld of %ld partials checked", checked, points);
}

/* Richardson central difference of f in x (w 0) or y (w 1); *ok false at
 * a kink. */
static double rich2(double (*f)(double, double), double x, double y, int w,
                    int *ok) {
  double d[3];
  for (int j = 0; j < 3; j++) {
    double h = 1e-3 / (1 << j);
    d[j] = w ? (f(x, y + h) - f(x, y - h)) / (2 * h)
             : (f(x + h, y) - f(x - h, y)) / (2 * h);
  }
  double r1 = (4 * d[1] - d[0]) / 3, r2 = (4 * d[2] - d[1]) / 3;
  *ok = isfinite(r2) && fabs(r1 - r2) <= 1e-8 * (1 + fabs(r2));
  return r2;
}

static double apcs_ret(double x, double y) {
  rr_astrom a;
  return apcs(x, y, &a);
}

static void test_apcs(void **state) {
  (void)state;
  rng_t r = {name_seed("apcs")};
  long checked = 0, points = 0;
  for (size_t n = 0; n <= 37; n++) {
    double *x = gp_alloc((n + 1) * 8), *y = gp_alloc((n + 1) * 8);
    double *ret = gp_alloc((n + 1) * 8), *ret2 = gp_alloc((n + 1) * 8);
    double *ret3 = gp_alloc((n + 1) * 8), *ret4 = gp_alloc((n + 1) * 8);
    double *dx = gp_alloc((n + 1) * 8), *dy = gp_alloc((n + 1) * 8);
    double *dx2 = gp_alloc((n + 1) * 8), *dy2 = gp_alloc((n + 1) * 8);
    rr_astrom *a = gp_alloc((n + 1) * sizeof(rr_astrom));
    rr_astrom *a2 = gp_alloc((n + 1) * sizeof(rr_astrom));
    rr_astrom *da = gp_alloc((n + 1) * sizeof(rr_astrom));
    for (size_t e = 0; e < n; e++) {
      x[e] = -2.0 + 4.0 * rng_unit(&r);
      y[e] = -2.0 + 4.0 * rng_unit(&r);
      dx[e] = dy[e] = dx2[e] = dy2[e] = 0.0;
    }
    memset(da, 0, (n + 1) * sizeof(rr_astrom));
    apcs_batched(n, x, y, a, 1, ret);
    apcs_grad(n, x, y, a2, 1, ret2, NULL, dx, dy, da, 1);
    apcs_local_batched(n, x, y, ret3);
    apcs_local_grad(n, x, y, ret4, NULL, dx2, dy2);
    for (size_t e = 0; e < n; e++) {
      rr_astrom w;
      double want = apcs(x[e], y[e], &w), want2 = apcs_local(x[e], y[e]);
      if (memcmp(&want, &ret[e], 8) || memcmp(&want, &ret2[e], 8) ||
          memcmp(&w, &a[e], sizeof w) || memcmp(&w, &a2[e], sizeof w) ||
          memcmp(&want2, &ret3[e], 8) || memcmp(&want2, &ret4[e], 8))
        fail_msg("apcs n=%zu example %zu: %a %a, scalar %a %a", n, e, ret[e],
                 ret3[e], want, want2);
      for (int k = 0; k < 4; k++) {
        int ok;
        double fd =
            rich2(k < 2 ? apcs_ret : apcs_local, x[e], y[e], k % 2, &ok);
        double g = k == 0 ? dx[e] : k == 1 ? dy[e] : k == 2 ? dx2[e] : dy2[e];
        points++;
        if (!ok)
          continue;
        checked++;
        if (!(fabs(g - fd) <= 1e-6 * (1 + fabs(fd))))
          fail_msg("apcs n=%zu example %zu: partial %d %.17g, differences "
                   "%.17g",
                   n, e, k, g, fd);
      }
    }
    gp_reset();
  }
  if (checked * 2 < points)
    fail_msg("apcs: %ld of %ld partials checked", checked, points);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_walk),
      cmocka_unit_test(test_apcs),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_record_rows", tests, NULL, NULL);
}
