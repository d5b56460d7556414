/* R's nmath as found (docs/found-code.md): dpois.c, pbeta.c, pnbinom.c,
 * gamma.c and lgammacor.c under `batch`, included unchanged (annotated
 * through prototypes), in one translation unit: pnbinom's pbeta and
 * gammafn's lgammacor are inlined; ebd0, stirlerr, lgammafn, bratio,
 * chebyshev_eval, sinpi and ppois are other files' functions, called once
 * per example (compiled plainly by run.sh). NAME_batched against the scalar
 * function on 4,099 realistic examples each (2% specials: 0, +-1, 0.5,
 * +-Inf, NaN):
 *   - with -DNM_EXACT and -include nm_wrap.h (log, exp, pow, log1p, expm1,
 *     sin, cos through another file's functions, so that both versions call
 *     glibc): bit for bit;
 *   - else (the vector math functions): within 1e-12 relative, the largest
 *     difference printed. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// clang-format off
#include "nmath.h"
#include "dpq.h"
// clang-format on

#define BB __attribute__((batch))
double BB dpois_raw(double x, double lambda, int give_log);
double BB dpois(double x, double lambda, int give_log);
double BB pbeta_raw(double x, double a, double b, int lower_tail, int log_p);
double BB pbeta(double x, double a, double b, int lower_tail, int log_p);
double BB pnbinom(double x, double size, double prob, int lower_tail,
                  int log_p);
double BB pnbinom_mu(double x, double size, double mu, int lower_tail,
                     int log_p);
double BB gammafn(double x);
double BB lgammacor(double x);

// clang-format off
#include "dpois.c"
#include "pbeta.c"
#include "pnbinom.c"
#include "gamma.c"
#include "lgammacor.c"
// clang-format on

/* (The standalone nmath names its functions without Rf_; lgammacor is
 * nmath.h's Rf_lgammacor.) */
void dpois_raw_batched(size_t, const double *, const double *, const int *,
                       double *);
void dpois_batched(size_t, const double *, const double *, const int *,
                   double *);
void pbeta_raw_batched(size_t, const double *, const double *, const double *,
                       const int *, const int *, double *);
void pbeta_batched(size_t, const double *, const double *, const double *,
                   const int *, const int *, double *);
void pnbinom_batched(size_t, const double *, const double *, const double *,
                     const int *, const int *, double *);
void pnbinom_mu_batched(size_t, const double *, const double *, const double *,
                        const int *, const int *, double *);
void gammafn_batched(size_t, const double *, double *);
void Rf_lgammacor_batched(size_t, const double *, double *);

static uint64_t nm_s = 88172645463325252ull;
static double nm_u(void) {
  nm_s ^= nm_s << 13;
  nm_s ^= nm_s >> 7;
  nm_s ^= nm_s << 17;
  return (double)(nm_s >> 11) * 0x1p-53;
}
static double nm_logu(double lo, double hi) {
  return exp(log(lo) + nm_u() * (log(hi) - log(lo)));
}
static int nm_flag(void) { return nm_u() < 0.5; }
/* NaN among the specials, but not for dpois_raw (whose callers test it
 * first: ebd0 would index its table by NaN, in the scalar function too). */
static int nm_nan = 1;
static double nm_special(double usual) {
  static const double sp[] = {0, 1, -1, INFINITY, -INFINITY, 0.5, NAN};
  return nm_u() < 0.02 ? sp[(int)(nm_u() * (6 + nm_nan))] : usual;
}
static double nm_ulps(double a, double b) {
  if (a == b || (a != a && b != b))
    return 0;
  if (a != a || b != b)
    return INFINITY;
  int64_t x, y;
  memcpy(&x, &a, 8);
  memcpy(&y, &b, 8);
  if (x < 0)
    x = INT64_MIN - x;
  if (y < 0)
    y = INT64_MIN - y;
  return fabs((double)x - (double)y);
}

#define NN 4099
static double A0[NN], A1[NN], A2[NN], R[NN];
static int F0[NN], F1[NN];
static int nm_bad;

/* (Results to stderr: nmath's warnings go to stdout.) */
static void nm_report(const char *name, double (*ref)(int)) {
  double worst = 0, wrel = 0;
  int wi = -1, nd = 0, nb = 0;
  for (int i = 0; i < NN; i++) {
    double w = ref(i), u = nm_ulps(R[i], w);
    double rel = u == 0 ? 0 : fabs(R[i] - w) / fabs(w);
    nd += u != 0;
    if (u > worst)
      worst = u, wi = i;
    if (rel > wrel)
      wrel = rel;
#ifdef NM_EXACT
    nb += u != 0;
#else
    nb += u != 0 && !(rel <= 1e-12);
#endif
  }
  fprintf(stderr, "%-11s %4d of %d differ (max %g ulp, %.2g relative), %d bad",
          name, nd, NN, worst, wrel, nb);
  if (wi >= 0)
    fprintf(stderr,
            "; worst at (%.17g, %.17g, %.17g, %d, %d): %.17g, want %.17g",
            A0[wi], A1[wi], A2[wi], F0[wi], F1[wi], R[wi], ref(wi));
  fprintf(stderr, "\n");
  nm_bad += nb;
}
static double r_dpois_raw(int i) { return dpois_raw(A0[i], A1[i], F0[i]); }
static double r_dpois(int i) { return dpois(A0[i], A1[i], F0[i]); }
static double r_pbeta_raw(int i) {
  return pbeta_raw(A0[i], A1[i], A2[i], F0[i], F1[i]);
}
static double r_pbeta(int i) {
  return pbeta(A0[i], A1[i], A2[i], F0[i], F1[i]);
}
static double r_pnbinom(int i) {
  return pnbinom(A0[i], A1[i], A2[i], F0[i], F1[i]);
}
static double r_pnbinom_mu(int i) {
  return pnbinom_mu(A0[i], A1[i], A2[i], F0[i], F1[i]);
}
static double r_gammafn(int i) { return gammafn(A0[i]); }
static double r_lgammacor(int i) { return lgammacor(A0[i]); }

int main(void) {
  /* dpois_raw: x >= 0, integers and not (pgamma passes any), lambda > 0 */
  nm_nan = 0;
  for (int i = 0; i < NN; i++) {
    A0[i] = nm_special(nm_u() < 0.5 ? floor(nm_logu(1, 1e4)) - 1
                                    : nm_logu(1e-3, 1e4));
    A1[i] = nm_special(nm_logu(1e-4, 1e4));
    F0[i] = nm_flag();
  }
  dpois_raw_batched(NN, A0, A1, F0, R);
  nm_report("dpois_raw", r_dpois_raw);
  nm_nan = 1;
  /* dpois: integer x (1% not: R_D_nonint_check's warning), lambda > 0 */
  for (int i = 0; i < NN; i++) {
    A0[i] =
        nm_special(nm_u() < 0.01 ? nm_u() * 10 : floor(nm_logu(1, 2000)) - 1);
    A1[i] = nm_special(nm_logu(1e-3, 1e3));
    F0[i] = nm_flag();
  }
  dpois_batched(NN, A0, A1, F0, R);
  nm_report("dpois", r_dpois);
  /* pbeta: 0 <= x <= 1 (near both ends too), shapes 1e-2 .. 1e3 */
  for (int i = 0; i < NN; i++) {
    double u = nm_u();
    A0[i] = nm_special(u < 0.1   ? nm_logu(1e-12, 1e-2)
                       : u < 0.2 ? 1 - nm_logu(1e-12, 1e-2)
                                 : nm_u());
    A1[i] = nm_special(nm_logu(1e-2, 1e3));
    A2[i] = nm_special(nm_logu(1e-2, 1e3));
    F0[i] = nm_flag();
    F1[i] = nm_flag();
  }
  pbeta_raw_batched(NN, A0, A1, A2, F0, F1, R);
  nm_report("pbeta_raw", r_pbeta_raw);
  pbeta_batched(NN, A0, A1, A2, F0, F1, R);
  nm_report("pbeta", r_pbeta);
  /* pnbinom: x integer, size 1e-2 .. 1e3, prob in (0, 1]; then mu */
  for (int i = 0; i < NN; i++) {
    A0[i] = nm_special(floor(nm_logu(1, 1000)) - 1);
    A1[i] = nm_special(nm_logu(1e-2, 1e3));
    A2[i] = nm_special(nm_u() < 0.05 ? 1 : nm_u());
    F0[i] = nm_flag();
    F1[i] = nm_flag();
  }
  pnbinom_batched(NN, A0, A1, A2, F0, F1, R);
  nm_report("pnbinom", r_pnbinom);
  for (int i = 0; i < NN; i++)
    A2[i] = nm_special(nm_logu(1e-3, 1e3));
  pnbinom_mu_batched(NN, A0, A1, A2, F0, F1, R);
  nm_report("pnbinom_mu", r_pnbinom_mu);
  /* gammafn: -171 .. 171, integers 1 .. 60 and half-integers too */
  for (int i = 0; i < NN; i++) {
    double u = nm_u();
    A0[i] = nm_special(u < 0.1   ? floor(nm_u() * 60) + 1
                       : u < 0.2 ? floor(nm_u() * 200) + 0.5
                       : u < 0.5 ? (nm_u() * 2 - 1) * 10
                                 : (nm_u() * 2 - 1) * 171);
    A1[i] = A2[i] = 0;
    F0[i] = F1[i] = 0;
  }
  gammafn_batched(NN, A0, R);
  nm_report("gammafn", r_gammafn);
  /* lgammacor: x >= 10 (below: NaN) */
  for (int i = 0; i < NN; i++)
    A0[i] = nm_special(nm_logu(10, 1e12));
  Rf_lgammacor_batched(NN, A0, R);
  nm_report("lgammacor", r_lgammacor);
  fprintf(stderr, "%s\n", nm_bad ? "FAIL" : "ok");
  return nm_bad != 0;
}
