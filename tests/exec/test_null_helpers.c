/* Helpers whose pointer parameter a call passes NULL (docs/subset.md, "A
 * helper's pointer parameter that its call passes a null pointer"), in the
 * shapes refused before:
 *   - nl_loops: loops testing the pointer, `while (s)`, `for (; s != NULL
 *     && ...;)`, `do ... while (s && ...)`: with NULL, C never runs the
 *     first two bodies (which dereference s) and the third once;
 *   - nl_copies: a local copy of the parameter (`int *t = s;`), tested,
 *     passed on to another helper and copied again;
 *   - nl_dead: long double only where such a test rules it out (`s ?
 *     ldfun(x) : ...`, `while (s)`, `s && ...`, and with a local array
 *     the other way round): the helper is inlined and differentiated, not
 *     called per example on the scalar function (whose value has no
 *     derivative: diff-long-double).
 *   - nl_maybe: a pointer local that may still be NULL (set to an array
 *     parameter in some examples) passed to a helper that copies the
 *     parameter (`const double *c = o;`), tests the copy and passes a copy
 *     of the copy on to a helper testing it: refused before (ptr-test),
 *     as the copy was not known not NULL where the call passes the array;
 *     against closed forms (values and gradients).
 * Each helper is also called with a local's address, where the loops and
 * copies run. NAME_batched against the scalar function (1e-13 relative:
 * the vector sin and exp are within the math bound, not glibc's bits),
 * NAME_grad's value bit for bit against NAME_batched's, its gradient
 * against Richardson-extrapolated central differences with a minimum of
 * points checked. */
#include "exec_fd.h"
#include "exec_util.h"

#include "../common/test_filter.h"

/* ---- loops testing the pointer ----------------------------------------- */

static double nl_poly(double x, int *s) {
  double r = x * x;
  while (s) {
    *s += x > 0.0;
    r += 0.5 * x;
    break;
  }
  for (int i = 0; s != NULL && i < 3; i++) {
    *s += i;
    r += x / (i + 1.0);
  }
  int k = 0;
  do {
    r = r * 0.75 + sin(x);
    k++;
  } while (s && k < *s);
  return r + k;
}
BATCHDIFF double nl_loops(double x) {
  int c = 0;
  double a = nl_poly(x, NULL);
  double b = nl_poly(0.5 * x, &c);
  return a + b * c;
}

/* ---- local copies of the pointer --------------------------------------- */

static void nl_bump(int *t, double x) {
  if (t)
    *t += x > 1.0 ? 2 : 1;
}
static double nl_copy(double x, int *s) {
  int *t = s; /* a copy, never re-pointed */
  nl_bump(t, x);
  const int *u = t; /* and a copy of the copy */
  double r = t ? 2.0 * x : x * x;
  if (u != NULL)
    r += *u;
  while (t) {
    r += exp(0.1 * x);
    break;
  }
  return r;
}
BATCHDIFF double nl_copies(double x) {
  int k = 1;
  return nl_copy(x, NULL) + nl_copy(x - 1.0, &k) * k;
}

/* ---- long double where a test of the pointer rules it out -------------- */

static long double nl_ld(double x) { return (long double)x * x + 1.0L; }
static double nl_pick(double x, const double *s) {
  double r = s ? (double)nl_ld(x) + s[0] : x * x;
  while (s) {
    r += (double)nl_ld(r);
    break;
  }
  if (s && nl_ld(x) > 2.0L)
    r += 1.0;
  return r;
}
static double nl_other(double x, const double *s) {
  return s ? x * s[0] + s[1] : (double)nl_ld(x);
}
BATCHDIFF double nl_dead(double x) {
  double a[2] = {x, 0.5};
  return nl_pick(x, NULL) * 3.0 + nl_other(x, a) + nl_other(2.0 * x, a) * x;
}

/* ---- copies of a parameter a maybe-NULL local is passed ----------------- */

static double nl_head(const double *o, double x) {
  return o ? o[1] * x : -0.5 * x;
}
static double nl_first(const double *o, double x) {
  const double *c = o; /* a copy, never re-pointed, tested */
  const double *d = c; /* a copy of the copy, passed on */
  return (c ? c[0] * x : x) + nl_head(d, x);
}
/* s x + 2 s x^2, s = a[0] + a[1] where x > 1, else 0.5. */
BATCHDIFF double nl_maybe(const double a[2], double x) {
  const double *c = NULL;
  if (x > 1.0)
    c = a;
  return nl_first(c, x) + nl_first(c, 2.0 * x) * x;
}

/* ---- tests ------------------------------------------------------------- */

static const size_t ns[] = {0,  1,      WF - 1,     WF,         WF + 1, WD - 1,
                            WD, WD + 1, 2 * WF + 3, 2 * WD + 3, 1000,   4099};
#define NNS (sizeof ns / sizeof ns[0])

typedef double (*f1)(double);
static double at1(double x, const void *f) { return ((f1)f)(x); }

/* NAME_batched within 1e-13 of the scalar function, NAME_grad's value bit
 * for bit NAME_batched's, its gradient against central differences of the
 * scalar function. */
static void
run1(const char *what, f1 f, void (*fb)(size_t, const double *, double *),
     void (*fg)(size_t, const double *, double *, const double *, double *),
     double lo, double hi, size_t min_fd) {
  rng_t rng = {name_seed(what)};
  fd_count fc = {0, 64};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *d = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++)
      x[e] = rng_range(&rng, lo, hi), d[e] = 0.0;
    gp_seal(x);
    fb(n, x, r);
    fg(n, x, r2, NULL, d);
    for (size_t e = 0; e < n; e++) {
      same_result(what, e, r[e], f(x[e]), 1e-13);
      same_result(what, e, r2[e], r[e], 0.0);
      if (e < 1500)
        fd_check(&fc, what, at1, (const void *)f, x[e], d[e]);
    }
    gp_reset();
  }
  fd_expect(&fc, what, min_fd);
}

static void t_loops(void **state) {
  (void)state;
  run1("nl_loops", nl_loops, nl_loops_batched, nl_loops_grad, -3.0, 3.0, 2000);
}

static void t_copies(void **state) {
  (void)state;
  run1("nl_copies", nl_copies, nl_copies_batched, nl_copies_grad, -3.0, 3.0,
       2000);
}

static void t_dead(void **state) {
  (void)state;
  run1("nl_dead", nl_dead, nl_dead_batched, nl_dead_grad, -3.0, 3.0, 2000);
}

/* nl_maybe: NAME_batched within 1e-15 of the scalar function, NAME_grad's
 * value bit for bit NAME_batched's, d_a and d_x against the closed forms
 * (d/dx = s (1 + 4 x); d/da[k] = x + 2 x^2 where x > 1, else 0). */
static void t_maybe(void **state) {
  (void)state;
  rng_t rng = {name_seed("nl_maybe")};
  for (size_t ni = 0; ni < NNS; ni++) {
    size_t n = ns[ni];
    double *a = gp_alloc(2 * n * 8), *x = gp_alloc(n * 8);
    double *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *da = gp_alloc(2 * n * 8), *dx = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -1.0, 3.0);
      a[2 * e] = rng_range(&rng, -2.0, 2.0);
      a[2 * e + 1] = rng_range(&rng, -2.0, 2.0);
      da[2 * e] = da[2 * e + 1] = dx[e] = 0.0;
    }
    gp_seal(a), gp_seal(x);
    nl_maybe_batched(n, a, 2, x, r);
    nl_maybe_grad(n, a, 2, x, r2, NULL, da, 2, dx);
    for (size_t e = 0; e < n; e++) {
      double xe = x[e], on = xe > 1.0;
      double s = on ? a[2 * e] + a[2 * e + 1] : 0.5;
      same_result("nl_maybe", e, r[e], nl_maybe(a + 2 * e, xe), 1e-15);
      same_result("nl_maybe grad value", e, r2[e], r[e], 0.0);
      same_result("nl_maybe d_x", e, dx[e], s * (1.0 + 4.0 * xe), 1e-13);
      for (int k = 0; k < 2; k++)
        same_result("nl_maybe d_a", e, da[2 * e + (size_t)k],
                    on ? xe + 2.0 * xe * xe : 0.0, 1e-13);
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_loops),
      cmocka_unit_test(t_copies),
      cmocka_unit_test(t_dead),
      cmocka_unit_test(t_maybe),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_null_helpers", tests, NULL, NULL);
}
