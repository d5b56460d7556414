// The benchmark models of models.c as C++ templates, for the operator-
// overloading peers (Ceres jets, ADOL-C). Same operations in the same order;
// ncdf() is the one customization point (ADOL-C's adouble has erf, not erfc).
#ifndef BD_BENCH_PEERS_MODELS_HPP
#define BD_BENCH_PEERS_MODELS_HPP

#include <cmath>

template <class T> T bd_ncdf(const T &x) {
  using std::erfc;
  return 0.5 * erfc(x * -0.70710678118654752);
}

template <class T>
T bd_bs_call(const T &S, const T &K, const T &r, const T &sigma, const T &Tm) {
  using std::exp;
  using std::log;
  using std::sqrt;
  if (Tm <= 0.0) {
    T x = S - K;
    if (x > 0.0)
      return x;
    return T(0.0);
  }
  T vol = sigma * sqrt(Tm);
  T d1 = (log(S / K) + (r + 0.5 * sigma * sigma) * Tm) / vol;
  if (d1 < -9.0)
    return T(0.0);
  T d2 = d1 - vol;
  return S * bd_ncdf(d1) - K * exp(-r * Tm) * bd_ncdf(d2);
}

template <class T> T bd_lognormal_nll(const T &x, const T &mu, const T &sigma) {
  using std::log;
  T t = (log(x) - mu) / sigma;
  return 0.5 * t * t + log(sigma * x) + 0.91893853320467274;
}

template <class T>
T bd_reproj(const T &a0, const T &a1, const T &a2, const T &t0, const T &t1,
            const T &t2, const T &X, const T &Y, const T &Z, double f,
            double k1) {
  using std::cos;
  using std::sin;
  using std::sqrt;
  T th2 = a0 * a0 + a1 * a1 + a2 * a2;
  T p0, p1, p2;
  if (th2 > 1e-12) {
    T th = sqrt(th2), c = cos(th), s = sin(th);
    T w0 = a0 / th, w1 = a1 / th, w2 = a2 / th;
    T k = (1.0 - c) * (w0 * X + w1 * Y + w2 * Z);
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
  T xp = -p0 / p2, yp = -p1 / p2;
  T r2 = xp * xp + yp * yp;
  return f * (1.0 + k1 * r2) * xp;
}

#endif
