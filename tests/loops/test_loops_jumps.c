/* goto and switch (issue 13): NAME_batched against a loop over NAME (bit for
 * bit, every n of loop_ns[] and input pattern, per-lane different paths),
 * and NAME_grad against hand-written dual-number versions of the same code
 * and central finite differences (loops_grad.h). The functions are written
 * the way legacy numeric C uses these constructs: `goto small;` to a label
 * after a return, `goto done;` out of a loop, retry loops jumping back
 * (also out of a for loop, and entered in the middle from before), switch
 * with fallthrough, default and break, continue/return inside a switch in a
 * loop, varying and uniform selectors. */
#include "loops_grad.h"

#include "../common/test_filter.h"

/* The functions call no <math.h> function (whose vector versions may differ
 * by an ULP), so batched results must be bit-identical. */
static dual drat(dual y) { return ddiv(y, dadd(dc(1.0), dmul(y, y))); }

/* ---- goto -----------------------------------------------------------------
 */

/* Forward to a label after a return (the cephes idiom). */
BATCHDIFF double gsmall(double x, int n) {
  double z;
  if (x < 0.1 && x > -0.1)
    goto small;
  if (n > 5)
    goto big;
  z = x * x;
  return z * 0.5 + x / (1.0 + x * x) * n;
small:
  return x * (1.0 + 0.5 * x);
big:
  z = x * n;
  return z - z * z * 0.125;
}
static dual gsmall_dual(dual x, int n) {
  dual z;
  if (x.v < 0.1 && x.v > -0.1)
    return dmul(x, dadd(dc(1.0), dscale(x, 0.5)));
  if (n > 5) {
    z = dscale(x, n);
    return dsub(z, dscale(dmul(z, z), 0.125));
  }
  z = dmul(x, x);
  return dadd(dscale(z, 0.5), dscale(drat(x), n));
}

/* Forward out of a loop, skipping the code after it. */
BATCHDIFF double gdone(double x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s = s * x + 1.0 / (1.0 + s * s);
    if (s > 1.5)
      goto done;
  }
  s = s * 0.5;
done:
  return s * x;
}
static dual gdone_dual(dual x, int n) {
  dual s = dc(0.0);
  for (int i = 0; i < n; i++) {
    s = dadd(dmul(s, x), ddiv(dc(1.0), dadd(dc(1.0), dmul(s, s))));
    if (s.v > 1.5)
      return dmul(s, x);
  }
  s = dscale(s, 0.5);
  return dmul(s, x);
}

/* A retry loop made of a backward goto. */
BATCHDIFF double gretry(double x, int n) {
  double y = x;
  int k = 0;
again:
  y = 0.5 * y + y / (1.0 + y * y) * x;
  k++;
  if (k < n && fabs(y) < 2.0)
    goto again;
  return y + k;
}
static dual gretry_dual(dual x, int n) {
  dual y = x;
  int k = 0;
  do {
    y = dadd(dscale(y, 0.5), dmul(drat(y), x));
    k++;
  } while (k < n && fabs(y.v) < 2.0);
  return dadd(y, dc(k));
}

/* Backward out of a for loop (restart it), then forward past a statement. */
BATCHDIFF double grestart(double x, int n) {
  double s = x;
  int tries = 0;
restart:
  for (int i = 0; i < 4; i++) {
    s = s * 0.75 + 0.1 * i;
    if (s > 1.0 && tries < n) {
      tries++;
      s = s - 1.25 * fabs(x);
      goto restart;
    }
  }
  if (tries > 2)
    goto out;
  s = s * s;
out:
  return s + tries;
}
static dual grestart_dual(dual x, int n) {
  dual s = x;
  int tries = 0;
  for (;;) {
    int again = 0;
    for (int i = 0; i < 4; i++) {
      s = dadd(dscale(s, 0.75), dc(0.1 * i));
      if (s.v > 1.0 && tries < n) {
        tries++;
        s = dsub(s, dscale(dfabs(x), 1.25));
        again = 1;
        break;
      }
    }
    if (!again)
      break;
  }
  if (tries <= 2)
    s = dmul(s, s);
  return dadd(s, dc(tries));
}

/* A loop of gotos entered in the middle from before it (goto mid), and a
 * goto from inside it to after it. */
BATCHDIFF double gmid(double x, int n) {
  double y = x;
  int k = 0;
  if (x < 0.0)
    goto mid;
top:
  y = y * 1.125 + 0.25;
mid:
  y = y - 0.375 * y / (1.0 + y * y);
  k++;
  if (y > 6.0)
    goto out;
  if (k < n)
    goto top;
  y = y * 0.5;
out:
  return y * (k + 1);
}
static dual gmid_dual(dual x, int n) {
  dual y = x;
  int k = 0;
  int first = x.v < 0.0;
  for (;;) {
    if (!first)
      y = dadd(dscale(y, 1.125), dc(0.25));
    first = 0;
    y = dsub(y, ddiv(dscale(y, 0.375), dadd(dc(1.0), dmul(y, y))));
    k++;
    if (y.v > 6.0)
      return dscale(y, k + 1);
    if (!(k < n))
      break;
  }
  y = dscale(y, 0.5);
  return dscale(y, k + 1);
}

/* Nested backward gotos (an inner retry inside an outer one) and a label
 * nobody jumps to. */
BATCHDIFF double gnest(double x, int n) {
  double s = 0.0;
  int i = 0, j;
outer:
  j = 0;
inner:
  s = s * 0.5 + x * (i + j);
  j++;
  if (j < 3)
    goto inner;
unused:
  __attribute__((unused));
  i++;
  if (i < n)
    goto outer;
  return s;
}
static dual gnest_dual(dual x, int n) {
  dual s = dc(0.0);
  int i = 0, j;
  do {
    j = 0;
    do {
      s = dadd(dscale(s, 0.5), dscale(x, i + j));
      j++;
    } while (j < 3);
    i++;
  } while (i < n);
  return s;
}

/* ---- switch ---------------------------------------------------------------
 */

/* Fallthrough, default, break, return in a case; negative selectors go to
 * default. */
BATCHDIFF double sw1(double x, int n) {
  double r = x;
  switch (n % 4) {
  case 0:
    r = r * x;
    break;
  case 1:
    r += 1.0;
    /* fall through */
  case 2:
    r = r * 3.0 - x;
    break;
  case 3:
    return r / (1.0 + r * r);
  default:
    r = -r;
  }
  return r * x;
}
static dual sw1_dual(dual x, int n) {
  dual r = x;
  int c = n % 4;
  if (c == 0)
    r = dmul(r, x);
  else if (c == 1 || c == 2) {
    if (c == 1)
      r = dadd(r, dc(1.0));
    r = dsub(dscale(r, 3.0), x);
  } else if (c == 3)
    return drat(r);
  else
    r = dneg(r);
  return dmul(r, x);
}

/* In a loop: continue and return inside cases, break of the switch and of
 * the loop, a selector that differs per lane and per iteration. */
BATCHDIFF double sw2(double x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    switch ((i + (x > 0.0)) % 3) {
    case 0:
      s += x * i;
      continue;
    case 1:
      s = s * 0.5 + x;
      break;
    default:
      if (s > 5.0)
        return s;
      s -= 0.25 * x * x;
    }
    s += 0.125;
    if (s < -8.0)
      break;
  }
  return s * x;
}
static dual sw2_dual(dual x, int n) {
  dual s = dc(0.0);
  for (int i = 0; i < n; i++) {
    int c = (i + (x.v > 0.0)) % 3;
    if (c == 0) {
      s = dadd(s, dscale(x, i));
      continue;
    }
    if (c == 1) {
      s = dadd(dscale(s, 0.5), x);
    } else {
      if (s.v > 5.0)
        return s;
      s = dsub(s, dscale(dmul(x, x), 0.25));
    }
    s = dadd(s, dc(0.125));
    if (s.v < -8.0)
      break;
  }
  return dmul(s, x);
}

/* Case ranges (GNU), several labels on one statement, default first, a
 * declaration before the first case, goto out of a switch. */
BATCHDIFF double sw3(double x, int n) {
  double r = 1.0;
  switch (n) {
    int t;
  default:
    t = 2;
    r = x * t;
    break;
  case 0 ... 2:
    r = x * x;
  case 7:
  case 9:
    r += x;
    if (x > 1.0)
      goto out;
    r *= 2.0;
    break;
  case 4:
    goto out;
  }
  r = r - 0.5;
out:
  return r;
}
static dual sw3_dual(dual x, int n) {
  dual r = dc(1.0);
  if (n >= 0 && n <= 2)
    r = dmul(x, x);
  if ((n >= 0 && n <= 2) || n == 7 || n == 9) {
    r = dadd(r, x);
    if (x.v > 1.0)
      return r;
    r = dscale(r, 2.0);
  } else if (n == 4) {
    return r;
  } else {
    r = dscale(x, 2);
  }
  return dsub(r, dc(0.5));
}

/* Uniform selector (a mode): one branch for the whole batch. */
BATCHDIFF double swu(double x, BD_UNIFORM int mode) {
  switch (mode) {
  case 0:
    return x * x;
  case 1:
    x = x / (1.0 + x * x);
  case 2:
    return x * 3.0;
  default:
    break;
  }
  return -x;
}
static dual swu_dual(dual x, int mode) {
  if (mode == 0)
    return dmul(x, x);
  if (mode == 1 || mode == 2) {
    if (mode == 1)
      x = drat(x);
    return dscale(x, 3.0);
  }
  return dneg(x);
}

/* A switch on a char and on an unsigned value, in float. */
BATCHDIFF float swf(float x, int n) {
  unsigned char c = (unsigned char)n;
  float r = x;
  switch (c) {
  case 1:
    r = r * 2.0f;
  case 255:
    r = r - 1.0f;
    break;
  }
  switch ((unsigned)n) {
  case 4000000000u:
    r = 0.0f;
    break;
  case 3:
    r = r * r;
  }
  return r;
}

/* A float function with a goto loop. */
BATCHDIFF float gfl(float x, int n) {
  float y = x;
  int k = 0;
loop:
  if (k >= n)
    goto end;
  y = y * 0.5f + x;
  k++;
  goto loop;
end:
  return y;
}

/* ---- differential tests ----------------------------------------------------
 */

static int g_sel(rng_t *r, int pat, size_t b) {
  switch (pat) {
  case 0:
    return rng_below(r, 14) - 3;
  case 1:
    return rng_below(r, 300) - 150;
  case 2:
    return (int)(b % WF) - 2;
  case 3:
    return 1;
  default:
    return b % 2 ? 255 : -1;
  }
}
static int g_mode(rng_t *r, int pat) { return (int)rng_below(r, 5) + pat - 2; }
static float g_xf(rng_t *r, int pat, size_t b) { return (float)g_x(r, pat, b); }

LOOP_DIFF2(gsmall, double, V, double, g_x, V, int, g_n)
LOOP_DIFF2(gdone, double, V, double, g_x, V, int, g_n)
LOOP_DIFF2(gretry, double, V, double, g_x, V, int, g_n)
LOOP_DIFF2(grestart, double, V, double, g_x, V, int, g_n)
LOOP_DIFF2(gmid, double, V, double, g_x, V, int, g_n)
LOOP_DIFF2(gnest, double, V, double, g_x, V, int, g_n)
LOOP_DIFF2(sw1, double, V, double, g_x, V, int, g_sel)
LOOP_DIFF2(sw2, double, V, double, g_x, V, int, g_n)
LOOP_DIFF2(sw3, double, V, double, g_x, V, int, g_sel)
LOOP_DIFF2(swu, double, V, double, g_x, U, int, g_mode)
LOOP_DIFF2(swf, float, V, float, g_xf, V, int, g_sel)
LOOP_DIFF2(gfl, float, V, float, g_xf, V, int, g_n)

/* ---- gradient tests ---------------------------------------------------------
 */

#define GRAD_XN(fn, gen_n, ret_tol)                                            \
  static void grad_##fn(void **st) {                                           \
    (void)st;                                                                  \
    run_xn(#fn, fn##_grad, fn, fn##_dual, NULL, g_x, gen_n, ret_tol, 1e-9, 1); \
  }
GRAD_XN(gsmall, g_n, 0.0)
GRAD_XN(gdone, g_n, 0.0)
GRAD_XN(gretry, g_n, 0.0)
GRAD_XN(grestart, g_n, 0.0)
GRAD_XN(gmid, g_n, 0.0)
GRAD_XN(gnest, g_n, 0.0)
GRAD_XN(sw1, g_sel, 0.0)
GRAD_XN(sw2, g_n, 0.0)
GRAD_XN(sw3, g_sel, 0.0)

/* The uniform selector through the (x, n) harness: one mode per run. */
static int swu_mode;
static double swu_s(double x, int k) {
  (void)k;
  return swu(x, swu_mode);
}
static dual swu_d(dual x, int k) {
  (void)k;
  return swu_dual(x, swu_mode);
}
static void swu_g(size_t n, const double *x, const int *k, double *r,
                  const double *s, double *d) {
  (void)k;
  swu_grad(n, x, swu_mode, r, s, d);
}
static void grad_swu(void **st) {
  (void)st;
  for (swu_mode = -1; swu_mode <= 3; swu_mode++)
    run_xn("swu", swu_g, swu_s, swu_d, NULL, g_x, g_n, 0.0, 1e-9, 1);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T_(gsmall),
      T_(gdone),
      T_(gretry),
      T_(grestart),
      T_(gmid),
      T_(gnest),
      T_(sw1),
      T_(sw2),
      T_(sw3),
      T_(swu),
      T_(swf),
      T_(gfl),
      cmocka_unit_test(grad_gsmall),
      cmocka_unit_test(grad_gdone),
      cmocka_unit_test(grad_gretry),
      cmocka_unit_test(grad_grestart),
      cmocka_unit_test(grad_gmid),
      cmocka_unit_test(grad_gnest),
      cmocka_unit_test(grad_sw1),
      cmocka_unit_test(grad_sw2),
      cmocka_unit_test(grad_sw3),
      cmocka_unit_test(grad_swu),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
