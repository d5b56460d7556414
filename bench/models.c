/* Benchmark models: ordinary C with batchdiff annotations, plus the baselines
 * a user would write by hand, compiled in this same file with the same flags
 * (-O3 -march=native): clang may inline the scalar function into each loop
 * and vectorize it where it can. See models.h. */
#include "models.h"

#include <batchdiff.h>
#include <math.h>

/* ---- float ---------------------------------------------------------------- */

BATCHDIFF float logistic_loss(float z, float y) {
  float m = z > 0.0f ? z : 0.0f;
  return m + log1pf(expf(-fabsf(z))) - y * z;
}

BATCHDIFF float gelu(float x) {
  float u = 0.7978845608f * (x + 0.044715f * x * x * x);
  return 0.5f * x * (1.0f + tanhf(u));
}

BATCHDIFF float softplus(float x) { return x > 20.0f ? x : log1pf(expf(x)); }

BATCHDIFF float piecewise(float x) {
  if (x < -1.0f)
    return expf(x + 1.0f) - 2.0f;
  if (x < 1.0f)
    return x * (1.0f + x * x * (0.25f - 0.05f * x * x)) - 0.8f;
  return logf(x) * sqrtf(x) + 0.4f;
}

/* ---- double --------------------------------------------------------------- */

/* Piecewise-linear interpolation by bisection over a file-scope table of
 * 11 knots (a spline's interval search): a short divergent loop reading a
 * small const table at a per-lane index. */
static const double KNOTS[11] = {0.0, 0.05, 0.15, 0.3, 0.4,  0.5,
                                 0.55, 0.7, 0.8,  0.95, 1.0};
static const double KVALS[11] = {1.0, 1.5, 0.5, -0.25, 2.0, 3.0,
                                 2.5, 1.0, 0.0, -1.0,  0.5};
BATCHDIFF double interp_knots(double t) {
  int lo = 0, hi = 10;
  while (hi - lo > 1) {
    int mid = (lo + hi) / 2;
    if (KNOTS[mid] > t)
      hi = mid;
    else
      lo = mid;
  }
  double u = (t - KNOTS[lo]) / (KNOTS[hi] - KNOTS[lo]);
  return KVALS[lo] * (1.0 - u) + KVALS[hi] * u;
}

BATCHDIFF BD_HVP double bs_call(double S, BD_UNIFORM double K, BD_UNIFORM double r,
                         double sigma, double T) {
  if (T <= 0.0)
    return fmax(S - K, 0.0);
  double vol = sigma * sqrt(T);
  double d1 = (log(S / K) + (r + 0.5 * sigma * sigma) * T) / vol;
  if (d1 < -9.0)
    return 0.0;
  double d2 = d1 - vol;
  double nd1 = 0.5 * erfc(-d1 * 0.70710678118654752);
  double nd2 = 0.5 * erfc(-d2 * 0.70710678118654752);
  return S * nd1 - K * exp(-r * T) * nd2;
}

/* Bundle adjustment's reprojection residual (x coordinate): angle-axis
 * rotation of the point (as ceres/rotation.h), translation, perspective
 * division, radial distortion. Nine differentiable inputs: NAME_jvp gives
 * one column of a Gauss-Newton Jacobian per call (bench_jvp). */
BATCHDIFF BD_JVP BD_HVP double reproj(double a0, double a1, double a2, double t0,
                               double t1, double t2, double X, double Y,
                               double Z, BD_UNIFORM BD_NODIFF double f,
                               BD_UNIFORM BD_NODIFF double k1) {
  double th2 = a0 * a0 + a1 * a1 + a2 * a2;
  double p0, p1, p2;
  if (th2 > 1e-12) {
    double th = sqrt(th2), c = cos(th), s = sin(th);
    double w0 = a0 / th, w1 = a1 / th, w2 = a2 / th;
    double k = (1.0 - c) * (w0 * X + w1 * Y + w2 * Z);
    p0 = X * c + (w1 * Z - w2 * Y) * s + w0 * k;
    p1 = Y * c + (w2 * X - w0 * Z) * s + w1 * k;
    p2 = Z * c + (w0 * Y - w1 * X) * s + w2 * k;
  } else {
    p0 = X + (a1 * Z - a2 * Y);
    p1 = Y + (a2 * X - a0 * Z);
    p2 = Z + (a0 * Y - a1 * X);
  }
  p0 = p0 + t0;
  p1 = p1 + t1;
  p2 = p2 + t2;
  double xp = -p0 / p2, yp = -p1 / p2;
  double r2 = xp * xp + yp * yp;
  return f * (1.0 + k1 * r2) * xp;
}

/* softplus in double: exp and log1p (the branch rarely diverges; beyond 36
 * log1p(exp(x)) - x is below 2^-53 of x). */
BATCHDIFF double softplus_d(double x) { return x > 36.0 ? x : log1p(exp(x)); }

BATCHDIFF double lognormal_nll(double x, double mu, double sigma) {
  double t = (log(x) - mu) / sigma;
  return 0.5 * t * t + log(sigma * x) + 0.91893853320467274;
}

/* ---- ragged: a per-example number of steps (tapes in the gradient) ------ */

BATCHDIFF BD_HVP float rnn_ragged(const float *x, int n, BD_UNIFORM float w,
                           BD_UNIFORM float u) {
  float h = 0.0f;
  for (int i = 0; i < n; i++)
    h = tanhf(w * h + u * x[i]);
  return h;
}

/* ---- divergent exits, Newton loops (bench_chains) ------------------------ */

/* Distance along the unit direction d from o to a sphere of radius r at the
 * origin, -1 for a miss: three early exits, mixed in nearly every vector. */
BATCHDIFF float ray_sphere(float ox, float oy, float oz, float dx, float dy,
                           float dz, BD_UNIFORM float r) {
  float b = ox * dx + oy * dy + oz * dz;
  float c = ox * ox + oy * oy + oz * oz - r * r;
  if (c > 0.0f && b > 0.0f)
    return -1.0f; /* outside, pointing away */
  float disc = b * b - c;
  if (disc < 0.0f)
    return -1.0f; /* misses */
  float t = -b - sqrtf(disc);
  if (t < 0.0f)
    return -b + sqrtf(disc); /* starts inside */
  return t;
}

/* Cube root by Newton's method: a per-example number of trips (3 to ~40
 * over a in [1e-3, 1e6]), one divide-bound dependency chain. */
BATCHDIFF double ncbrt(double a) {
  double x = a > 1.0 ? a : 1.0;
  for (int i = 0; i < 100; i++) {
    double d = (x * x * x - a) / (3.0 * x * x);
    x = x - d;
    if (fabs(d) <= 1e-15 * x)
      break;
  }
  return x;
}

static inline double bd_ncdf(double x) {
  return 0.5 * erfc(-x * 0.70710678118654752);
}
static inline double bd_bs_price(double S, double K, double r, double sig,
                                 double T) {
  double vol = sig * sqrt(T);
  double d1 = (log(S / K) + (r + 0.5 * sig * sig) * T) / vol;
  return S * bd_ncdf(d1) - K * exp(-r * T) * bd_ncdf(d1 - vol);
}

/* examples/implied_vol's model: erfc inside a Newton loop. */
BATCHDIFF double implied_vol(double price, double S, BD_UNIFORM double K,
                             BD_UNIFORM double r, double T) {
  double sig = 0.3;
  for (int it = 0; it < 40; it++) {
    double diff = bd_bs_price(S, K, r, sig, T) - price;
    if (fabs(diff) < 1e-13 * price)
      break;
    double vol = sig * sqrt(T);
    double d1 = (log(S / K) + (r + 0.5 * sig * sig) * T) / vol;
    double vega = S * sqrt(T) * exp(-0.5 * d1 * d1) * 0.39894228040143268;
    sig -= diff / vega;
    if (sig < 0.01)
      sig = 0.01;
  }
  return sig;
}

/* ---- baselines: the loops a user writes ---------------------------------- */

void bd_loop_logistic_loss(size_t n, const float *z, const float *y,
                           float *ret) {
  for (size_t i = 0; i < n; i++)
    ret[i] = logistic_loss(z[i], y[i]);
}
void bd_loop_gelu(size_t n, const float *x, float *ret) {
  for (size_t i = 0; i < n; i++)
    ret[i] = gelu(x[i]);
}
void bd_loop_softplus(size_t n, const float *x, float *ret) {
  for (size_t i = 0; i < n; i++)
    ret[i] = softplus(x[i]);
}
void bd_loop_piecewise(size_t n, const float *x, float *ret) {
  for (size_t i = 0; i < n; i++)
    ret[i] = piecewise(x[i]);
}
void bd_loop_interp_knots(size_t n, const double *t, double *ret) {
  for (size_t i = 0; i < n; i++)
    ret[i] = interp_knots(t[i]);
}
void bd_loop_ray_sphere(size_t n, const float *ox, const float *oy,
                        const float *oz, const float *dx, const float *dy,
                        const float *dz, float r, float *ret) {
  for (size_t i = 0; i < n; i++)
    ret[i] = ray_sphere(ox[i], oy[i], oz[i], dx[i], dy[i], dz[i], r);
}
void bd_loop_ncbrt(size_t n, const double *a, double *ret) {
  for (size_t i = 0; i < n; i++)
    ret[i] = ncbrt(a[i]);
}
void bd_loop_implied_vol(size_t n, const double *price, const double *S,
                         double K, double r, const double *T, double *ret) {
  for (size_t i = 0; i < n; i++)
    ret[i] = implied_vol(price[i], S[i], K, r, T[i]);
}
void bd_loop_rnn_ragged(size_t nb, const float *x, ptrdiff_t x_stride,
                        const int *n, float w, float u, float *ret) {
  for (size_t i = 0; i < nb; i++)
    ret[i] = rnn_ragged(x + (ptrdiff_t)i * x_stride, n[i], w, u);
}
double bd_bs_price_scalar(double S, double K, double r, double sig, double T) {
  return bd_bs_price(S, K, r, sig, T);
}
void bd_loop_bs_call(size_t n, const double *S, double K, double r,
                     const double *sigma, const double *T, double *ret) {
  for (size_t i = 0; i < n; i++)
    ret[i] = bs_call(S[i], K, r, sigma[i], T[i]);
}
void bd_loop_lognormal_nll(size_t n, const double *x, const double *mu,
                           const double *sigma, double *ret) {
  for (size_t i = 0; i < n; i++)
    ret[i] = lognormal_nll(x[i], mu[i], sigma[i]);
}
void bd_loop_softplus_d(size_t n, const double *x, double *ret) {
  for (size_t i = 0; i < n; i++)
    ret[i] = softplus_d(x[i]);
}

/* pow alone, and an American put on a binomial tree over a local array
 * with S u^i d^(n-i) by two pows at every node (docs/performance-kernels.md,
 * "The double pow"): steps and the rates shared by the batch. */
BATCHDIFF double pow_d(double x, double y) { return pow(x, y); }
BATCHDIFF float pow_f(float x, float y) { return powf(x, y); }
void bd_loop_pow_f(size_t n, const float *x, const float *y, float *ret) {
  for (size_t i = 0; i < n; i++)
    ret[i] = pow_f(x[i], y[i]);
}
#define AMER_MAX 64
BATCHDIFF double amer_put(double S, BD_UNIFORM double K, BD_UNIFORM double r,
                          double sigma, double T, BD_UNIFORM int steps) {
  double v[AMER_MAX + 1];
  if (steps < 1)
    steps = 1;
  if (steps > AMER_MAX)
    steps = AMER_MAX;
  double dt = T / steps;
  double u = exp(sigma * sqrt(dt)), d = 1.0 / u;
  double disc = exp(-r * dt);
  double p = (exp(r * dt) - d) / (u - d);
  for (int i = 0; i <= steps; i++)
    v[i] = fmax(K - S * pow(u, i) * pow(d, steps - i), 0.0);
  for (int n = steps - 1; n >= 0; n--)
    for (int i = 0; i <= n; i++) {
      double hold = disc * (p * v[i + 1] + (1 - p) * v[i]);
      v[i] = fmax(hold, K - S * pow(u, i) * pow(d, n - i));
    }
  return v[0];
}
void bd_loop_pow_d(size_t n, const double *x, const double *y, double *ret) {
  for (size_t i = 0; i < n; i++)
    ret[i] = pow_d(x[i], y[i]);
}
void bd_loop_amer_put(size_t n, const double *S, double K, double r,
                      const double *sigma, const double *T, int steps,
                      double *ret) {
  for (size_t i = 0; i < n; i++)
    ret[i] = amer_put(S[i], K, r, sigma[i], T[i], steps);
}

/* ---- baselines: scalar forward mode with dual numbers -------------------- */

enum { BD_ND = 5 }; /* up to 5 partials */
typedef struct {
  double v, d[BD_ND];
} bd_dual;

static inline bd_dual bd_dc(double v) {
  bd_dual r = {v, {0}};
  return r;
}
static inline bd_dual bd_dv(double v, int i) {
  bd_dual r = bd_dc(v);
  r.d[i] = 1.0;
  return r;
}
static inline bd_dual bd_dadd(bd_dual a, bd_dual b) {
  a.v += b.v;
  for (int i = 0; i < BD_ND; i++)
    a.d[i] += b.d[i];
  return a;
}
static inline bd_dual bd_dsub(bd_dual a, bd_dual b) {
  a.v -= b.v;
  for (int i = 0; i < BD_ND; i++)
    a.d[i] -= b.d[i];
  return a;
}
static inline bd_dual bd_dmul(bd_dual a, bd_dual b) {
  bd_dual r;
  r.v = a.v * b.v;
  for (int i = 0; i < BD_ND; i++)
    r.d[i] = a.d[i] * b.v + a.v * b.d[i];
  return r;
}
static inline bd_dual bd_ddiv(bd_dual a, bd_dual b) {
  bd_dual r;
  r.v = a.v / b.v;
  for (int i = 0; i < BD_ND; i++)
    r.d[i] = (a.d[i] - r.v * b.d[i]) / b.v;
  return r;
}
static inline bd_dual bd_dscale(bd_dual a, double s) {
  a.v *= s;
  for (int i = 0; i < BD_ND; i++)
    a.d[i] *= s;
  return a;
}
static inline bd_dual bd_dchain(bd_dual a, double f, double df) {
  a.v = f;
  for (int i = 0; i < BD_ND; i++)
    a.d[i] *= df;
  return a;
}
static inline bd_dual bd_dlog(bd_dual a) {
  return bd_dchain(a, log(a.v), 1.0 / a.v);
}
static inline bd_dual bd_dexp(bd_dual a) {
  double e = exp(a.v);
  return bd_dchain(a, e, e);
}
static inline bd_dual bd_dsqrt(bd_dual a) {
  double s = sqrt(a.v);
  return bd_dchain(a, s, 0.5 / s);
}
static inline bd_dual bd_derfc(bd_dual a) {
  return bd_dchain(a, erfc(a.v), -1.1283791670955126 * exp(-a.v * a.v));
}

static bd_dual bd_bs_dual(double S_, double K_, double r_, double sigma_,
                          double T_) {
  bd_dual S = bd_dv(S_, 0), K = bd_dv(K_, 1), r = bd_dv(r_, 2);
  bd_dual sigma = bd_dv(sigma_, 3), T = bd_dv(T_, 4);
  if (T.v <= 0.0) {
    bd_dual x = bd_dsub(S, K);
    return x.v > 0.0 ? x : bd_dc(0.0);
  }
  bd_dual vol = bd_dmul(sigma, bd_dsqrt(T));
  bd_dual d1 = bd_ddiv(
      bd_dadd(bd_dlog(bd_ddiv(S, K)),
              bd_dmul(bd_dadd(r, bd_dscale(bd_dmul(sigma, sigma), 0.5)), T)),
      vol);
  if (d1.v < -9.0)
    return bd_dc(0.0);
  bd_dual d2 = bd_dsub(d1, vol);
  bd_dual nd1 = bd_dscale(bd_derfc(bd_dscale(d1, -0.70710678118654752)), 0.5);
  bd_dual nd2 = bd_dscale(bd_derfc(bd_dscale(d2, -0.70710678118654752)), 0.5);
  bd_dual disc = bd_dexp(bd_dscale(bd_dmul(r, T), -1.0));
  return bd_dsub(bd_dmul(S, nd1), bd_dmul(bd_dmul(K, disc), nd2));
}

void bd_dual_bs_call(size_t n, const double *S, double K, double r,
                     const double *sigma, const double *T, double *ret,
                     double *d_S, double *d_K, double *d_r, double *d_sigma,
                     double *d_T) {
  double sk = 0.0, sr = 0.0;
  for (size_t i = 0; i < n; i++) {
    bd_dual p = bd_bs_dual(S[i], K, r, sigma[i], T[i]);
    ret[i] = p.v;
    d_S[i] = p.d[0];
    sk += p.d[1];
    sr += p.d[2];
    d_sigma[i] = p.d[3];
    d_T[i] = p.d[4];
  }
  *d_K = sk;
  *d_r = sr;
}

void bd_dual_lognormal_nll(size_t n, const double *x, const double *mu,
                           const double *sigma, double *ret, double *d_x,
                           double *d_mu, double *d_sigma) {
  for (size_t i = 0; i < n; i++) {
    bd_dual X = bd_dv(x[i], 0), M = bd_dv(mu[i], 1), S = bd_dv(sigma[i], 2);
    bd_dual t = bd_ddiv(bd_dsub(bd_dlog(X), M), S);
    bd_dual p =
        bd_dadd(bd_dadd(bd_dscale(bd_dmul(t, t), 0.5), bd_dlog(bd_dmul(S, X))),
                bd_dc(0.91893853320467274));
    ret[i] = p.v;
    d_x[i] = p.d[0];
    d_mu[i] = p.d[1];
    d_sigma[i] = p.d[2];
  }
}
