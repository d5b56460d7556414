/* Pointer locals set to NULL and assigned on some paths only, per example
 * (docs/subset.md): `best = NULL;` then `if (!best || a[i] < *best) best =
 * &a[i];` and `return best ? *best : 0;`, `c = NULL; if (x > 0) c = T;
 * ... if (c != NULL) y = c[1];`. Whether the pointer is null is a flag per
 * lane; its tests read the flag and every use is under such a test.
 *   - NAME_batched against the scalar function bit for bit (every n of
 *     exec_util.h, ties and NaN among the entries, guard pages);
 *   - nm_first_above (nm_early, nm_goto: left by an early return or a
 *     goto where it is NULL): a ragged BD_PACKED array of 0 to 6 elements,
 *     each ending at a guard page (the first 64 examples), so that a lane
 *     still NULL that read through the pointer (offset 0 of an empty array)
 *     would fault;
 *   - NAME_grad against closed forms (the entry each example chose, and a
 *     forward replica of nm_walk's loop). */
#include "exec_util.h"

#include "../common/test_filter.h"

static const double TA[3] = {1.25, -0.5, 0.375};
static const double TB[3] = {-2.0, 0.75, 1.5};
static const double TC[5] = {0.5, -1.0, 2.0, 0.25, 3.0};

/* The report: the first entry with the least a[i] * x (NaN never less). */
BATCHDIFF double best_of(const double a[8], double x) {
  const double *best = NULL;
  for (int i = 0; i < 8; i++)
    if (!best || a[i] * x < *best * x)
      best = &a[i];
  return best ? *best : 0.0;
}

/* The entry of a file-scope table nearest x (the first of ties). */
static const double K[6] = {3.0, 1.0, 4.0, 1.0, 5.0, -9.0};
BATCHDIFF double nm_nearest(double x) {
  const double *best = NULL;
  for (int i = 0; i < 6; i++)
    if (!best || fabs(K[i] - x) < fabs(*best - x))
      best = &K[i];
  return best ? *best * x : 0.0;
}

/* A table on some paths only: `c != NULL`, `c == NULL ||`, `c ? :`. */
BATCHDIFF double nm_opt(double x) {
  const double *c = NULL;
  double y = x * x;
  if (x > 0)
    c = TA;
  else if (x < -2)
    c = TB;
  if (c != NULL)
    y = c[1] * x + c[0];
  if (c == NULL || c[2] > 1)
    y += 1;
  return c ? y + c[2] * x : y;
}

/* The first entry above t of a ragged array (0 to 6 entries). */
BATCHDIFF double nm_first_above(int n, BD_PACKED const double x[n], double t) {
  const double *p = NULL;
  for (int k = 0; k < n; k++)
    if (x[k] > t) {
      p = &x[k];
      break;
    }
  return p ? *p * t : -t;
}

/* The same, left by an early return where it is NULL, or by a goto past
 * its use. */
BATCHDIFF double nm_early(int n, BD_PACKED const double x[n], double t) {
  const double *p = NULL;
  for (int k = 0; k < n; k++)
    if (x[k] > t) {
      p = x + k;
      break;
    }
  if (p == NULL)
    return -t;
  return *p * t;
}
BATCHDIFF double nm_goto(int n, BD_PACKED const double x[n], double t) {
  const double *p = NULL;
  double y = -t;
  for (int k = 0; k < n; k++)
    if (x[k] > t) {
      p = &x[k];
      break;
    }
  if (!p)
    goto out;
  y = p[0] * t;
out:
  return y;
}

/* float, a while loop: the least entry above x, `m == NULL ||`, `!= NULL ?`. */
BATCHDIFF float nm_next_up(const float a[5], float x) {
  const float *m = 0;
  int i = 0;
  while (i < 5) {
    if (a[i] > x && (m == NULL || a[i] < *m))
      m = a + i;
    i++;
  }
  return m != NULL ? *m - x : -1.0f;
}

/* `while (c && ...)`, set to NULL again inside the loop, `c ? c[4] : -1`;
 * forward mode too. */
BATCHDIFF BD_JVP double nm_walk(double x, int k) {
  const double *c = NULL;
  double s = 0;
  if (k & 1)
    c = TC;
  int steps = 0;
  while (c && steps < 4) {
    s = s * x + c[steps];
    if (s > 2)
      c = NULL;
    steps++;
  }
  return s + (c ? c[4] * x : -1.0);
}

/* A static inline helper, into its array parameter, called three times
 * (once with no entries: never assigned). */
static inline double nm_lowest(const double *v, int n) {
  const double *lo = NULL;
  for (int i = 0; i < n; i++)
    if (lo == NULL || v[i] < *lo)
      lo = v + i;
  return lo != NULL ? *lo : 100.0;
}
BATCHDIFF double nm_helper(const double w[6], double x) {
  return nm_lowest(w, 3) * x + nm_lowest(w + 3, 3) + nm_lowest(w, 0);
}

/* batch only: into a local array, written through under `if (p)`;
 * `(void)p;` of pointer locals does nothing. */
__attribute__((batch)) double nm_local(double x, double y) {
  double t[4] = {x, y, x * y, y - x};
  double *p = NULL, *q;
  (void)q;
  for (int i = 0; i < 4; i++)
    if (t[i] > 0 && (!p || t[i] > *p))
      p = &t[i];
  (void)p;
  if (p)
    *p += 10;
  return t[0] + 2 * t[1] + 3 * t[2] + 4 * t[3] + (p ? 0.5 : 0.0);
}

static int gen_k(rng_t *r) { return (int)rng_below(r, 9) - 4; }

BITS1(nm_opt, double, double, gen_d)
BITS1(nm_nearest, double, double, gen_d)
BITS2(nm_walk, double, double, gen_d, int, gen_k)
BITS2(nm_local, double, double, gen_d, double, gen_d)

enum { NG = 3 * WF + 5, REPS = 60 };

/* Entries with ties, NaN, signed zeros, infinities. */
static double gen_entry(rng_t *r) {
  static const double edge[] = {NAN,  0.0,      -0.0,      1.0,
                                -1.0, INFINITY, -INFINITY, 0.5};
  if (rng_below(r, 5) == 0)
    return edge[rng_below(r, sizeof edge / sizeof edge[0])];
  return (double)((int)rng_below(r, 9) - 4) * 0.5; /* ties */
}
static double gen_x(rng_t *r) {
  if (rng_below(r, 8) == 0)
    return rng_below(r, 2) ? NAN : 0.0;
  return rng_range(r, -3.0, 3.0);
}

/* The index best_of chooses (-1: none). */
static int best_index(const double *a, double x) {
  int b = -1;
  for (int i = 0; i < 8; i++)
    if (b < 0 || a[i] * x < a[b] * x)
      b = i;
  return b;
}

/* best_of and nm_next_up (arrays of entries): bits and closed-form
 * gradients, every n, inputs ending at guard pages. */
static void t_best_of(void **state) {
  (void)state;
  rng_t rng = {name_seed("best_of")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++)
    for (int rep = 0; rep < 6; rep++) {
      size_t n = test_ns[ni];
      double *a = gp_alloc(n * 8 * 8), *x = gp_alloc(n * 8);
      double *got = gp_alloc(n * 8), *s = gp_alloc(n * 8);
      double *ga = gp_alloc(n * 8 * 8), *gx = gp_alloc(n * 8);
      float *af = gp_alloc(n * 5 * 4), *xf = gp_alloc(n * 4);
      float *gotf = gp_alloc(n * 4), *gaf = gp_alloc(n * 5 * 4);
      float *gxf = gp_alloc(n * 4);
      for (size_t e = 0; e < n; e++) {
        for (int i = 0; i < 8; i++)
          a[e * 8 + i] = gen_entry(&rng), ga[e * 8 + i] = 0;
        for (int i = 0; i < 5; i++)
          af[e * 5 + i] = (float)gen_entry(&rng), gaf[e * 5 + i] = 0;
        x[e] = gen_x(&rng);
        xf[e] = (float)gen_x(&rng);
        s[e] = rng_range(&rng, -2.0, 2.0);
        gx[e] = gxf[e] = 0;
      }
      gp_seal(a), gp_seal(x), gp_seal(s), gp_seal(af), gp_seal(xf);
      best_of_batched(n, a, 8, x, got);
      for (size_t e = 0; e < n; e++) {
        double want = best_of(a + e * 8, x[e]);
        if (!CMP_BITS(got[e], want)) {
          print_error("best_of n=%zu e=%zu: %a, want %a\n", n, e, got[e], want);
          fail();
        }
      }
      best_of_grad(n, a, 8, x, got, s, ga, 8, gx);
      for (size_t e = 0; e < n; e++) {
        int b = best_index(a + e * 8, x[e]);
        bool ok = CMP_BITS(got[e], a[e * 8 + b]) && gx[e] == 0;
        for (int i = 0; i < 8; i++)
          ok &= ga[e * 8 + i] == (i == b ? s[e] : 0.0);
        if (!ok) {
          print_error("best_of_grad n=%zu e=%zu: entry %d\n", n, e, b);
          fail();
        }
      }
      nm_next_up_batched(n, af, 5, xf, gotf);
      nm_next_up_grad(n, af, 5, xf, NULL, NULL, gaf, 5, gxf);
      for (size_t e = 0; e < n; e++) {
        const float *ae = af + e * 5;
        float want = nm_next_up(ae, xf[e]);
        int m = -1;
        for (int i = 0; i < 5; i++)
          if (ae[i] > xf[e] && (m < 0 || ae[i] < ae[m]))
            m = i;
        bool ok = CMP_BITS(gotf[e], want) && gxf[e] == (m < 0 ? 0.0f : -1.0f);
        for (int i = 0; i < 5; i++)
          ok &= gaf[e * 5 + i] == (i == m ? 1.0f : 0.0f);
        if (!ok) {
          print_error("nm_next_up n=%zu e=%zu: %a, want %a (entry %d)\n", n, e,
                      (double)gotf[e], (double)want, m);
          fail();
        }
      }
      gp_reset();
    }
}

/* nm_first_above, nm_early, nm_goto over BD_PACKED arrays of 0 to 6
 * entries: each of the first 64 examples' entries end at a guard page (an
 * empty one: the page itself). */
typedef void (*packed_b)(size_t, const int *, const double *, const size_t *,
                         const double *, double *);
typedef void (*packed_g)(size_t, const int *, const double *, const size_t *,
                         const double *, double *, const double *, double *,
                         double *);
static const struct {
  const char *name;
  packed_b b;
  packed_g g;
  double (*f)(int, const double *, double);
} packed[] = {
    {"nm_first_above", nm_first_above_batched, nm_first_above_grad,
     nm_first_above},
    {"nm_early", nm_early_batched, nm_early_grad, nm_early},
    {"nm_goto", nm_goto_batched, nm_goto_grad, nm_goto},
};

static void t_first_above(void **state) {
  (void)state;
  rng_t rng = {name_seed("nm_first_above")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    int *len = gp_alloc(n * sizeof(int));
    size_t *off = gp_alloc(n * sizeof(size_t));
    double *t = gp_alloc(n * 8), *got = gp_alloc(n * 8), *dt = gp_alloc(n * 8);
    size_t total = 0;
    for (size_t e = 0; e < n; e++) {
      len[e] = (int)rng_below(&rng, 7);
      total += (size_t)len[e];
      t[e] = rng_below(&rng, 8) ? rng_range(&rng, -1.0, 1.0) : NAN;
    }
    double *base = gp_alloc(total * 8);
    const double **own = calloc(n + 1, sizeof *own);
    for (size_t e = 0, at = 0; e < n; at += (size_t)len[e], e++) {
      double *p = e < 64 ? gp_alloc((size_t)len[e] * 8) : base + at;
      own[e] = p;
      for (int k = 0; k < len[e]; k++)
        p[k] = base[at + (size_t)k] =
            rng_below(&rng, 6) ? rng_range(&rng, -1.0, 1.0) : NAN;
    }
    for (size_t e = 0, o = 0; e < n; e++)
      off[e] = o, o += (size_t)len[e];
    for (size_t f = 0; f < sizeof packed / sizeof packed[0]; f++) {
      for (size_t e = 0; e < n; e++)
        dt[e] = 0.0;
      /* (One base per call: the first 64 examples one call each.) */
      for (size_t e = 0; e < n && e < 64; e++) {
        size_t zero = 0;
        packed[f].b(1, &len[e], own[e], &zero, &t[e], &got[e]);
        packed[f].g(1, &len[e], own[e], &zero, &t[e], NULL, NULL, NULL, &dt[e]);
      }
      if (n > 64) {
        packed[f].b(n - 64, len + 64, base, off + 64, t + 64, got + 64);
        packed[f].g(n - 64, len + 64, base, off + 64, t + 64, NULL, NULL, NULL,
                    dt + 64);
      }
      for (size_t e = 0; e < n; e++) {
        double want = packed[f].f(len[e], own[e], t[e]), d = -1.0;
        for (int k = 0; k < len[e]; k++)
          if (own[e][k] > t[e]) {
            d = own[e][k];
            break;
          }
        if (!CMP_BITS(got[e], want) || !CMP_BITS(dt[e], d)) {
          print_error("%s n=%zu e=%zu len=%d: %a want %a, d %a want %a\n",
                      packed[f].name, n, e, len[e], got[e], want, dt[e], d);
          fail();
        }
      }
    }
    free(own);
    gp_reset();
  }
}

/* nm_opt, nm_nearest, nm_walk, nm_helper: gradients against closed
 * forms. */
static void t_grad(void **state) {
  (void)state;
  rng_t rng = {name_seed("nm_grad")};
  for (int rep = 0; rep < REPS; rep++) {
    double x[NG], s[NG], g1[NG], g2[NG], g3[NG], w[NG][6], gw[NG][6];
    double tx[NG], jr[NG], jd[NG], g4[NG];
    int k[NG];
    for (int e = 0; e < NG; e++) {
      x[e] = rng_range(&rng, -4.0, 4.0);
      k[e] = gen_k(&rng);
      s[e] = rng_range(&rng, -2.0, 2.0);
      tx[e] = rng_range(&rng, -2.0, 2.0);
      g1[e] = g2[e] = g3[e] = g4[e] = 0;
      for (int j = 0; j < 6; j++) /* finite, with ties */
        w[e][j] = (double)((int)rng_below(&rng, 9) - 4) * 0.5, gw[e][j] = 0;
    }
    nm_opt_grad(NG, x, NULL, s, g1);
    nm_nearest_grad(NG, x, NULL, s, g4);
    nm_walk_grad(NG, x, k, NULL, s, g2);
    nm_walk_jvp(NG, x, k, tx, jr, jd);
    nm_helper_grad(NG, &w[0][0], 6, x, NULL, s, &gw[0][0], 6, g3);
    for (int e = 0; e < NG; e++) {
      const double *c = x[e] > 0 ? TA : x[e] < -2 ? TB : NULL;
      double d1 = c ? c[1] + c[2] : 2 * x[e];
      /* nm_walk, forward: s' = s' x + s. */
      double v = 0, dv = 0, d2;
      int on = k[e] & 1, st = 0;
      while (on && st < 4) {
        dv = dv * x[e] + v;
        v = v * x[e] + TC[st];
        if (v > 2)
          on = 0;
        st++;
      }
      d2 = dv + (on ? TC[4] : 0.0);
      double w2 = nm_walk(x[e], k[e]);
      int nb = 0;
      for (int i = 1; i < 6; i++)
        if (fabs(K[i] - x[e]) < fabs(K[nb] - x[e]))
          nb = i;
      /* nm_helper: the least of each half (first of ties; NaN never less). */
      double dw[6] = {0}, d3;
      int lo[2];
      for (int h = 0; h < 2; h++) {
        lo[h] = 3 * h;
        for (int i = 1; i < 3; i++)
          if (w[e][3 * h + i] < w[e][lo[h]])
            lo[h] = 3 * h + i;
      }
      dw[lo[0]] += x[e];
      dw[lo[1]] += 1;
      d3 = w[e][lo[0]];
      bool ok = close_to(g1[e], s[e] * d1, 1e-12) &&
                close_to(g2[e], s[e] * d2, 1e-12) &&
                close_to(g4[e], s[e] * K[nb], 1e-12) &&
                close_to(jd[e], tx[e] * d2, 1e-12) && CMP_BITS(jr[e], w2) &&
                close_to(g3[e], s[e] * d3, 1e-12);
      for (int j = 0; j < 6; j++)
        ok &= close_to(gw[e][j], s[e] * dw[j], 1e-12);
      if (!ok) {
        print_error("x=%.17g k=%d: nm_opt' %.17g want %.17g, nm_walk' %.17g "
                    "want %.17g, nm_helper' %.17g want %.17g\n",
                    x[e], k[e], g1[e], s[e] * d1, g2[e], s[e] * d2, g3[e],
                    s[e] * d3);
        fail();
      }
    }
  }
}

/* nm_helper's values: bits vs the scalar function. */
static void t_helper(void **state) {
  (void)state;
  rng_t rng = {name_seed("nm_helper")};
  for (int rep = 0; rep < REPS; rep++) {
    double x[NG], w[NG][6], r[NG];
    for (int e = 0; e < NG; e++) {
      x[e] = gen_x(&rng);
      for (int j = 0; j < 6; j++)
        w[e][j] = gen_entry(&rng);
    }
    nm_helper_batched(NG, &w[0][0], 6, x, r);
    for (int e = 0; e < NG; e++) {
      double want = nm_helper(w[e], x[e]);
      if (!CMP_BITS(r[e], want)) {
        print_error("nm_helper(%.17g): %.17g, want %.17g\n", x[e], r[e], want);
        fail();
      }
    }
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T_(nm_opt),
      T_(nm_nearest),
      T_(nm_walk),
      T_(nm_local),
      cmocka_unit_test(t_best_of),
      cmocka_unit_test(t_first_above),
      cmocka_unit_test(t_grad),
      cmocka_unit_test(t_helper),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_null_maybe", tests, NULL, NULL);
}
