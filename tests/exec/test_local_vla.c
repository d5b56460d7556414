/* Local variable-length arrays (docs/subset.md): `double t[n]` with n a
 * run-time size, per example (a varying parameter) or shared (BD_UNIFORM),
 * a sum or product of parameters, or a loop variable; float, double, int,
 * short, unsigned char and _Bool elements, and sizes up to the largest (65536).
 * NAME_batched against the scalar function (bit for bit without math calls,
 * within their bound with them), with sizes that differ between the lanes of a
 * vector (1 among them), and lanes that return before the declaration with
 * absurd sizes; NAME_grad against central finite differences of the scalar
 * function. Inputs end at guard pages (tests/common/guard_pages.h). */
#include <batchdiff.h>

#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "../common/guard_pages.h"
#include "../common/test_filter.h"

#define MAXN 16 /* elements per example in x (its stride) */

/* ---- the functions ------------------------------------------------------ */

/* Per-example size: the example. */
BATCHDIFF double vla_sq(int n, const double x[n]) {
  double t[n];
  double s = 0;
  for (int i = 0; i < n; i++)
    t[i] = x[i] * 2;
  for (int i = 0; i < n; i++)
    s += t[i] * t[i];
  return s;
}

/* A shared size; float elements, read backwards (from sizeof p) and at
 * computed indices. */
BATCHDIFF float vla_uni(BD_UNIFORM int n, const float x[n], float a) {
  float p[n];
  float acc = 0.0f;
  for (int i = 0; i < n; i++)
    p[i] = (i ? p[i - 1] : 0.0f) + a * x[i];
  for (int i = (int)(sizeof p / sizeof p[0]) - 1; i >= 0; i--)
    acc += p[i] * p[(i * 7) % n];
  return acc;
}

/* Sizes from sums and products of parameters, an int table, and a guard
 * that returns before the declarations for sizes the arrays must not take
 * (those lanes may hold anything). */
BATCHDIFF double vla_mix(int n, int m, const double x[n], double a) {
  if (n < 1 || n > MAXN || m < 1 || m > 8)
    return -1.0;
  double t[n + m];
  int k[2 * m + 1];
  for (int i = 0; i < 2 * m + 1; i++)
    k[i] = (i * 5 + n) % (n + m);
  for (int i = 0; i < n + m; i++)
    t[i] = i < n ? sin(a * x[i]) : a * (double)i;
  double s = 0;
  for (int i = 0; i < 2 * m + 1; i++)
    s += t[k[i]] * x[i % n];
  return s;
}

/* A declaration in a loop, its size the loop variable: a new array each
 * trip, of another size. */
BATCHDIFF double vla_loop(int n, const double x[n], double a) {
  double s = 0;
  for (int j = 1; j <= n; j++) {
    double u[j];
    for (int i = 0; i < j; i++)
      u[i] = a * x[i] + (double)j;
    for (int i = 0; i < j; i++)
      s += u[i] * u[j - 1 - i];
  }
  return s;
}

/* Arrays passed to helpers, a size n + 1; forward mode and H·v too. */
static inline double dot(const double *a, const double *b, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * b[i];
  return s;
}
static inline void scale(double *o, const double *a, double c, int n) {
  for (int i = 0; i < n; i++)
    o[i] = c * sin(a[i]);
}
BD_BATCH BD_DIFF BD_JVP BD_HVP double vla_fwd(int n, const double x[n],
                                              double c) {
  double t[n], u[n + 1];
  scale(t, x, c, n);
  scale(u, t, c, n);
  u[n] = c * c;
  return dot(t, u, n) + u[n];
}

/* Large sizes: the room grows with the declarations (bd_vla_reserve). */
BATCHDIFF double vla_big(int n, double a) {
  double t[n];
  for (int i = 0; i < n; i++)
    t[i] = a * (double)i;
  double s = 0;
  for (int i = 0; i < 64; i++)
    s += t[(i * 7919) % n];
  return s + t[n - 1];
}

/* _Bool, short, unsigned char and float elements (32-bit lanes, wrapped as
 * in C): the gradient in a is exact (sum of s[i] or i). */
BATCHDIFF double vla_types(int n, double a) {
  _Bool seen[n];
  short s[n];
  unsigned char c[n + 1];
  float f[n];
  for (int i = 0; i < n; i++) {
    seen[i] = (i * 7) % 3 == 0;
    s[i] = (short)(i * 3000);
    c[i] = (unsigned char)(i * 37);
    f[i] = (float)a * (float)i;
  }
  double r = 0;
  for (int i = 0; i < n; i++)
    r += seen[i] ? s[i] * a : c[i] + f[i];
  return r;
}

/* ---- helpers ------------------------------------------------------------ */

static unsigned long long rng_state = 88172645463325252ull;
static unsigned rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (unsigned)(rng_state >> 11);
}
static double rnd_u(void) { return (rnd() % 2000001) / 1000000.0 - 1.0; }

/* n examples: sizes 1..MAXN (lane 1 is always 1), x. */
static void fill(size_t n, int *ns, double *x) {
  for (size_t b = 0; b < n; b++) {
    ns[b] = b % 4 == 1 ? 1 : 1 + (int)(rnd() % MAXN);
    for (int i = 0; i < MAXN; i++)
      x[b * MAXN + i] = rnd_u();
  }
}

static void near(double got, double want, double tol, const char *what,
                 size_t b, int i) {
  double err = fabs(got - want) / (1.0 + fabs(want));
  if (!(err <= tol)) {
    print_error("%s: example %zu, element %d: %.17g, want %.17g\n", what, b, i,
                got, want);
    fail();
  }
}

static const size_t Ns[] = {1, 3, 8, 17, 100};
#define FOR_N for (size_t ni = 0; ni < sizeof Ns / sizeof Ns[0]; ni++)

/* ---- tests -------------------------------------------------------------- */

static void test_sq(void **st) {
  (void)st;
  FOR_N {
    size_t n = Ns[ni];
    int *ns = gp_alloc(n * sizeof(int));
    double *x = gp_alloc(n * MAXN * sizeof(double));
    double *ret = gp_alloc(n * sizeof(double));
    double *r2 = gp_alloc(n * sizeof(double));
    double *dx = gp_alloc(n * MAXN * sizeof(double));
    fill(n, ns, x);
    vla_sq_batched(n, ns, x, MAXN, ret);
    for (size_t b = 0; b < n; b++)
      assert_true(ret[b] == vla_sq(ns[b], x + b * MAXN));
    memset(dx, 0, n * MAXN * sizeof(double));
    vla_sq_grad(n, ns, x, MAXN, r2, NULL, dx, MAXN);
    for (size_t b = 0; b < n; b++) {
      assert_true(r2[b] == ret[b]);
      for (int i = 0; i < MAXN; i++)
        near(dx[b * MAXN + i], i < ns[b] ? 8 * x[b * MAXN + i] : 0.0, 1e-12,
             "vla_sq_grad", b, i);
    }
    gp_reset();
  }
}

static void test_uni(void **st) {
  (void)st;
  FOR_N {
    size_t n = Ns[ni];
    for (int un = 1; un <= MAXN; un += 5) {
      float *x = gp_alloc(n * MAXN * sizeof(float));
      float *a = gp_alloc(n * sizeof(float));
      float *ret = gp_alloc(n * sizeof(float));
      float *dx = gp_alloc(n * MAXN * sizeof(float));
      float *da = gp_alloc(n * sizeof(float));
      for (size_t b = 0; b < n; b++) {
        a[b] = (float)rnd_u();
        for (int i = 0; i < MAXN; i++)
          x[b * MAXN + i] = (float)rnd_u();
      }
      vla_uni_batched(n, un, x, MAXN, a, ret);
      for (size_t b = 0; b < n; b++)
        assert_true(ret[b] == vla_uni(un, x + b * MAXN, a[b]));
      memset(dx, 0, n * MAXN * sizeof(float));
      memset(da, 0, n * sizeof(float));
      vla_uni_grad(n, un, x, MAXN, a, NULL, NULL, dx, MAXN, da);
      for (size_t b = 0; b < n; b++) {
        float *xb = x + b * MAXN;
        double h = 1e-2;
        float a0 = a[b];
        double fd = (vla_uni(un, xb, (float)(a0 + h)) -
                     vla_uni(un, xb, (float)(a0 - h))) /
                    (2 * h);
        near(da[b], fd, 2e-2, "vla_uni_grad a", b, -1);
        for (int i = 0; i < un; i++) {
          float x0 = xb[i];
          xb[i] = (float)(x0 + h);
          double up = vla_uni(un, xb, a0);
          xb[i] = (float)(x0 - h);
          double dn = vla_uni(un, xb, a0);
          xb[i] = x0;
          near(dx[b * MAXN + i], (up - dn) / (2 * h), 2e-2, "vla_uni_grad x", b,
               i);
        }
      }
      gp_reset();
    }
  }
}

/* Central differences of scalar \p f (step \p h) in a and in x[0..n) of
 * each example, against the shadows. vla_loop is a polynomial of degree 2
 * whose values reach 1e4: a larger step keeps rounding out of it. */
typedef double (*fn3)(int, int, const double *, double);
static void check_grad(const char *what, fn3 f, double h, size_t n,
                       const int *ns, const int *ms, double *x, const double *a,
                       const double *dx, const double *da) {
  for (size_t b = 0; b < n; b++) {
    double *xb = x + b * MAXN;
    int m = ms ? ms[b] : 0;
    near(da[b],
         (f(ns[b], m, xb, a[b] + h) - f(ns[b], m, xb, a[b] - h)) / (2 * h),
         1e-6, what, b, -1);
    for (int i = 0; i < MAXN; i++) {
      double x0 = xb[i], fd = 0.0;
      if (i < ns[b] && ns[b] <= MAXN) {
        xb[i] = x0 + h;
        double up = f(ns[b], m, xb, a[b]);
        xb[i] = x0 - h;
        fd = (up - f(ns[b], m, xb, a[b])) / (2 * h);
        xb[i] = x0;
      }
      near(dx[b * MAXN + i], fd, 1e-6, what, b, i);
    }
  }
}

static double mix3(int n, int m, const double *x, double a) {
  return vla_mix(n, m, x, a);
}
static double loop3(int n, int m, const double *x, double a) {
  (void)m;
  return vla_loop(n, x, a);
}

static void test_mix(void **st) {
  (void)st;
  FOR_N {
    size_t n = Ns[ni];
    int *ns = gp_alloc(n * sizeof(int)), *ms = gp_alloc(n * sizeof(int));
    double *x = gp_alloc(n * MAXN * sizeof(double));
    double *a = gp_alloc(n * sizeof(double));
    double *ret = gp_alloc(n * sizeof(double));
    double *dx = gp_alloc(n * MAXN * sizeof(double));
    double *da = gp_alloc(n * sizeof(double));
    fill(n, ns, x);
    for (size_t b = 0; b < n; b++) {
      a[b] = rnd_u();
      ms[b] = 1 + (int)(rnd() % 8);
      /* Every third example returns before the arrays: absurd sizes. */
      if (b % 3 == 2) {
        ns[b] = b % 2 ? 2000000000 : -7;
        ms[b] = b % 2 ? 1 : 1000000000;
      }
    }
    vla_mix_batched(n, ns, ms, x, MAXN, a, ret);
    for (size_t b = 0; b < n; b++)
      near(ret[b], vla_mix(ns[b], ms[b], x + b * MAXN, a[b]), 1e-14, "vla_mix",
           b, -1); /* sin: within the math bound */
    memset(dx, 0, n * MAXN * sizeof(double));
    memset(da, 0, n * sizeof(double));
    vla_mix_grad(n, ns, ms, x, MAXN, a, NULL, NULL, dx, MAXN, da);
    check_grad("vla_mix_grad", mix3, 1e-6, n, ns, ms, x, a, dx, da);
    gp_reset();
  }
}

static void test_loop(void **st) {
  (void)st;
  FOR_N {
    size_t n = Ns[ni];
    int *ns = gp_alloc(n * sizeof(int));
    double *x = gp_alloc(n * MAXN * sizeof(double));
    double *a = gp_alloc(n * sizeof(double));
    double *ret = gp_alloc(n * sizeof(double));
    double *dx = gp_alloc(n * MAXN * sizeof(double));
    double *da = gp_alloc(n * sizeof(double));
    fill(n, ns, x);
    for (size_t b = 0; b < n; b++)
      a[b] = rnd_u();
    vla_loop_batched(n, ns, x, MAXN, a, ret);
    for (size_t b = 0; b < n; b++)
      assert_true(ret[b] == vla_loop(ns[b], x + b * MAXN, a[b]));
    memset(dx, 0, n * MAXN * sizeof(double));
    memset(da, 0, n * sizeof(double));
    vla_loop_grad(n, ns, x, MAXN, a, NULL, NULL, dx, MAXN, da);
    check_grad("vla_loop_grad", loop3, 1e-4, n, ns, NULL, x, a, dx, da);
    gp_reset();
  }
}

/* NAME_jvp against NAME_grad (sum of gradient times direction), NAME_hvp's
 * gradient against NAME_grad's and its H·v against central differences of
 * NAME_grad along the direction. */
static void test_fwd(void **st) {
  (void)st;
  FOR_N {
    size_t n = Ns[ni], nx = n * MAXN;
    int *ns = gp_alloc(n * sizeof(int));
    double *x = gp_alloc(nx * sizeof(double)), *c = gp_alloc(n * 8);
    double *tx = gp_alloc(nx * sizeof(double)), *tc = gp_alloc(n * 8);
    double *ret = gp_alloc(n * 8), *r2 = gp_alloc(n * 8), *jv = gp_alloc(n * 8);
    double *dx = gp_alloc(nx * 8), *dc = gp_alloc(n * 8);
    double *dx2 = gp_alloc(nx * 8), *dc2 = gp_alloc(n * 8);
    double *hx = gp_alloc(nx * 8), *hc = gp_alloc(n * 8);
    double *xs = gp_alloc(nx * 8), *cs = gp_alloc(n * 8);
    double *gp = gp_alloc(nx * 8), *gpc = gp_alloc(n * 8);
    double *gm = gp_alloc(nx * 8), *gmc = gp_alloc(n * 8);
    fill(n, ns, x);
    for (size_t b = 0; b < n; b++) {
      c[b] = rnd_u();
      tc[b] = rnd_u();
      for (int i = 0; i < MAXN; i++)
        tx[b * MAXN + i] = rnd_u();
    }
    vla_fwd_batched(n, ns, x, MAXN, c, ret);
    for (size_t b = 0; b < n; b++)
      near(ret[b], vla_fwd(ns[b], x + b * MAXN, c[b]), 1e-14, "vla_fwd", b,
           -1); /* sin: within the math bound (docs/abi.md) */
    memset(dx, 0, nx * 8);
    memset(dc, 0, n * 8);
    vla_fwd_grad(n, ns, x, MAXN, c, r2, NULL, dx, MAXN, dc);
    vla_fwd_jvp(n, ns, x, MAXN, c, tx, MAXN, tc, r2, jv);
    for (size_t b = 0; b < n; b++) {
      assert_true(r2[b] == ret[b]);
      double want = dc[b] * tc[b];
      for (int i = 0; i < ns[b]; i++)
        want += dx[b * MAXN + i] * tx[b * MAXN + i];
      near(jv[b], want, 1e-12, "vla_fwd_jvp", b, -1);
    }
    memset(dx2, 0, nx * 8);
    memset(dc2, 0, n * 8);
    memset(hx, 0, nx * 8);
    memset(hc, 0, n * 8);
    vla_fwd_hvp(n, ns, x, MAXN, c, tx, MAXN, tc, NULL, NULL, dx2, MAXN, dc2, hx,
                MAXN, hc);
    /* Central differences of the gradient along the direction. */
    double e = 1e-5;
    for (int sgn = -1; sgn <= 1; sgn += 2) {
      for (size_t k = 0; k < nx; k++)
        xs[k] = x[k] + sgn * e * tx[k];
      for (size_t b = 0; b < n; b++)
        cs[b] = c[b] + sgn * e * tc[b];
      double *g = sgn > 0 ? gp : gm, *gc = sgn > 0 ? gpc : gmc;
      memset(g, 0, nx * 8);
      memset(gc, 0, n * 8);
      vla_fwd_grad(n, ns, xs, MAXN, cs, NULL, NULL, g, MAXN, gc);
    }
    for (size_t b = 0; b < n; b++) {
      near(dc2[b], dc[b], 0, "vla_fwd_hvp d_c", b, -1);
      near(hc[b], (gpc[b] - gmc[b]) / (2 * e), 1e-6, "vla_fwd_hvp h_c", b, -1);
      for (int i = 0; i < MAXN; i++) {
        size_t k = b * MAXN + i;
        near(dx2[k], dx[k], 0, "vla_fwd_hvp d_x", b, i);
        near(hx[k], (gp[k] - gm[k]) / (2 * e), 1e-6, "vla_fwd_hvp h_x", b, i);
      }
    }
    gp_reset();
  }
}

/* A size above 65536 in an example that runs the declaration: C would
 * take it, the batch cannot hold it, so the call reports it through the
 * fail hook (default: "batchdiff: ..." on stderr and abort), in a child
 * process. A lane that returns before the declaration counts for nothing
 * (small_calls). */
static void test_too_big(void **st) {
  (void)st;
  int pfd[2];
  assert_int_equal(pipe(pfd), 0);
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(pfd[0]);
    dup2(pfd[1], 2);
    int ns[3] = {5, 70000, 3};
    double a[3] = {1.0, 2.0, 3.0}, ret[3];
    vla_big_batched(3, ns, a, ret);
    _exit(0); /* not reached */
  }
  close(pfd[1]);
  char buf[512];
  size_t got = 0;
  ssize_t r;
  while (got + 1 < sizeof buf &&
         (r = read(pfd[0], buf + got, sizeof buf - 1 - got)) > 0)
    got += (size_t)r;
  buf[got] = 0;
  close(pfd[0]);
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGABRT ||
      !strstr(buf, "batchdiff: a local variable-length array of more than "
                   "65536 elements"))
    fail_msg("a size of 70000: status %d, stderr \"%s\"", status, buf);
}

static void test_big(void **st) {
  (void)st;
  static const int sizes[] = {1, 65536, 1000, 3, 65536, 65535, 17, 2};
  size_t n = sizeof sizes / sizeof sizes[0];
  int *ns = gp_alloc(n * sizeof(int));
  double *a = gp_alloc(n * 8), *ret = gp_alloc(n * 8), *da = gp_alloc(n * 8);
  for (size_t b = 0; b < n; b++) {
    ns[b] = sizes[b];
    a[b] = 0.5 + (double)b;
  }
  vla_big_batched(n, ns, a, ret);
  memset(da, 0, n * 8);
  vla_big_grad(n, ns, a, NULL, NULL, da);
  for (size_t b = 0; b < n; b++) {
    assert_true(ret[b] == vla_big(ns[b], a[b]));
    near(da[b], vla_big(ns[b], 1.0), 1e-12, "vla_big_grad", b, -1);
  }
  gp_reset();
}

/* On a fresh thread (its own arena): what the calls took. */
static void *small_calls(void *arg) {
  size_t n = 64;
  int ns[64], ms[64];
  double x[64 * MAXN], a[64], ret[64], dx[64 * MAXN], da[64];
  fill(n, ns, x);
  for (size_t b = 0; b < n; b++) {
    a[b] = rnd_u();
    ms[b] = 1 + (int)(rnd() % 8);
    if (b % 3 == 2) /* returns before the arrays */
      ns[b] = 2000000000, ms[b] = 1000000000;
  }
  vla_mix_batched(n, ns, ms, x, MAXN, a, ret);
  memset(dx, 0, sizeof dx);
  memset(da, 0, sizeof da);
  vla_mix_grad(n, ns, ms, x, MAXN, a, NULL, NULL, dx, MAXN, da);
  for (size_t b = 0; b < n; b++)
    ns[b] = 1 + (int)(b % MAXN);
  vla_sq_batched(n, ns, x, MAXN, ret);
  vla_loop_grad(n, ns, x, MAXN, a, NULL, NULL, dx, MAXN, da);
  *(size_t *)arg = bd_arena_capacity(bd_arena_get());
  return NULL;
}

/* Sizes of at most 24 elements, whatever the sizes of the examples that
 * return before the arrays: the arena holds the loops' tapes and blocks of
 * a few KiB for the arrays (458752 bytes with AVX-512), far below the 4 MiB
 * of one varying double[65536]. */
static void test_memory(void **st) {
  (void)st;
  size_t cap = 0;
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, small_calls, &cap), 0);
  assert_int_equal(pthread_join(t, NULL), 0);
  if (cap > 1024 * 1024) {
    print_error("arena capacity %zu bytes\n", cap);
    fail();
  }
}

/* Long enough for the thread pool: each worker's chunks take their blocks
 * from their own arena; the same bits on 1 and 3 threads. */
static void test_threads(void **st) {
  (void)st;
  size_t n = 40000;
  int *ns = malloc(n * sizeof(int));
  double *x = malloc(n * MAXN * 8), *a = malloc(n * 8);
  double *r1 = malloc(n * 8), *r3 = malloc(n * 8);
  double *d1 = calloc(n * MAXN, 8), *d3 = calloc(n * MAXN, 8);
  assert_non_null(ns && x && a && r1 && r3 && d1 && d3);
  fill(n, ns, x);
  for (size_t b = 0; b < n; b++)
    a[b] = rnd_u();
  bd_set_num_threads(1);
  vla_loop_batched(n, ns, x, MAXN, a, r1);
  vla_sq_grad(n, ns, x, MAXN, NULL, NULL, d1, MAXN);
  bd_set_num_threads(3);
  for (int rep = 0; rep < 3; rep++) { /* the pool is tried by measurement */
    vla_loop_batched(n, ns, x, MAXN, a, r3);
    memset(d3, 0, n * MAXN * 8);
    vla_sq_grad(n, ns, x, MAXN, NULL, NULL, d3, MAXN);
    assert_memory_equal(r1, r3, n * 8);
    assert_memory_equal(d1, d3, n * MAXN * 8);
  }
  bd_set_num_threads(0);
  for (size_t b = 0; b < n; b += 997)
    assert_true(r1[b] == vla_loop(ns[b], x + b * MAXN, a[b]));
  free(ns), free(x), free(a), free(r1), free(r3), free(d1), free(d3);
}

static void test_types(void **st) {
  (void)st;
  FOR_N {
    size_t n = Ns[ni];
    int *ns = gp_alloc(n * sizeof(int));
    double *a = gp_alloc(n * 8), *ret = gp_alloc(n * 8), *da = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++) {
      ns[b] = b % 4 == 1 ? 1 : 1 + (int)(rnd() % 40);
      a[b] = rnd_u();
    }
    vla_types_batched(n, ns, a, ret);
    memset(da, 0, n * 8);
    vla_types_grad(n, ns, a, NULL, NULL, da);
    for (size_t b = 0; b < n; b++) {
      assert_true(ret[b] == vla_types(ns[b], a[b]));
      double want = 0;
      for (int i = 0; i < ns[b]; i++)
        want += (i * 7) % 3 == 0 ? (short)(i * 3000) : i;
      near(da[b], want, 0, "vla_types_grad", b, -1);
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sq),      cmocka_unit_test(test_uni),
      cmocka_unit_test(test_mix),     cmocka_unit_test(test_loop),
      cmocka_unit_test(test_fwd),     cmocka_unit_test(test_big),
      cmocka_unit_test(test_too_big), cmocka_unit_test(test_memory),
      cmocka_unit_test(test_threads), cmocka_unit_test(test_types),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
