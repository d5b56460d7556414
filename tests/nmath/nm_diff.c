/* R's nmath as found (docs/found-code.md): lgammacor.c under `batch, diff`
 * with chebyshev.c in the same translation unit (its chebyshev_eval is
 * another file's function otherwise, whose derivative batchdiff cannot
 * know), included unchanged and annotated through a prototype.
 * Rf_lgammacor_batched and the value Rf_lgammacor_grad returns against the
 * scalar function bit for bit (arithmetic only), the gradient against
 * Richardson-extrapolated central differences of the scalar function
 * (tests/exec/exec_fd.h's fd_richardson, without CMocka), on 4,099 x
 * log-uniform in [10, 1e12). */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

// clang-format off
#include "nmath.h"
double __attribute__((batch, diff)) lgammacor(double x);
#include "chebyshev.c"
#include "lgammacor.c"
// clang-format on

void Rf_lgammacor_batched(size_t, const double *, double *);
void Rf_lgammacor_grad(size_t, const double *, double *, const double *,
                       double *);

/* g'(x) by (4 d(h) - d(2h)) / 3, h = 1e-5 (1 + |x|), where g is smooth
 * around x (as exec_fd.h's fd_richardson); 0 where not. */
static int fd_richardson(double (*g)(double), double x, double *deriv,
                         double *noise) {
  double h = 1e-5 * (1.0 + fabs(x));
  double f0 = g(x), fp = g(x + h), fm = g(x - h);
  double fp2 = g(x + 2 * h), fm2 = g(x - 2 * h);
  double d1 = (fp - fm) / (2 * h), d2 = (fp2 - fm2) / (4 * h);
  double big = fmax(fmax(fabs(fp), fabs(fm)), fmax(fabs(fp2), fabs(fm2)));
  double nz = 64 * DBL_EPSILON * fmax(big, fabs(f0)) / h;
  double right = (fp - f0) / h, left = (f0 - fm) / h;
  double dr = (4 * d1 - d2) / 3;
  if (!isfinite(d1) || !isfinite(d2) || fabs(d1 - d2) > 1e-4 * fabs(d1) + nz ||
      fabs(right - left) > 1e-3 * fabs(d1) + nz ||
      fabs(d1 - dr) > 1e-7 * fabs(dr) + nz)
    return 0;
  *deriv = dr;
  *noise = nz;
  return 1;
}

static double nm_lgc(double x) { return lgammacor(x); }

static uint64_t nm_s = 88172645463325252ull;
static double nm_u(void) {
  nm_s ^= nm_s << 13;
  nm_s ^= nm_s >> 7;
  nm_s ^= nm_s << 17;
  return (double)(nm_s >> 11) * 0x1p-53;
}

#define NN 4099
static double X[NN], R[NN], RG[NN], DX[NN];

int main(void) {
  for (int i = 0; i < NN; i++)
    X[i] = exp(log(10.0) + nm_u() * log(1e11));
  Rf_lgammacor_batched(NN, X, R);
  Rf_lgammacor_grad(NN, X, RG, NULL, DX);
  int nd = 0, ng = 0, checked = 0, bad = 0;
  for (int i = 0; i < NN; i++) {
    double w = lgammacor(X[i]), dr, nz;
    nd += memcmp(&w, &R[i], 8) != 0;
    ng += memcmp(&w, &RG[i], 8) != 0;
    if (!fd_richardson(nm_lgc, X[i], &dr, &nz))
      continue;
    checked++;
    if (!(fabs(DX[i] - dr) <= 1e-6 * fabs(dr) + nz)) {
      if (!bad)
        fprintf(stderr, "lgammacor'(%.17g): %.17g, differences %.17g\n", X[i],
                DX[i], dr);
      bad++;
    }
  }
  fprintf(stderr,
          "lgammacor: batched %d of %d differ, the grad's value %d; "
          "gradients: %d checked, %d off\n",
          nd, NN, ng, checked, bad);
  return nd || ng || bad || checked < NN / 2;
}
