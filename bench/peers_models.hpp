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

#endif
