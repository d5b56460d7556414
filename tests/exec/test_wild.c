/* Numeric C written the way people write it, annotated as it is (the new
 * user's trial of this session): a cephes-style rational log1p with
 * coefficient tables walked by pointers (polevl/p1evl), a user polynomial
 * walked backwards to its start, a scalar Kalman filter's negative
 * log-likelihood through struct helpers, a biquad IIR, exponential
 * smoothing through pointer walks counted by n (no end pointer), a Newton
 * square root in a do/while with goto for its failure path returning
 * through an out pointer, a switch on an int loss mode, Kepler's equation
 * by Newton in float, static inline helpers with fabsf/fmaxf/copysign/hypot,
 * ternaries and compound assignments through pointers.
 * NAME_batched bit for bit against the scalar function (inputs before guard
 * pages, every n of test_ns); NAME_grad against central differences. */
#include "exec_util.h"

#include "../common/test_filter.h"

static const double LOGP[] = {
    1.01875663804580931796E-4, 4.97494994976747001425E-1,
    4.70579119878881725854E0,  1.44989225341610930846E1,
    1.79368678507819816313E1,  7.70838733755885391666E0,
};
static const double LOGQ[] = {
    1.12873587189167450590E1, 4.52279145837532221105E1,
    8.29875266912776603211E1, 7.11544750618563894466E1,
    2.31251620126765340583E1,
};

static inline double polevl(double x, const double coef[], int N) {
  const double *p = coef;
  double ans = *p++;
  int i = N;
  do
    ans = ans * x + *p++;
  while (--i);
  return ans;
}

static inline double p1evl(double x, const double coef[], int N) {
  const double *p = coef;
  double ans = x + *p++;
  int i = N - 1;
  do
    ans = ans * x + *p++;
  while (--i);
  return ans;
}

/* log(1 + x) for |x| < 0.5 as a rational function, else the library. */
BATCHDIFF double my_log1p(double x) {
  double z = 1.0 + x;
  if (z < 0.70710678118654752440 || z > 1.41421356237309504880)
    return log(z);
  z = x * x;
  z = -0.5 * z + x * (z * polevl(x, LOGP, 5) / p1evl(x, LOGQ, 5));
  return x + z;
}

/* A user-supplied polynomial through a counted pointer walk. */
BATCHDIFF double horner(const double *c, int n, double x) {
  double acc = 0.0;
  const double *p = c + n;
  while (p != c)
    acc = acc * x + *--p;
  return acc;
}
typedef struct {
  double x, p; /* state estimate and its variance */
  double q, r; /* process and measurement noise */
} kf1;

static void kf_predict(kf1 *k) { k->p += k->q; }
static double kf_update(kf1 *k, double z) {
  double g = k->p / (k->p + k->r);
  k->x += g * (z - k->x);
  k->p *= 1.0 - g;
  return k->x;
}

/* Negative log-likelihood of a series under a random walk plus noise. */
BATCHDIFF double kf_nll(const double *z, int n, double q, double r) {
  kf1 k = {z[0], 1.0, q, r};
  double nll = 0.0;
  for (int t = 1; t < n; t++) {
    kf_predict(&k);
    double s = k.p + k.r;
    double e = z[t] - k.x;
    nll += 0.5 * (log(s) + e * e / s);
    kf_update(&k, z[t]);
  }
  return nll;
}

/* Direct form I biquad, coefficients normalised by a0; the output's energy. */
BATCHDIFF float biquad_energy(const float *x, int n, float b0, float b1,
                              float b2, float a1, float a2) {
  float x1 = 0, x2 = 0, y1 = 0, y2 = 0, e = 0;
  for (int i = 0; i < n; ++i) {
    float y = b0 * x[i] + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = x[i];
    y2 = y1;
    y1 = y;
    e += y * y;
  }
  return e / (n > 0 ? n : 1);
}

/* Exponential smoothing written with pointers into an output series. */
BATCHDIFF void ema(const double *in, double *out, int n, double alpha) {
  double s = *in;
  for (int i = 0; i < n; i++) {
    s += alpha * (*in++ - s);
    *out++ = s;
  }
}
static int newton_sqrt(double a, double *out) {
  double x = a > 1.0 ? a : 1.0;
  int it = 0;
  if (a < 0.0)
    goto fail;
  do {
    double nx = 0.5 * (x + a / x);
    if (fabs(nx - x) <= 1e-15 * nx) {
      x = nx;
      break;
    }
    x = nx;
  } while (++it < 60);
  if (it >= 60)
    goto fail;
  *out = x;
  return 0;
fail:
  *out = NAN;
  return -1;
}

BATCHDIFF double root_or_zero(double a) {
  double r;
  if (newton_sqrt(a, &r) != 0)
    return 0.0;
  return r;
}

enum { LOSS_L2, LOSS_L1, LOSS_HUBER, LOSS_LOGCOSH };

BATCHDIFF double loss(double pred, double y, int mode,
                      BD_UNIFORM double delta) {
  double d = pred - y, a = fabs(d);
  switch (mode) {
  case LOSS_L2:
    return 0.5 * d * d;
  case LOSS_L1:
    return a;
  case LOSS_HUBER:
    return a <= delta ? 0.5 * d * d : delta * (a - 0.5 * delta);
  case LOSS_LOGCOSH:
    return a + log1p(exp(-2.0 * a)) - M_LN2;
  default:
    return NAN;
  }
}

/* Kepler's equation E - e sin E = M by Newton, in float. */
BATCHDIFF float kepler(float M, float e) {
  float E = e < 0.8f ? M : (float)M_PI;
  int k = 0;
  float dE;
  do {
    dE = (E - e * sinf(E) - M) / (1.0f - e * cosf(E));
    E -= dE;
  } while (fabsf(dE) > 1e-6f && ++k < 20);
  return E;
}
static inline float clampf(float v, float lo, float hi) {
  return v < lo ? lo : v > hi ? hi : v;
}
static inline void accumulate(double *acc, double v, double w) {
  *acc += w * v;
  *acc *= 0.5;
}
static inline void polar(double x, double y, double *r, double *th) {
  *r = hypot(x, y);
  *th = atan2(y, x);
}

BATCHDIFF float smoothstepf(float e0, float e1, float x) {
  float t = clampf((x - e0) / (e1 - e0), 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

BATCHDIFF float soft_clip(float x, BD_UNIFORM float lim) {
  float a = fabsf(x);
  float m = fmaxf(a - lim, 0.0f);
  return copysignf(fminf(a, lim) + 0.1f * m / (1.0f + m), x);
}

BATCHDIFF double polar_mix(double x, double y, double w) {
  double r, th, acc = 0.0;
  polar(x, y, &r, &th);
  accumulate(&acc, r, w);
  accumulate(&acc, th, 1.0 - w);
  double s = copysign(1.0, x) * hypot(acc, 1.0);
  s += r > 1.0 ? log(r) : r - 1.0;
  return s;
}

BATCHDIFF void normalize3(double v[3]) {
  double n = sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  double inv = n > 0 ? 1.0 / n : 0.0;
  for (double *p = v; p < v + 3; ++p)
    *p *= inv;
}

/* Simplex noise's gradient table as a two-dimensional static local. */
BATCHDIFF double corner(double x, double y, int h) {
  static const signed char grad3[12][3] = {
      {1, 1, 0}, {-1, 1, 0}, {1, -1, 0}, {-1, -1, 0},
      {1, 0, 1}, {-1, 0, 1}, {1, 0, -1}, {-1, 0, -1},
      {0, 1, 1}, {0, -1, 1}, {0, 1, -1}, {0, -1, -1}};
  const signed char *g = grad3[(h % 12 + 12) % 12];
  double t = 0.5 - x * x - y * y;
  return t < 0 ? 0.0 : t * t * t * t * (g[0] * x + grad3[h & 7][1] * y);
}

/* ---- checks ------------------------------------------------------------- */

#define ST 8 /* stride of the per-example sequences */

static int same(double got, double want) {
  return same_bits_or_nan(&got, &want, sizeof got, 1);
}
static int samef(float got, float want) {
  return same_bits_or_nan(&got, &want, sizeof got, 1);
}
/* With math-library calls: within their ULP bounds, not bit for bit. */
static int near(double got, double want, double tol) {
  return same(got, want) || close_to(got, want, tol);
}
#define CHECK(ok, ...)                                                         \
  do {                                                                         \
    if (!(ok)) {                                                               \
      print_error("n=%zu b=%zu: ", n, b);                                      \
      print_error(__VA_ARGS__);                                                \
      print_error("\n");                                                       \
      fail();                                                                  \
    }                                                                          \
  } while (0)

static double *f3d(size_t n, const float *f) {
  double *d = gp_alloc(n * 8);
  for (size_t b = 0; b < n; b++)
    d[b] = f[b];
  return d;
}

static void t_batched(void **state) {
  (void)state;
  rng_t rng = {name_seed("wild_batched")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *w = gp_alloc(n * 8);
    double *seq = gp_alloc(n * ST * 8), *out = gp_alloc(n * ST * 8);
    float *fs = gp_alloc(n * ST * 4), *f1 = gp_alloc(n * 4);
    float *f2 = gp_alloc(n * 4), *f3 = gp_alloc(n * 4);
    int *len = gp_alloc(n * sizeof(int)), *mode = gp_alloc(n * sizeof(int));
    for (size_t b = 0; b < n; b++) {
      x[b] = gen_d(&rng);
      y[b] = gen_d(&rng);
      w[b] = rng_range(&rng, -2, 2);
      f1[b] = gen_f(&rng);
      f2[b] = gen_f(&rng);
      f3[b] = (float)rng_range(&rng, 0, 0.9);
      len[b] = 1 + (int)rng_below(&rng, ST);
      mode[b] = (int)rng_below(&rng, 6) - 1;
      for (int i = 0; i < ST; i++) {
        seq[b * ST + i] = gen_d_mod(&rng);
        fs[b * ST + i] = gen_f_mod(&rng);
        out[b * ST + i] = -7.0;
      }
    }
    gp_seal(x);
    gp_seal(seq);
    double *r1 = gp_alloc(n * 8), *r2 = gp_alloc(n * 8), *r3 = gp_alloc(n * 8);
    double *r4 = gp_alloc(n * 8), *r5 = gp_alloc(n * 8);
    double *r6 = gp_alloc(n * 8);
    float *q1 = gp_alloc(n * 4), *q2 = gp_alloc(n * 4), *q3 = gp_alloc(n * 4);
    float *q4 = gp_alloc(n * 4);
    my_log1p_batched(n, x, r1);
    horner_batched(n, seq, ST, len, x, r2);
    double *qv = gp_alloc(n * 8), *rv = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++) {
      qv[b] = 0.1 + fabs(w[b]);
      rv[b] = 0.5;
    }
    kf_nll_batched(n, seq, ST, len, qv, rv, r3);
    float *k1 = gp_alloc(n * 4), *k2 = gp_alloc(n * 4);
    for (size_t b = 0; b < n; b++) {
      k1[b] = 0.25f;
      k2[b] = -0.5f;
    }
    biquad_energy_batched(n, fs, ST, len, f1, f2, k1, k2, f3, q1);
    ema_batched(n, seq, ST, out, ST, len, w);
    root_or_zero_batched(n, x, r4);
    loss_batched(n, x, y, mode, 1.5, r5);
    float *fM = gp_alloc(n * 4);
    for (size_t b = 0; b < n; b++)
      fM[b] = (float)rng_range(&rng, 0, 3.1); /* reduced M: Newton converges */
    kepler_batched(n, fM, f3, q2);
    smoothstepf_batched(n, f2, f3, f1, q3);
    soft_clip_batched(n, f1, 2.0f, q4);
    polar_mix_batched(n, x, y, w, r6);
    double *r7 = gp_alloc(n * 8);
    corner_batched(n, w, f3d(n, f3), mode, r7);
    for (size_t b = 0; b < n; b++) {
      const double *sb = seq + b * ST;
      CHECK(near(r1[b], my_log1p(x[b]), 1e-14), "my_log1p(%a)", x[b]);
      CHECK(same(r2[b], horner(sb, len[b], x[b])), "horner");
      CHECK(near(r3[b], kf_nll(sb, len[b], qv[b], rv[b]), 1e-13), "kf_nll");
      CHECK(samef(q1[b], biquad_energy(fs + b * ST, len[b], f1[b], f2[b], 0.25f,
                                       -0.5f, f3[b])),
            "biquad_energy");
      double o[ST];
      for (int i = 0; i < ST; i++)
        o[i] = -7.0;
      ema(sb, o, len[b], w[b]);
      for (int i = 0; i < ST; i++)
        CHECK(same(out[b * ST + i], o[i]), "ema out[%d] %a want %a", i,
              out[b * ST + i], o[i]);
      CHECK(same(r4[b], root_or_zero(x[b])), "root_or_zero(%a)", x[b]);
      CHECK(near(r5[b], loss(x[b], y[b], mode[b], 1.5), 1e-14), "loss mode %d",
            mode[b]);
      CHECK(near(q2[b], kepler(fM[b], f3[b]), 1e-5),
            "kepler(%a, %a) %a want %a", fM[b], f3[b], q2[b],
            kepler(fM[b], f3[b]));
      CHECK(samef(q3[b], smoothstepf(f2[b], f3[b], f1[b])), "smoothstepf");
      CHECK(samef(q4[b], soft_clip(f1[b], 2.0f)), "soft_clip");
      CHECK(near(r6[b], polar_mix(x[b], y[b], w[b]), 1e-14), "polar_mix");
      CHECK(same(r7[b], corner(w[b], f3[b], mode[b])), "corner");
    }
    /* normalize3 in place */
    double *v = gp_alloc(n * 3 * 8), *v0 = gp_alloc(n * 3 * 8 + 8);
    for (size_t e = 0; e < 3 * n; e++)
      v[e] = v0[e] = gen_d_mod(&rng);
    normalize3_batched(n, v, 3);
    for (size_t b = 0; b < n; b++) {
      normalize3(v0 + 3 * b);
      for (int i = 0; i < 3; i++)
        CHECK(same(v[3 * b + i], v0[3 * b + i]), "normalize3[%d]", i);
    }
    gp_reset();
  }
}

/* Central differences of the scalar functions, at ordinary inputs. */
static double fd(double (*f)(const double *, const void *), double *a, int j,
                 const void *cx, double h) {
  double v = a[j];
  a[j] = v + h;
  double up = f(a, cx);
  a[j] = v - h;
  double dn = f(a, cx);
  a[j] = v;
  return (up - dn) / (2 * h);
}
typedef struct {
  int len;
  const double *z;
} seqcx;
static double s_log1p(const double *a, const void *c) {
  (void)c;
  return my_log1p(a[0]);
}
static double s_horner(const double *a, const void *c) {
  return horner(a + 1, ((const seqcx *)c)->len, a[0]);
}
static double s_kf(const double *a, const void *c) {
  return kf_nll(a + 2, ((const seqcx *)c)->len, a[0], a[1]);
}
static double s_root(const double *a, const void *c) {
  (void)c;
  return root_or_zero(a[0]);
}
static double s_loss(const double *a, const void *c) {
  return loss(a[0], a[1], ((const seqcx *)c)->len, 1.5);
}
static double s_polar(const double *a, const void *c) {
  (void)c;
  return polar_mix(a[0], a[1], a[2]);
}
static double s_kepler(const double *a, const void *c) {
  (void)c;
  return kepler((float)a[0], (float)a[1]);
}
static double s_smooth(const double *a, const void *c) {
  (void)c;
  return smoothstepf((float)a[0], (float)a[1], (float)a[2]);
}

static void t_grad(void **state) {
  (void)state;
  rng_t rng = {name_seed("wild_grad")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *x = gp_alloc(n * 8), *y = gp_alloc(n * 8), *w = gp_alloc(n * 8);
    double *qv = gp_alloc(n * 8), *rv = gp_alloc(n * 8);
    double *seq = gp_alloc(n * ST * 8), *dseq = gp_alloc(n * ST * 8);
    double *dseq2 = gp_alloc(n * ST * 8), *out = gp_alloc(n * ST * 8);
    double *dout = gp_alloc(n * ST * 8);
    double *g[8];
    for (int k = 0; k < 8; k++)
      g[k] = gp_alloc(n * 8);
    float *fm = gp_alloc(n * 4), *fe = gp_alloc(n * 4), *fx = gp_alloc(n * 4);
    float *h[3];
    for (int k = 0; k < 3; k++)
      h[k] = gp_alloc(n * 4);
    int *len = gp_alloc(n * sizeof(int)), *mode = gp_alloc(n * sizeof(int));
    for (size_t b = 0; b < n; b++) {
      x[b] = rng_range(&rng, -0.45, 0.45);
      y[b] = rng_range(&rng, 0.2, 2);
      w[b] = rng_range(&rng, 0.1, 0.9);
      qv[b] = rng_range(&rng, 0.05, 1);
      rv[b] = rng_range(&rng, 0.05, 1);
      fm[b] = (float)rng_range(&rng, 0.1, 3);
      fe[b] = (float)rng_range(&rng, 0.0, 0.7);
      fx[b] = (float)rng_range(&rng, 0.3, 0.7);
      len[b] = 1 + (int)rng_below(&rng, ST);
      mode[b] = (int)rng_below(&rng, 4);
      for (int i = 0; i < ST; i++) {
        seq[b * ST + i] = rng_range(&rng, -1, 1);
        dseq[b * ST + i] = dseq2[b * ST + i] = 0.0;
        dout[b * ST + i] = 0.0;
      }
      for (int k = 0; k < 8; k++)
        g[k][b] = 0.0;
      for (int k = 0; k < 3; k++)
        h[k][b] = 0.0f;
    }
    my_log1p_grad(n, x, NULL, NULL, g[0]);
    horner_grad(n, seq, ST, len, x, NULL, NULL, dseq, ST, g[1]);
    kf_nll_grad(n, seq, ST, len, qv, rv, NULL, NULL, dseq2, ST, g[2], g[3]);
    root_or_zero_grad(n, y, NULL, NULL, g[4]);
    loss_grad(n, x, y, mode, 1.5, NULL, NULL, g[5], g[6], NULL);
    polar_mix_grad(n, x, y, w, NULL, NULL, g[7], NULL, NULL);
    kepler_grad(n, fm, fe, NULL, NULL, h[0], h[1]);
    smoothstepf_grad(n, fe, fm, fx, NULL, NULL, NULL, NULL, h[2]);
    for (size_t b = 0; b < n; b++) {
      double a[2 + ST];
      seqcx cx = {len[b], NULL};
      const double hh = 1e-6;
      a[0] = x[b];
      CHECK(close_to(g[0][b], fd(s_log1p, a, 0, &cx, hh), 1e-6), "log1p'");
      for (int i = 0; i < ST; i++)
        a[1 + i] = seq[b * ST + i];
      CHECK(close_to(g[1][b], fd(s_horner, a, 0, &cx, hh), 1e-6), "horner dx");
      for (int i = 0; i < len[b]; i++)
        CHECK(close_to(dseq[b * ST + i], fd(s_horner, a, 1 + i, &cx, hh), 1e-6),
              "horner dc[%d]", i);
      a[0] = qv[b];
      a[1] = rv[b];
      for (int i = 0; i < ST; i++)
        a[2 + i] = seq[b * ST + i];
      CHECK(close_to(g[2][b], fd(s_kf, a, 0, &cx, hh), 1e-6), "kf dq");
      CHECK(close_to(g[3][b], fd(s_kf, a, 1, &cx, hh), 1e-6), "kf dr");
      for (int i = 0; i < len[b]; i++)
        CHECK(close_to(dseq2[b * ST + i], fd(s_kf, a, 2 + i, &cx, hh), 1e-6),
              "kf dz[%d] %.17g fd %.17g", i, dseq2[b * ST + i],
              fd(s_kf, a, 2 + i, &cx, hh));
      a[0] = y[b];
      CHECK(close_to(g[4][b], fd(s_root, a, 0, &cx, hh), 1e-6), "sqrt'");
      cx.len = mode[b];
      a[0] = x[b];
      a[1] = y[b];
      if (fabs(fabs(x[b] - y[b]) - 1.5) > 1e-3) {
        CHECK(close_to(g[5][b], fd(s_loss, a, 0, &cx, hh), 1e-6), "loss dp");
        CHECK(close_to(g[6][b], fd(s_loss, a, 1, &cx, hh), 1e-6), "loss dy");
      }
      a[2] = w[b];
      CHECK(close_to(g[7][b], fd(s_polar, a, 0, &cx, hh), 1e-6), "polar dx");
      a[0] = fm[b];
      a[1] = fe[b];
      CHECK(close_to(h[0][b], fd(s_kepler, a, 0, &cx, 1e-3), 1e-2),
            "kepler dM %g fd %g", h[0][b], fd(s_kepler, a, 0, &cx, 1e-3));
      CHECK(close_to(h[1][b], fd(s_kepler, a, 1, &cx, 1e-3), 1e-2),
            "kepler de");
      a[0] = fe[b];
      a[1] = fm[b];
      a[2] = fx[b];
      CHECK(close_to(h[2][b], fd(s_smooth, a, 2, &cx, 1e-3), 1e-2),
            "smoothstep dx");
    }
    /* ema: d_out cotangents in, d_in out (the sum of the outputs). */
    double *dal = gp_alloc(n * 8);
    for (size_t b = 0; b < n; b++) {
      dal[b] = 0.0;
      for (int i = 0; i < ST; i++)
        dout[b * ST + i] = 1.0;
    }
    ema_grad(n, seq, ST, out, ST, len, w, dseq, ST, dout, ST, dal);
    for (size_t b = 0; b < n; b++) {
      double o[ST], base[ST], s0 = 0.0, s1 = 0.0, hh = 1e-6;
      for (int i = 0; i < ST; i++)
        base[i] = seq[b * ST + i];
      ema(base, o, len[b], w[b] + hh);
      for (int i = 0; i < len[b]; i++)
        s1 += o[i];
      ema(base, o, len[b], w[b] - hh);
      for (int i = 0; i < len[b]; i++)
        s0 += o[i];
      CHECK(close_to(dal[b], (s1 - s0) / (2 * hh), 1e-6), "ema dalpha");
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_batched),
      cmocka_unit_test(t_grad),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
