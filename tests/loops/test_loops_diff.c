/* Differential tests of loops: NAME_batched against a loop over the scalar
 * NAME, bit for bit (any NaN matches any NaN), for n in loop_ns[] and the
 * input patterns of loops_util.h (random, staircase = every lane of a chunk
 * a different trip count, all lanes equal, mostly-zero trips with one long
 * lane). Outputs and inputs end at guard pages; inputs are read-only.
 *
 * trip_* tests check that the staircase pattern really gives every lane of a
 * chunk a different trip count (so the tests above are not vacuous). */
#include "loops_util.h"
#include "../common/test_filter.h"

/* ---- Newton iterations that stop when converged -------------------------- */

BATCHDIFF double nsqrt_d(double a) {
  if (!(a > 0.0))
    return 0.0; /* no iteration at all */
  double x = a > 1.0 ? a : 1.0;
  for (int i = 0; i < 100; i++) {
    double nx = 0.5 * (x + a / x);
    if (fabs(nx - x) <= 1e-15 * nx) {
      x = nx;
      break;
    }
    x = nx;
  }
  return x;
}

/* The same loop, returning its trip count. */
BD_BATCH int nsqrt_iters(double a) {
  if (!(a > 0.0))
    return 0;
  double x = a > 1.0 ? a : 1.0;
  int it = 0;
  for (int i = 0; i < 100; i++) {
    double nx = 0.5 * (x + a / x);
    it++;
    if (fabs(nx - x) <= 1e-15 * nx) {
      x = nx;
      break;
    }
    x = nx;
  }
  return it;
}

BATCHDIFF float nsqrt_f(float a) {
  if (!(a > 0.0f))
    return 0.0f;
  float x = a > 1.0f ? a : 1.0f;
  int i = 0;
  while (i < 60) {
    float nx = 0.5f * (x + a / x);
    if (fabsf(nx - x) <= 1e-6f * nx) {
      x = nx;
      break;
    }
    x = nx;
    i++;
  }
  return x;
}

/* Newton for the cube root: while loop, test after the update. */
BATCHDIFF double ncbrt(double a) {
  double x = fabs(a) > 1.0 ? a : (a < 0.0 ? -1.0 : 1.0);
  int it = 0;
  while (it < 200) {
    double d = (x * x * x - a) / (3.0 * x * x);
    x -= d;
    it++;
    if (fabs(d) <= 1e-14 * fabs(x))
      break;
  }
  return x;
}

static double g_pos(rng_t *r, int pat, size_t b) {
  static const double edge[] = {0.0,  -0.0,     1.0,      -1.0,   NAN,
                                INFINITY, -INFINITY, 1e-300, 1e300, 0.25,
                                4.0,  DBL_MIN,  5e-324};
  switch (pat) {
  case 0:
    if (rng_below(r, 6) == 0)
      return edge[rng_below(r, sizeof edge / sizeof edge[0])];
    return exp(rng_range(r, -60.0, 60.0));
  case 1:
    return rng_range(r, -1.0, 100.0);
  case 2: /* trip counts 0, 1, then growing with log(a) */
    if (b % WF == 0)
      return -2.0;
    if (b % WF == 1)
      return 1.0;
    return pow(4.0, 3.0 * (double)(b % WF));
  case 3:
    return 2.0;
  default:
    return b % WF == WF / 2 ? 1e300 : -1.0;
  }
}
static float g_posf(rng_t *r, int pat, size_t b) {
  if (pat == 0 && rng_below(r, 6) == 0) {
    static const float edge[] = {0.0f, -0.0f, 1.0f, NAN, INFINITY, FLT_MAX,
                                 FLT_MIN, 1e-45f};
    return edge[rng_below(r, sizeof edge / sizeof edge[0])];
  }
  if (pat == 2)
    return b % WF == 0 ? -2.0f
           : b % WF == 1 ? 1.0f
                         : powf(4.0f, 1.5f * (float)(b % WF));
  if (pat == 0)
    return expf((float)rng_range(r, -40.0, 40.0));
  return (float)g_pos(r, pat, b);
}
static double g_any(rng_t *r, int pat, size_t b) {
  if (pat == 0 && rng_below(r, 2) == 0)
    return -g_pos(r, pat, b);
  if (pat == 2 && (b & 1))
    return -g_pos(r, pat, b);
  return g_pos(r, pat, b);
}

LOOP_DIFF1(nsqrt_d, double, V, double, g_pos)
LOOP_DIFF1(nsqrt_iters, int, V, double, g_pos)
LOOP_DIFF1(nsqrt_f, float, V, float, g_posf)
LOOP_DIFF1(ncbrt, double, V, double, g_any)

/* ---- escape time (Mandelbrot), uniform max iteration count --------------- */

BD_BATCH int mandel(double cr, double ci, BD_UNIFORM int maxit) {
  double zr = 0.0, zi = 0.0;
  int k = 0;
  while (k < maxit && zr * zr + zi * zi <= 4.0) {
    double t = zr * zr - zi * zi + cr;
    zi = 2.0 * zr * zi + ci;
    zr = t;
    k++;
  }
  return k;
}

BATCHDIFF float mandel_f(float cr, float ci, BD_UNIFORM int maxit) {
  float zr = 0.0f, zi = 0.0f;
  for (int k = 0; k < maxit; k++) {
    float zr2 = zr * zr, zi2 = zi * zi;
    if (zr2 + zi2 > 4.0f)
      return (float)k - log2f(log2f(zr2 + zi2)); /* smooth escape count */
    zi = 2.0f * zr * zi + ci;
    zr = zr2 - zi2 + cr;
  }
  return (float)maxit;
}

static double g_cr(rng_t *r, int pat, size_t b) {
  switch (pat) {
  case 0:
    return rng_range(r, -2.2, 0.8);
  case 1:
    return rng_range(r, -0.8, 0.45);
  case 2: { /* real axis, c = 1/4 + e^2: escapes after ~pi/e iterations
              (3, 6, 10, 14, ...); c = 0 never escapes */
    double e = 3.14159 / (4.0 * (double)(b % WF));
    return b % WF == 0 ? 0.0 : 0.25 + e * e;
  }
  case 3:
    return -0.5;
  default:
    return b % WF == 1 ? 0.0 : 5.0;
  }
}
static double g_ci(rng_t *r, int pat, size_t b) {
  (void)b;
  if (pat <= 1)
    return rng_range(r, -1.2, 1.2);
  if (pat == 0 && rng_below(r, 20) == 0)
    return NAN;
  return 0.0;
}
static float g_crf(rng_t *r, int pat, size_t b) { return (float)g_cr(r, pat, b); }
static float g_cif(rng_t *r, int pat, size_t b) { return (float)g_ci(r, pat, b); }
static int g_maxit(rng_t *r, int pat) {
  static const int v[] = {0, 1, 100, 30, 300};
  (void)r;
  return v[pat];
}

LOOP_DIFF3(mandel, int, V, double, g_cr, V, double, g_ci, U, int, g_maxit)
/* log2f: the batched log2 may differ from libm's; the escape counts (the
 * integer part) are exact and the comparison is bitwise, so keep the smooth
 * part as long as the runtime's log2f matches libm bit for bit. */
LOOP_DIFF3(mandel_f, float, V, float, g_crf, V, float, g_cif, U, int,
           g_maxit)

/* ---- loops bounded by a varying int --------------------------------------- */

BATCHDIFF double powsum(double x, int n) {
  double acc = 0.0, p = 1.0;
  for (int i = 0; i < n; i++) {
    acc += p;
    p *= x;
  }
  return acc;
}

BATCHDIFF double dowhile(double x, int n) {
  double y = x;
  do {
    y = y * 0.5 + 1.0;
    n--;
  } while (n > 0);
  return y;
}

BATCHDIFF float while_break(float x, int n) {
  float s = 0.0f;
  int i = 0;
  while (1) {
    if (i >= n)
      break;
    s += x;
    x = x * 0.75f + 0.25f;
    if (s > 100.0f)
      break;
    i++;
  }
  return s;
}

BATCHDIFF double for_continue(double x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    if (i % 3 == 1)
      continue;
    if (x * i > 50.0)
      continue;
    s += x * i + 1.0;
  }
  return s;
}

BATCHDIFF double nested_ret(double x, int n, int m) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    int j = 0;
    while (j < m) {
      s += x * (i + 1) - j;
      if (s > 20.0)
        return s * 2.0;
      if (s < -20.0)
        return -1.0;
      j++;
    }
    s *= 0.5;
  }
  return s;
}

/* Loops inside branches, branches inside loops, side effects in the loop
 * condition. */
BATCHDIFF double branchy(double x, int n) {
  double r = 0.0;
  if (x > 0.0) {
    for (int i = 0; i < n; i++)
      r += x / (i + 1);
  } else if (x < -5.0) {
    int k = n;
    while (k > 0) {
      r -= x;
      k -= 2;
    }
  } else {
    r = x;
    do {
      if (r < 0.0)
        r = -r * 0.5;
      else
        r = r - 1.0;
    } while (r > 0.1 && --n > 0);
  }
  return r;
}

/* Inner trip count depends on the outer index and a varying bound. */
BATCHDIFF double triangle(double x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      if (j == 5)
        break;
      s = s * 0.5 + x * j;
    }
  return s;
}

static double g_x(rng_t *r, int pat, size_t b) {
  if (pat == 0 && rng_below(r, 10) == 0) {
    static const double edge[] = {0.0, -0.0, NAN, INFINITY, -INFINITY,
                                  1e300, -1e300, 1.0, -1.0, 50.0};
    return edge[rng_below(r, sizeof edge / sizeof edge[0])];
  }
  if (pat == 3)
    return 0.75;
  if (pat == 2)
    return (b & 1) ? -(double)(b % WF) * 1.5 : (double)(b % WF) * 0.7;
  return rng_range(r, -12.0, 12.0);
}
static float g_xf(rng_t *r, int pat, size_t b) { return (float)g_x(r, pat, b); }
/* Trip-count parameters: 0, negative, small, one long lane. */
static int g_n(rng_t *r, int pat, size_t b) {
  switch (pat) {
  case 0:
    return rng_below(r, 12) == 0 ? -rng_below(r, 5) : rng_below(r, 40);
  case 1:
    return rng_below(r, 4);
  case 2:
    return (int)(b % WF) * 3;
  case 3:
    return 7;
  default:
    return b % WF == WF - 1 ? 300 : 0;
  }
}
static int g_m(rng_t *r, int pat, size_t b) {
  if (pat == 2)
    return (int)((b * 5 + 3) % WF);
  return g_n(r, pat, b) / 2;
}

LOOP_DIFF2(powsum, double, V, double, g_x, V, int, g_n)
LOOP_DIFF2(dowhile, double, V, double, g_x, V, int, g_n)
LOOP_DIFF2(while_break, float, V, float, g_xf, V, int, g_n)
LOOP_DIFF2(for_continue, double, V, double, g_x, V, int, g_n)
LOOP_DIFF3(nested_ret, double, V, double, g_x, V, int, g_n, V, int, g_m)
LOOP_DIFF2(branchy, double, V, double, g_x, V, int, g_n)
LOOP_DIFF2(triangle, double, V, double, g_x, V, int, g_n)

/* ---- loop-carried values of every scalar type ---------------------------- */

BD_BATCH int carried_int(int a, int n) {
  unsigned h = (unsigned)a;
  int cnt = 0;
  for (int i = 0; i < n; i++) {
    h = h * 2654435761u + (unsigned)i;
    h ^= h >> 13;
    if (h & 1u)
      cnt++;
  }
  return (int)(h >> 1) + cnt;
}

BD_BATCH _Bool carried_bool(double x, int n) {
  _Bool b = x > 0.0;
  for (int i = 0; i < n; i++) {
    b = b != (x * i > 3.0);
    if (x < -1.0 && i > 2)
      b = !b;
  }
  return b;
}

BATCHDIFF float carried_float(float x, int n) {
  float s = x;
  int i = 0;
  while (i < n) {
    s = s * 0.9f + (float)i * 0.01f;
    i++;
  }
  return s;
}

BATCHDIFF double carried_mix(float f, double d, int n) {
  int k = 0;
  _Bool flip = 0;
  float ff = f;
  double dd = d;
  long long big = 1;
  for (int i = 0; i < n; i++) {
    ff = ff * 0.5f + 1.0f;
    dd = dd * 0.25 + ff;
    k += flip ? 2 : 1;
    flip = !flip;
    big = big * 3 % 1000003;
  }
  return dd + ff + k + flip + (double)big;
}

static int g_int(rng_t *r, int pat, size_t b) {
  (void)pat;
  (void)b;
  return (int)rng_u64(r);
}

LOOP_DIFF2(carried_int, int, V, int, g_int, V, int, g_n)
LOOP_DIFF2(carried_bool, _Bool, V, double, g_x, V, int, g_n)
LOOP_DIFF2(carried_float, float, V, float, g_xf, V, int, g_n)
LOOP_DIFF3(carried_mix, double, V, float, g_xf, V, double, g_x, V, int, g_n)

/* ---- uniform trip count: bounds from uniform parameters only ------------- */

BATCHDIFF double uni_loop(double x, BD_UNIFORM int n, BD_UNIFORM double w) {
  double s = x;
  for (int i = 0; i < n; i++)
    s = s * w + x;
  return s;
}

/* Uniform bound, but a varying break. */
BATCHDIFF double uni_break(double x, BD_UNIFORM int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++) {
    s += x;
    if (s > 10.0)
      break;
  }
  return s;
}

static int g_un(rng_t *r, int pat) {
  static const int v[] = {0, 1, 7, 64, 1000};
  (void)r;
  return v[pat];
}
static double g_uw(rng_t *r, int pat) {
  (void)r;
  return pat == 3 ? -1.0 : 0.5;
}

LOOP_DIFF3(uni_loop, double, V, double, g_x, U, int, g_un, U, double, g_uw)
LOOP_DIFF2(uni_break, double, V, double, g_x, U, int, g_un)

/* ---- loop counters kept uniform (analysis/LoopCounters.cpp) -------------- */

/* The step runs under "not broken": lanes that break skip it, and the body
 * reads the counter under the same guard; read after the loop too, so it
 * stays per lane there. */
BATCHDIFF double ctr_after(double x, int n) {
  double s = 0.0;
  int i;
  for (i = 0; i < n; i++) {
    if (s > x)
      break;
    s += i;
  }
  return s + i;
}

/* Incremented before the break, read after it by the lanes that stay. */
BATCHDIFF double ctr_early(double x, int n) {
  double s = 0.0;
  int i = 0;
  while (i < n) {
    i++;
    if (s > x)
      break;
    s += 0.5 * i;
  }
  return s;
}

/* Skipped by continue (lanes that stay): must stay per lane. */
BATCHDIFF double ctr_continue(double x, int n) {
  double s = 0.0;
  int j = 0;
  for (int i = 0; i < n; i++) {
    if (x * i > 2.0)
      continue;
    j += 2;
    s += x * j;
  }
  return s;
}

/* An inner counter, set again before the inner loop on every outer trip. */
BATCHDIFF double ctr_nested(double x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) {
      s += x * j;
      if (s > 50.0)
        break;
    }
  return s;
}

/* Carried from one execution of the inner loop to the next (set once,
 * outside the outer loop): lanes leave at different values, must stay per
 * lane. */
BATCHDIFF double ctr_carry(double x, int n) {
  double s = 0.0;
  int i = 0;
  for (int k = 0; k < 3; k++) {
    while (i < n) {
      s += x;
      i++;
      if (s > 5.0 * (k + 1))
        break;
    }
  }
  return s + i;
}

LOOP_DIFF2(ctr_after, double, V, double, g_x, V, int, g_n)
LOOP_DIFF2(ctr_early, double, V, double, g_x, V, int, g_n)
LOOP_DIFF2(ctr_continue, double, V, double, g_x, V, int, g_n)
LOOP_DIFF2(ctr_nested, double, V, double, g_x, V, int, g_n)
LOOP_DIFF2(ctr_carry, double, V, double, g_x, V, int, g_n)

/* ---- the staircase pattern really gives every lane its own trip count ---- */

static void check_distinct(const int *t, size_t w, const char *what) {
  for (size_t i = 0; i < w; i++)
    for (size_t j = i + 1; j < w; j++)
      if (t[i] == t[j]) {
        print_error("%s: lanes %zu and %zu both run %d iterations\n", what, i,
                    j, t[i]);
        fail();
      }
}

static void trip_distinct(void **st) {
  (void)st;
  rng_t rng = {1};
  int trips[WF];
  for (size_t b = 0; b < WF; b++)
    trips[b] = nsqrt_iters(g_pos(&rng, 2, b));
  check_distinct(trips, WF, "nsqrt_iters staircase");
  assert_int_equal(trips[0], 0);
  assert_int_equal(trips[1], 1);
  for (size_t b = 0; b < WF; b++)
    trips[b] = mandel(g_cr(&rng, 2, b), 0.0, 1000);
  check_distinct(trips, WF, "mandel staircase");
  for (size_t b = 0; b < WF; b++)
    trips[b] = g_n(&rng, 2, b);
  check_distinct(trips, WF, "g_n staircase");
  assert_int_equal(trips[0], 0);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(trip_distinct),
      T_(nsqrt_d),       T_(nsqrt_iters),  T_(nsqrt_f),      T_(ncbrt),
      T_(mandel),        T_(mandel_f),     T_(powsum),       T_(dowhile),
      T_(while_break),   T_(for_continue), T_(nested_ret),   T_(branchy),
      T_(triangle),      T_(carried_int),  T_(carried_bool), T_(carried_float),
      T_(carried_mix),   T_(uni_loop),     T_(uni_break),    T_(ctr_after),
      T_(ctr_early),     T_(ctr_continue), T_(ctr_nested),   T_(ctr_carry),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
