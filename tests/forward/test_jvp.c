/* Forward mode (NAME_jvp, docs/abi.md): against central finite differences
 * of the scalar function along the tangent direction, against dot(grad, v)
 * from NAME_grad on the same inputs, and for the ABI's mechanics: ret
 * written as NAME_batched writes it (or not, when NULL), NULL tangents
 * exactly the zero direction, d_ret NULL, uniform tangents (one value),
 * every example independent of its neighbours, per-lane branches and loops,
 * ragged arrays with output tangents behind guard pages and sentinels. */
#include "../exec/exec_util.h"

#include "../common/test_filter.h"

/* ---- functions ---------------------------------------------------------- */

/* Per-lane loop trip counts, a per-lane branch, a uniform weight. */
BATCHDIFF BD_JVP double j_loop(double x, BD_UNIFORM double w, double y) {
  double s = 0;
  for (int i = 0; i < 3 + (x > 0) + (y > 1.0); i++)
    s += sin(x * w + i) * y;
  if (s > 0.5)
    return s * s;
  return exp(s) / (1 + y * y);
}

/* Every math function with a derivative rule (ir/Math.def), and casts. */
BATCHDIFF BD_JVP double j_math(double x, double y, BD_NODIFF double c, int k) {
  double a = sqrt(x) + cbrt(y) + exp(x * 0.1) + exp2(y) + expm1(x) + log(x) +
             log2(x) + log10(x) + log1p(x) + pow(x, y) + sin(y) + cos(x);
  double b = tan(y * 0.3) + asin(y * 0.2) + acos(y * 0.2) + atan(x) +
             atan2(y, x) + sinh(y) + cosh(y) + tanh(x) + asinh(y) +
             acosh(x + 1) + atanh(y * 0.1) + erf(x) + erfc(y) + hypot(x, y);
  double d = fabs(y) + fmin(x, y) + fmax(x, y) + fma(x, y, c) + floor(x) +
             ceil(y) + trunc(x) + round(y) + copysign(x, y) + fmod(x, y + 3) +
             rint(x) + nearbyint(y) + logb(x) + ldexp(y, k) + scalbn(x, k) +
             fdim(x, y) + remainder(x, y + 3) + nextafter(x, y);
  return a * 0.5 + b - d * c + (double)lrint(x * 3.0);
}

/* lgamma and tgamma (digamma in both modes), apart from j_math so that its
 * sum keeps its cancellation bound. */
BATCHDIFF BD_JVP double j_gamma(double x, double y) {
  return lgamma(x + 0.5) * y + tgamma(y * 0.1 + 1.5) - lgamma(y * y + 0.1);
}

/* Early returns, a local array indexed per lane, a helper call. */
static double sq(double v) { return v * v; }
BATCHDIFF BD_JVP double j_early(double x, double y, BD_UNIFORM double w) {
  double t[4] = {x, y, x * y, w};
  int i = x > 0 ? (y > 0 ? 0 : 1) : (y > 0 ? 2 : 3);
  if (t[i] > 2.5)
    return sq(t[i]) * w;
  t[(i + 1) & 3] += sin(t[i]);
  double r = 0;
  for (int j = 0; j < 4; j++)
    r += t[j] * (j + 1);
  if (r < -1.0)
    return -r * w;
  return r + sq(x - y);
}

/* float: the tangent in float arithmetic; casts to and from double. */
BATCHDIFF BD_JVP float j_float(float x, BD_UNIFORM float w, float y) {
  float s = x * w;
  if (s > y)
    s = sinf(s) * y;
  double d = (double)x * y;
  return s * s + expf(y * 0.5f) / (1.0f + x * x) + (float)(d * d);
}

/* The fuzzer's seed 289 (twelfth round), minimized: at k = -1 the middle
 * line's two terms cancel, and forward mode cancels their tangents first;
 * reverse mode adds their contributions +x and -x (x = 5.1e12) to x's
 * adjoint after the return's 0.21, which they round (docs/semantics.md,
 * "Gradient tolerance"). */
BATCHDIFF BD_JVP double j_cancel(double x, double y, int k) {
  for (int i = 0; i < 5; i++)
    x = x * 0.5 + ((x * x) - (x + 0.1));
  y = y * 0.5 + (-(x * (double)k) + x / (double)k);
  return y * x;
}

/* Ragged arrays: an input, a uniform input, an output read back, goto and
 * switch, a local array, a helper walking it by pointer. */
static double helper_acc(const double *p, int k, double a) {
  double s = 0;
  for (int i = 0; i < k; i++)
    s += p[i] * a;
  return s;
}
BATCHDIFF BD_JVP double j_arr(int n, const double x[n],
                              BD_UNIFORM const double w[3], double out[n],
                              double s) {
  double loc[4] = {w[0], w[1] * s, w[2], s};
  double acc = 0;
  for (int i = 0; i < n; i++) {
    double v = x[i] * loc[i & 3] + sin(s * x[i]);
    switch (i % 3) {
    case 0:
      v = v * v;
      break;
    case 1:
      v = exp(-v * v); /* fallthrough */
    default:
      v += w[1];
    }
    if (v > 2.0)
      goto big;
    out[i] = v;
    acc += v * w[0];
    continue;
  big:
    out[i] = log(v);
    acc -= out[i] * s;
  }
  loc[n & 3] += acc;
  return helper_acc(loc, 4, s) + acc;
}

/* A void function: only output-array tangents. */
BD_JVP void j_void(double x, BD_UNIFORM double w, double out[2]) {
  out[0] = x * w;
  out[1] = x > 0 ? sqrt(x) : -x * x;
}

/* ---- harness for scalar parameters --------------------------------------- */

#define JMAXP 4
/* jvp vs dot(grad, v), in units of eps times sum |g_j t_j|: both modes add
 * the same products in different orders, and a gradient that is a sum with
 * cancellation (j_math's forty terms) leaves more than a few ULP of the
 * result; the largest seen is printed. */
#define JDOT_EPS 256

typedef struct {
  const char *name;
  int np;
  int unif[JMAXP];   /* one value for the batch */
  int nodiff[JMAXP]; /* no tangent (BD_NODIFF or integer) */
  int is_float;
  double (*scalar)(const double *a);
  void (*jvp)(size_t n, double *const *A, double *const *T, double *ret,
              double *dret);
  /* NAME_grad with seeds NULL (ones); SH[j] n values (1 for uniform). */
  void (*grad)(size_t n, double *const *A, double *ret, double *const *SH);
  void (*sample)(rng_t *r, double *a);
} jcase;

static const size_t jns[] = {0, 1, WF - 1, WF, WF + 1, WD + 1, 2 * WF + 3, 700};
#define N_JNS (sizeof jns / sizeof jns[0])

static double *buf(size_t n) { return gp_alloc((n ? n : 1) * sizeof(double)); }
static int same(double a, double b) {
  return memcmp(&a, &b, sizeof a) == 0 || (isnan(a) && isnan(b));
}

#define JFAIL(...)                                                             \
  do {                                                                         \
    print_error("%s: ", c->name);                                              \
    print_error(__VA_ARGS__);                                                  \
    print_error("\n");                                                         \
    gp_reset();                                                                \
    fail();                                                                    \
  } while (0)

/* Central difference of the scalar function along direction t at a; NAN
 * at an apparent kink (two step sizes, or one-sided differences, disagree). */
static double fd_dir(const jcase *c, const double *a, const double *t,
                     double *noise) {
  double eps = c->is_float ? 0x1p-24 : 0x1p-53;
  double h = c->is_float ? 2e-3 : 1e-5, est[2];
  double f0 = c->scalar(a);
  for (int k = 0; k < 2; k++, h *= 0.5) {
    double xp[JMAXP], xm[JMAXP];
    for (int j = 0; j < c->np; j++) {
      xp[j] = a[j] + (c->nodiff[j] ? 0 : h * t[j]);
      xm[j] = a[j] - (c->nodiff[j] ? 0 : h * t[j]);
      if (c->is_float) {
        xp[j] = (float)xp[j];
        xm[j] = (float)xm[j];
      }
    }
    double fp = c->scalar(xp), fm = c->scalar(xm);
    est[k] = (fp - fm) / (2 * h);
    double rn = 16 * eps * (fabs(fp) + fabs(fm) + fabs(f0)) / h;
    double fwd = (fp - f0) / h, bwd = (f0 - fm) / h;
    double kt = c->is_float ? 5e-2 : 1e-3;
    if (!(fabs(fwd - bwd) <= kt * (fabs(est[k]) + 1) + 2 * rn))
      return NAN;
    *noise = rn;
  }
  double tol = c->is_float ? 1e-2 : 1e-6;
  if (!(fabs(est[0] - est[1]) <= tol / 4 * (fabs(est[1]) + 1e-3) + *noise))
    return NAN;
  return est[1];
}

static void run_jvp_case(const jcase *c) {
  gp_reset();
  rng_t rng = {name_seed(c->name)};
  double worst_dot = 0; /* |jvp - dot| / sum |g_j t_j|, in units of eps */
  size_t fd_checked = 0, fd_skipped = 0;
  for (size_t ni = 0; ni < N_JNS; ni++) {
    size_t n = jns[ni];
    for (int rep = 0; rep < 2; rep++) {
      double *A[JMAXP] = {0}, *T[JMAXP] = {0}, *T0[JMAXP] = {0};
      double a0[JMAXP];
      c->sample(&rng, a0);
      for (int j = 0; j < c->np; j++) {
        size_t len = c->unif[j] ? 1 : n;
        A[j] = buf(len);
        T[j] = c->nodiff[j] ? NULL : buf(len);
        T0[j] = c->nodiff[j] ? NULL : buf(len);
        for (size_t b = 0; b < len; b++) {
          if (T[j]) {
            T[j][b] = c->is_float ? (double)(float)rng_range(&rng, -1, 1)
                                  : rng_range(&rng, -1, 1);
            T0[j][b] = 0.0;
          }
        }
        if (c->unif[j])
          A[j][0] = a0[j];
      }
      for (size_t b = 0; b < n; b++) {
        double a[JMAXP];
        c->sample(&rng, a);
        for (int j = 0; j < c->np; j++)
          if (!c->unif[j])
            A[j][b] = a[j];
      }
      for (int j = 0; j < c->np; j++) {
        gp_seal(A[j]);
        if (T[j]) {
          gp_seal(T[j]);
          gp_seal(T0[j]);
        }
      }
      double *ret = buf(n), *dret = buf(n), *ret_g = buf(n);
      c->jvp(n, A, T, ret, dret);
      double *SH[JMAXP] = {0};
      for (int j = 0; j < c->np; j++)
        if (!c->nodiff[j]) {
          SH[j] = buf(c->unif[j] ? 1 : n);
          memset(SH[j], 0, (c->unif[j] ? 1 : n) * sizeof(double));
        }
      c->grad(n, A, ret_g, SH);
      for (size_t b = 0; b < n; b++)
        if (!same(ret[b], ret_g[b]))
          JFAIL("jvp ret %.17g != grad ret %.17g (n=%zu b=%zu)", ret[b],
                ret_g[b], n, b);

      /* ret NULL, d_ret NULL: the other output keeps its bits. */
      double *dret2 = buf(n), *ret2 = buf(n);
      c->jvp(n, A, T, NULL, dret2);
      c->jvp(n, A, T, ret2, NULL);
      for (size_t b = 0; b < n; b++)
        if (!same(dret2[b], dret[b]) || !same(ret2[b], ret[b]))
          JFAIL("ret or d_ret NULL changed the other (n=%zu b=%zu)", n, b);

      /* NULL tangents are exactly zero tangents. */
      double *TN[JMAXP], *TZ[JMAXP];
      for (int j = 0; j < c->np; j++) {
        int off = (j + rep) % 2 == 0;
        TN[j] = off ? NULL : T[j];
        TZ[j] = off ? T0[j] : T[j];
      }
      double *dn = buf(n), *dz = buf(n);
      c->jvp(n, A, TN, NULL, dn);
      c->jvp(n, A, TZ, NULL, dz);
      for (size_t b = 0; b < n; b++)
        if (!same(dn[b], dz[b]))
          JFAIL("NULL tangents %.17g vs zero tangents %.17g (n=%zu b=%zu)",
                dn[b], dz[b], n, b);

      for (size_t b = 0; b < n; b++) {
        double a[JMAXP], t[JMAXP];
        double *A1[JMAXP], *T1[JMAXP];
        for (int j = 0; j < c->np; j++) {
          a[j] = c->unif[j] ? A[j][0] : A[j][b];
          t[j] = T[j] ? (c->unif[j] ? T[j][0] : T[j][b]) : 0;
          A1[j] = c->unif[j] ? A[j] : A[j] + b;
          T1[j] = T[j] ? (c->unif[j] ? T[j] : T[j] + b) : NULL;
        }
        /* Alone (the masked tail path), the same bits. */
        if (b % 5 == 0) {
          double r1, d1;
          c->jvp(1, A1, T1, &r1, &d1);
          if (!same(r1, ret[b]) || !same(d1, dret[b]))
            JFAIL("example %zu alone: %.17g %.17g, in the batch %.17g %.17g "
                  "(n=%zu)",
                  b, r1, d1, ret[b], dret[b], n);
        }
        /* dot(grad, v): NAME_grad of this example alone (uniform
         * gradients are per example then). */
        double g[JMAXP] = {0}, *G1[JMAXP] = {0}, dot = 0, mag = 0;
        for (int j = 0; j < c->np; j++)
          G1[j] = c->nodiff[j] ? NULL : &g[j];
        c->grad(1, A1, NULL, G1);
        for (int j = 0; j < c->np; j++) {
          dot += g[j] * t[j];
          mag += fabs(g[j] * t[j]);
        }
        double eps = c->is_float ? 0x1p-24 : 0x1p-53;
        double err = fabs(dret[b] - dot);
        if (isfinite(dot) && mag > 0 && err / (mag * eps) > worst_dot)
          worst_dot = err / (mag * eps);
        if (!(err <= JDOT_EPS * eps * mag) && !(isnan(dot) && isnan(dret[b]))) {
          for (int j = 0; j < c->np; j++)
            print_error("  a%d=%.17g t=%.17g g=%.17g\n", j, a[j], t[j], g[j]);
          JFAIL("jvp %.17g vs dot(grad, v) %.17g (n=%zu b=%zu)", dret[b], dot,
                n, b);
        }
        if (b % 3 == 0) {
          double noise = 0, fd = fd_dir(c, a, t, &noise);
          if (isnan(fd)) {
            fd_skipped++;
          } else {
            fd_checked++;
            double tol = c->is_float ? 1e-2 : 1e-6;
            if (!(fabs(fd - dret[b]) <= tol * (fabs(fd) + 1e-3) + noise)) {
              for (int j = 0; j < c->np; j++)
                print_error("  a%d=%.17g t=%.17g\n", j, a[j], t[j]);
              JFAIL("jvp %.17g vs finite differences %.17g (n=%zu b=%zu)",
                    dret[b], fd, n, b);
            }
          }
        }
      }
      gp_reset();
    }
  }
  print_message("%s: jvp vs dot(grad, v): at most %.1f eps of sum |g t|; "
                "finite differences at %zu points (%zu kinks skipped)\n",
                c->name, worst_dot, fd_checked, fd_skipped);
  if (fd_checked == 0 || fd_checked < 4 * fd_skipped)
    JFAIL("finite differences checked %zu points, skipped %zu", fd_checked,
          fd_skipped);
}

/* ---- adapters ------------------------------------------------------------ */

static double s_loop(const double *a) { return j_loop(a[0], a[1], a[2]); }
static void jv_loop(size_t n, double *const *A, double *const *T, double *r,
                    double *d) {
  j_loop_jvp(n, A[0], A[1][0], A[2], T[0], T[1], T[2], r, d);
}
static void gr_loop(size_t n, double *const *A, double *r, double *const *S) {
  j_loop_grad(n, A[0], A[1][0], A[2], r, NULL, S[0], S[1], S[2]);
}
static void sm_loop(rng_t *r, double *a) {
  a[0] = rng_range(r, -3, 3);
  a[1] = rng_range(r, 0.5, 2);
  a[2] = rng_range(r, -2, 2);
}
static const jcase c_loop = {"j_loop", 3,       {0, 1, 0}, {0, 0, 0}, 0,
                             s_loop,   jv_loop, gr_loop,   sm_loop};

static double s_math(const double *a) {
  return j_math(a[0], a[1], a[2], (int)a[3]);
}
/* Adapter buffers: guard pages, except for the harness's many one-example
 * calls (the guard-page allocator has a fixed number of blocks). */
static void *abuf(size_t bytes) {
  static _Alignas(64) char pool[16][64];
  static int k;
  if (bytes > sizeof(double))
    return gp_alloc(bytes);
  return pool[k++ % 16];
}
static int *ints(const double *a, size_t n) {
  int *p = abuf((n ? n : 1) * sizeof(int));
  for (size_t i = 0; i < n; i++)
    p[i] = (int)a[i];
  return p;
}
static void jv_math(size_t n, double *const *A, double *const *T, double *r,
                    double *d) {
  j_math_jvp(n, A[0], A[1], A[2], ints(A[3], n), T[0], T[1], r, d);
}
static void gr_math(size_t n, double *const *A, double *r, double *const *S) {
  j_math_grad(n, A[0], A[1], A[2], ints(A[3], n), r, NULL, S[0], S[1]);
}
static double s_gamma(const double *a) { return j_gamma(a[0], a[1]); }
static void jv_gamma(size_t n, double *const *A, double *const *T, double *r,
                     double *d) {
  j_gamma_jvp(n, A[0], A[1], T[0], T[1], r, d);
}
static void gr_gamma(size_t n, double *const *A, double *r, double *const *S) {
  j_gamma_grad(n, A[0], A[1], r, NULL, S[0], S[1]);
}
static void sm_gamma(rng_t *r, double *a) {
  a[0] = rng_range(r, 0.2, 12);
  a[1] = rng_range(r, -4, 4);
}
static const jcase c_gamma = {"j_gamma", 2,        {0, 0},   {0, 0},  0,
                              s_gamma,   jv_gamma, gr_gamma, sm_gamma};
static void sm_math(rng_t *r, double *a) {
  a[0] = rng_range(r, 0.2, 2.5);
  a[1] = rng_range(r, -2, 2);
  a[2] = rng_range(r, -1, 1);
  a[3] = (double)(rng_below(r, 7) - 3);
}
static const jcase c_math = {"j_math", 4,       {0, 0, 0, 0}, {0, 0, 1, 1}, 0,
                             s_math,   jv_math, gr_math,      sm_math};

static double s_early(const double *a) { return j_early(a[0], a[1], a[2]); }
static void jv_early(size_t n, double *const *A, double *const *T, double *r,
                     double *d) {
  j_early_jvp(n, A[0], A[1], A[2][0], T[0], T[1], T[2], r, d);
}
static void gr_early(size_t n, double *const *A, double *r, double *const *S) {
  j_early_grad(n, A[0], A[1], A[2][0], r, NULL, S[0], S[1], S[2]);
}
static void sm_early(rng_t *r, double *a) {
  a[0] = rng_range(r, -3, 3);
  a[1] = rng_range(r, -3, 3);
  a[2] = rng_range(r, -1.5, 1.5);
}
static const jcase c_early = {"j_early", 3,        {0, 0, 1}, {0, 0, 0}, 0,
                              s_early,   jv_early, gr_early,  sm_early};

/* float adapters: float copies of the double harness values. */
static float *fl(const double *a, size_t n) {
  if (!a)
    return NULL;
  float *f = abuf((n ? n : 1) * sizeof(float));
  for (size_t i = 0; i < n; i++)
    f[i] = (float)a[i];
  return f;
}
static double s_float(const double *a) {
  return j_float((float)a[0], (float)a[1], (float)a[2]);
}
static void jv_float(size_t n, double *const *A, double *const *T, double *r,
                     double *d) {
  float *rf = r ? abuf((n ? n : 1) * sizeof(float)) : NULL;
  float *df = d ? abuf((n ? n : 1) * sizeof(float)) : NULL;
  j_float_jvp(n, fl(A[0], n), (float)A[1][0], fl(A[2], n), fl(T[0], n),
              fl(T[1], 1), fl(T[2], n), rf, df);
  for (size_t i = 0; i < n; i++) {
    if (r)
      r[i] = rf[i];
    if (d)
      d[i] = df[i];
  }
}
static void gr_float(size_t n, double *const *A, double *r, double *const *S) {
  float *rf = r ? abuf((n ? n : 1) * sizeof(float)) : NULL;
  float *S0 = fl(S[0], n), *S1 = fl(S[1], 1), *S2 = fl(S[2], n);
  j_float_grad(n, fl(A[0], n), (float)A[1][0], fl(A[2], n), rf, NULL, S0, S1,
               S2);
  for (size_t i = 0; i < n; i++) {
    if (r)
      r[i] = rf[i];
    if (S[0])
      S[0][i] = S0[i];
    if (S[2])
      S[2][i] = S2[i];
  }
  if (S[1])
    S[1][0] = S1[0];
}
static void sm_float(rng_t *r, double *a) {
  a[0] = (float)rng_range(r, -2, 2);
  a[1] = (float)rng_range(r, 0.5, 2);
  a[2] = (float)rng_range(r, -2, 2);
}
static const jcase c_float = {"j_float", 3,        {0, 1, 0}, {0, 0, 0}, 1,
                              s_float,   jv_float, gr_float,  sm_float};

static void jvp_loop(void **s) { (void)s, run_jvp_case(&c_loop); }
static void jvp_math(void **s) { (void)s, run_jvp_case(&c_math); }
static void jvp_gamma(void **s) { (void)s, run_jvp_case(&c_gamma); }
static void jvp_early(void **s) { (void)s, run_jvp_case(&c_early); }
static void jvp_float(void **s) { (void)s, run_jvp_case(&c_float); }

/* ---- ragged arrays ------------------------------------------------------- */

#define AMAX 9 /* the largest n[b]: the stride of every per-example array */
#define SENT -777.25

static void arr_check(size_t nb, rng_t *rng) {
  int *len = gp_alloc((nb ? nb : 1) * sizeof(int));
  double *x = buf(nb * AMAX), *tx = buf(nb * AMAX), *s = buf(nb), *ts = buf(nb);
  double w[3], tw[3];
  for (int k = 0; k < 3; k++) {
    w[k] = rng_range(rng, -1, 1);
    tw[k] = rng_range(rng, -1, 1);
  }
  for (size_t b = 0; b < nb; b++) {
    len[b] = (int)rng_below(rng, AMAX + 1);
    s[b] = rng_range(rng, -1.5, 1.5);
    ts[b] = rng_range(rng, -1, 1);
    for (int i = 0; i < AMAX; i++) {
      /* Past n[b]: NaN, which would show in d_ret if it were read. */
      x[b * AMAX + i] = i < len[b] ? rng_range(rng, -1.5, 1.5) : NAN;
      tx[b * AMAX + i] = i < len[b] ? rng_range(rng, -1, 1) : NAN;
    }
  }
  gp_seal(len);
  gp_seal(x);
  gp_seal(tx);
  gp_seal(s);
  gp_seal(ts);
  double *out = buf(nb * AMAX), *tout = buf(nb * AMAX), *ret = buf(nb),
         *dret = buf(nb);
  for (size_t i = 0; i < nb * AMAX; i++)
    out[i] = tout[i] = SENT;
  j_arr_jvp(nb, len, x, AMAX, w, out, AMAX, s, tx, AMAX, tw, tout, AMAX, ts,
            ret, dret);
  for (size_t b = 0; b < nb; b++) {
    double o[AMAX], op[AMAX], om[AMAX], xp[AMAX], xm[AMAX], wp[3], wm[3];
    const double *xb = x + b * AMAX, *txb = tx + b * AMAX;
    /* Vector math within its ULP bound, then a few cancellations. */
    double want = j_arr(len[b], xb, w, o, s[b]);
    if (!close_to(ret[b], want, 1e-12))
      fail_msg("j_arr: ret %.17g vs scalar %.17g (b=%zu)", ret[b], want, b);
    for (int i = len[b]; i < AMAX; i++)
      if (out[b * AMAX + i] != SENT || tout[b * AMAX + i] != SENT)
        fail_msg("j_arr: element %d of example %zu (n=%d) written", i, b,
                 len[b]);
    /* dot(grad, v): the gradient of ret alone (out's cotangents 0). */
    double gx[AMAX] = {0}, gw[3] = {0}, gs = 0, go[AMAX] = {0};
    double o2[AMAX], r1;
    j_arr_grad(1, &len[b], xb, AMAX, w, o2, AMAX, &s[b], &r1, NULL, gx, AMAX,
               gw, go, AMAX, &gs);
    double dot = gs * ts[b], mag = fabs(gs * ts[b]);
    for (int k = 0; k < 3; k++) {
      dot += gw[k] * tw[k];
      mag += fabs(gw[k] * tw[k]);
    }
    for (int i = 0; i < len[b]; i++) {
      dot += gx[i] * txb[i];
      mag += fabs(gx[i] * txb[i]);
    }
    if (!(fabs(dret[b] - dot) <= JDOT_EPS * 0x1p-53 * mag))
      fail_msg("j_arr: jvp %.17g vs dot(grad, v) %.17g (b=%zu, n=%d)", dret[b],
               dot, b, len[b]);
    /* Finite differences of ret and of every out[i]. */
    double h = 1e-6;
    for (int i = 0; i < len[b]; i++) {
      xp[i] = xb[i] + h * txb[i];
      xm[i] = xb[i] - h * txb[i];
    }
    for (int k = 0; k < 3; k++) {
      wp[k] = w[k] + h * tw[k];
      wm[k] = w[k] - h * tw[k];
    }
    double fp = j_arr(len[b], xp, wp, op, s[b] + h * ts[b]);
    double fm = j_arr(len[b], xm, wm, om, s[b] - h * ts[b]);
    double fd = (fp - fm) / (2 * h);
    int kink = 0;
    for (int i = 0; i < len[b]; i++) /* near the goto's threshold */
      kink |= fabs(o[i] - 2.0) < 1e-3 || fabs(o[i] - log(2.0)) < 1e-3;
    if (!kink && !close_to(dret[b], fd, 1e-5))
      fail_msg("j_arr: jvp %.17g vs finite differences %.17g (b=%zu)", dret[b],
               fd, b);
    for (int i = 0; !kink && i < len[b]; i++) {
      double fo = (op[i] - om[i]) / (2 * h), got = tout[b * AMAX + i];
      if (!close_to(got, fo, 1e-5))
        fail_msg("j_arr: tangent of out[%d] %.17g vs finite differences "
                 "%.17g (b=%zu)",
                 i, got, fo, b);
    }
  }
  /* NULL tangents of inputs are zeros; with t_out NULL only ret is
   * promised (out is read back, docs/abi.md). */
  double *dz = buf(nb), *dn = buf(nb), *zx = buf(nb * AMAX), *ret2 = buf(nb);
  double zw[3] = {0};
  for (size_t i = 0; i < nb * AMAX; i++)
    zx[i] = 0;
  j_arr_jvp(nb, len, x, AMAX, w, out, AMAX, s, zx, AMAX, zw, tout, AMAX, ts,
            NULL, dz);
  j_arr_jvp(nb, len, x, AMAX, w, out, AMAX, s, NULL, 0, NULL, tout, AMAX, ts,
            NULL, dn);
  j_arr_jvp(nb, len, x, AMAX, w, out, AMAX, s, NULL, 0, NULL, NULL, 0, NULL,
            ret2, NULL);
  for (size_t b = 0; b < nb; b++) {
    if (!same(dz[b], dn[b]))
      fail_msg("j_arr: NULL tangents %.17g vs zeros %.17g (b=%zu)", dn[b],
               dz[b], b);
    if (!same(ret2[b], ret[b]))
      fail_msg("j_arr: ret changed with NULL tangents (b=%zu)", b);
  }
  gp_reset();
}

static void jvp_arrays(void **st) {
  (void)st;
  rng_t rng = {name_seed("j_arr")};
  for (size_t ni = 0; ni < N_JNS; ni++)
    for (int rep = 0; rep < 2; rep++)
      arr_check(jns[ni], &rng);
}

/* A void function: tangents of the output array only. */
/* j_cancel at seed 289's inputs: NAME_jvp is the derivative to rounding,
 * NAME_grad within the rounding of reverse mode's largest contribution. */
static void jvp_cancel(void **st) {
  (void)st;
  double x0 = -0x1.2a9a2bbfc9fc1p+1, y0 = 0x1.ae60a1f68bcbcp-2;
  int k = -1;
  /* the derivative: dy/dx is 0 at k = -1, so d/dx0 is y * dx/dx0 */
  long double x = x0, dx = 1;
  double xs = x0; /* the function's own x, as the loop rounds it */
  for (int i = 0; i < 5; i++) {
    dx *= 2.0L * xs - 0.5L;
    xs = xs * 0.5 + ((xs * xs) - (xs + 0.1));
  }
  (void)x;
  double y = y0 * 0.5, one = 1.0, tx = 1.0, ty = 0.0;
  double want = (double)(y * dx), ret, dret, gx = 0, gy = 0;
  j_cancel_jvp(1, &x0, &y0, &k, &tx, &ty, &ret, &dret);
  j_cancel_grad(1, &x0, &y0, &k, &ret, &one, &gx, &gy);
  if (!close_to(dret, want, 1e-12))
    fail_msg("j_cancel: jvp %.17g, want %.17g", dret, want);
  /* reverse mode: the return's y rounded to a multiple of ulp(xs), times
   * dx/dx0 (9e-4 off today; a better order would be closer) */
  double bound = ldexp(1.0, ilogb(xs) - 53) * fabs((double)dx) * 2;
  if (!(fabs(gx - want) <= bound))
    fail_msg("j_cancel: grad %.17g, want %.17g within %g", gx, want, bound);
  if (!close_to(gy, xs * 0.5, 1e-15))
    fail_msg("j_cancel: d/dy %.17g, want %.17g", gy, xs * 0.5);
}

static void jvp_void(void **st) {
  (void)st;
  rng_t rng = {name_seed("j_void")};
  for (size_t ni = 0; ni < N_JNS; ni++) {
    size_t n = jns[ni];
    double *x = buf(n), *tx = buf(n), *out = buf(2 * n), *tout = buf(2 * n);
    double w = rng_range(&rng, -2, 2), tw = rng_range(&rng, -1, 1);
    for (size_t b = 0; b < n; b++) {
      x[b] = rng_range(&rng, -2, 2);
      tx[b] = rng_range(&rng, -1, 1);
    }
    j_void_jvp(n, x, w, out, 2, tx, &tw, tout, 2);
    for (size_t b = 0; b < n; b++) {
      double o[2];
      j_void(x[b], w, o);
      double t0 = tx[b] * w + x[b] * tw;
      double t1 = x[b] > 0 ? tx[b] / (2 * sqrt(x[b])) : -2 * x[b] * tx[b];
      if (!same(o[0], out[2 * b]) || !same(o[1], out[2 * b + 1]))
        fail_msg("j_void: out differs from the scalar function (b=%zu)", b);
      if (!close_to(tout[2 * b], t0, 1e-15) ||
          !close_to(tout[2 * b + 1], t1, 1e-15))
        fail_msg("j_void: tangents %.17g %.17g, want %.17g %.17g (b=%zu)",
                 tout[2 * b], tout[2 * b + 1], t0, t1, b);
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(jvp_loop),  cmocka_unit_test(jvp_math),
      cmocka_unit_test(jvp_gamma), cmocka_unit_test(jvp_early),
      cmocka_unit_test(jvp_float), cmocka_unit_test(jvp_arrays),
      cmocka_unit_test(jvp_void),  cmocka_unit_test(jvp_cancel),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
