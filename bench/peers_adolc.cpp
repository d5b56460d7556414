// Peer: ADOL-C with a tape. The function is traced once; each example is a
// zero-order forward sweep (value, keeping the Taylor buffer) and a
// first-order reverse sweep (gradient). When an example takes another branch
// than the traced one, zos_forward returns a negative code and the function
// is retraced at that example, as the ADOL-C manual prescribes. ADOL-C
// prints a warning to stderr at every such branch switch; stderr is sent to
// /dev/null while the loop runs (the warnings' cost stays in the timing).
#include "peers.h"

#include <adolc/adolc.h>
#include <fcntl.h>
#include <unistd.h>

// ADOL-C's adouble has erf but no erfc.
static adouble bd_adolc_ncdf(const adouble &x) {
  return 0.5 * (1.0 + erf(x * 0.70710678118654752));
}
#define bd_ncdf bd_adolc_ncdf
#include "peers_models.hpp"
#undef bd_ncdf

namespace {
const short kTagBs = 1, kTagLn = 2;

void trace_bs(const double *x) {
  trace_on(kTagBs, 1);
  adouble a[5];
  for (int j = 0; j < 5; j++)
    a[j] <<= x[j];
  adouble y = bd_bs_call(a[0], a[1], a[2], a[3], a[4]);
  double v;
  y >>= v;
  trace_off();
}

void trace_ln(const double *x) {
  trace_on(kTagLn, 1);
  adouble a[3];
  for (int j = 0; j < 3; j++)
    a[j] <<= x[j];
  adouble y = bd_lognormal_nll(a[0], a[1], a[2]);
  double v;
  y >>= v;
  trace_off();
}

// Value and gradient at x; retraces when the branch pattern changed.
void eval(short tag, void (*trace)(const double *), int m, double *x,
          double *y, double *g, bool *traced) {
  double w = 1.0;
  if (!*traced) {
    trace(x);
    *traced = true;
  }
  if (zos_forward(tag, 1, m, 1, x, y) < 0) {
    trace(x);
    zos_forward(tag, 1, m, 1, x, y);
  }
  fos_reverse(tag, 1, m, &w, g);
}
// Silences stderr for its lifetime.
struct QuietStderr {
  int saved = -1;
  QuietStderr() {
    int devnull = open("/dev/null", O_WRONLY);
    if (devnull >= 0) {
      fflush(stderr);
      saved = dup(2);
      dup2(devnull, 2);
      close(devnull);
    }
  }
  ~QuietStderr() {
    if (saved >= 0) {
      fflush(stderr);
      dup2(saved, 2);
      close(saved);
    }
  }
};
} // namespace

extern "C" void bd_adolc_bs_call(size_t n, const double *S, double K, double r,
                                 const double *sigma, const double *T,
                                 double *ret, double *d_S, double *d_K,
                                 double *d_r, double *d_sigma, double *d_T) {
  double sk = 0.0, sr = 0.0, g[5];
  bool traced = false;
  QuietStderr quiet;
  for (size_t i = 0; i < n; i++) {
    double x[5] = {S[i], K, r, sigma[i], T[i]};
    eval(kTagBs, trace_bs, 5, x, &ret[i], g, &traced);
    d_S[i] = g[0];
    sk += g[1];
    sr += g[2];
    d_sigma[i] = g[3];
    d_T[i] = g[4];
  }
  *d_K = sk;
  *d_r = sr;
}

extern "C" void bd_adolc_lognormal_nll(size_t n, const double *x,
                                       const double *mu, const double *sigma,
                                       double *ret, double *d_x, double *d_mu,
                                       double *d_sigma) {
  double g[3];
  bool traced = false;
  for (size_t i = 0; i < n; i++) {
    double p[3] = {x[i], mu[i], sigma[i]};
    eval(kTagLn, trace_ln, 3, p, &ret[i], g, &traced);
    d_x[i] = g[0];
    d_mu[i] = g[1];
    d_sigma[i] = g[2];
  }
}
