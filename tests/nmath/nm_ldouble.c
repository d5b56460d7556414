/* R's nmath as found (docs/found-code.md): the files whose functions
 * declare `LDOUBLE` (long double) locals, under `batch`, included unchanged
 * (annotated through prototypes), in one translation unit:
 *   - pnt, dnbeta, dnchisq declare them themselves: NAME_batched calls
 *     the scalar function once per example;
 *   - pnchisq calls pnchisq_raw, phyper calls pdhyper, ptukey calls wprob
 *     (in its loops): batched, with those helpers called once per example
 *     (the other files' functions, pchisq, dhyper, lgammafn, pnorm ...,
 *     too).
 * NAME_batched against the scalar function on 4,099 realistic examples
 * each (2% specials: 0, +-1, 0.5, +-Inf, NaN), with -DNM_EXACT and
 * -include nm_wrap.h (the math functions through another file: bit for
 * bit) and without (the vector math: within 1e-12 relative; ptukey within
 * 1e-13 absolute as a probability, nm_report). */
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
double BB pnt(double t, double df, double ncp, int lower_tail, int log_p);
double BB pnchisq(double x, double df, double ncp, int lower_tail, int log_p);
double BB ptukey(double q, double rr, double cc, double df, int lower_tail,
                 int log_p);
double BB dnbeta(double x, double a, double b, double ncp, int give_log);
double BB dnchisq(double x, double df, double ncp, int give_log);
double BB phyper(double x, double NR, double NB, double n, int lower_tail,
                 int log_p);

// clang-format off
#include "pnt.c"
#include "pnchisq.c"
#include "ptukey.c"
#include "dnbeta.c"
#include "dnchisq.c"
#include "phyper.c"
// clang-format on

void pnt_batched(size_t, const double *, const double *, const double *,
                 const int *, const int *, double *);
void pnchisq_batched(size_t, const double *, const double *, const double *,
                     const int *, const int *, double *);
void ptukey_batched(size_t, const double *, const double *, const double *,
                    const double *, const int *, const int *, double *);
void dnbeta_batched(size_t, const double *, const double *, const double *,
                    const double *, const int *, double *);
void dnchisq_batched(size_t, const double *, const double *, const double *,
                     const int *, double *);
void phyper_batched(size_t, const double *, const double *, const double *,
                    const double *, const int *, const int *, double *);

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
static double nm_special(double usual) {
  static const double sp[] = {0, 1, -1, INFINITY, -INFINITY, 0.5, NAN};
  return nm_u() < 0.02 ? sp[(int)(nm_u() * 7)] : usual;
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
static double A0[NN], A1[NN], A2[NN], A3[NN], R[NN];
static int F0[NN], F1[NN];
static int nm_bad;

/* (Results to stderr: nmath's warnings go to stdout.) With the vector
 * math, \p prob: within 1e-13 absolute on the probability scale (ptukey
 * sums an integral of vector exp/log/pow values, whose last bits
 * 1 - ans and log() amplify: R[i] an exp() of log_p's). */
static void nm_report(const char *name, double (*ref)(int), int prob) {
  double worst = 0, wrel = 0, wabs = 0;
  int wi = -1, nd = 0, nb = 0;
  for (int i = 0; i < NN; i++) {
    double w = ref(i), u = nm_ulps(R[i], w);
    double rel = u == 0 ? 0 : fabs(R[i] - w) / fabs(w);
    nd += u != 0;
    if (u > worst)
      worst = u, wi = i;
    if (rel > wrel)
      wrel = rel;
    double pg = F1[i] ? exp(R[i]) : R[i], pw = F1[i] ? exp(w) : w;
    double ab = u == 0 ? 0 : fabs(pg - pw);
    if (ab > wabs || ab != ab)
      wabs = ab;
#ifdef NM_EXACT
    (void)prob;
    nb += u != 0;
#else
    nb += u != 0 && !(prob ? ab <= 1e-13 : rel <= 1e-12);
#endif
  }
  fprintf(stderr,
          "%-8s %4d of %d differ (max %g ulp, %.2g relative, %.2g absolute "
          "as probabilities), %d bad",
          name, nd, NN, worst, wrel, wabs, nb);
  if (wi >= 0)
    fprintf(stderr,
            "; worst at (%.17g, %.17g, %.17g, %.17g, %d, %d): %.17g, want "
            "%.17g",
            A0[wi], A1[wi], A2[wi], A3[wi], F0[wi], F1[wi], R[wi], ref(wi));
  fprintf(stderr, "\n");
  nm_bad += nb;
}
static double r_pnt(int i) { return pnt(A0[i], A1[i], A2[i], F0[i], F1[i]); }
static double r_pnchisq(int i) {
  return pnchisq(A0[i], A1[i], A2[i], F0[i], F1[i]);
}
static double r_ptukey(int i) {
  return ptukey(A0[i], A1[i], A2[i], A3[i], F0[i], F1[i]);
}
static double r_dnbeta(int i) {
  return dnbeta(A0[i], A1[i], A2[i], A3[i], F0[i]);
}
static double r_dnchisq(int i) { return dnchisq(A0[i], A1[i], A2[i], F0[i]); }
static double r_phyper(int i) {
  return phyper(A0[i], A1[i], A2[i], A3[i], F0[i], F1[i]);
}

int main(void) {
  /* pnt: t in -40 .. 40, df 0.1 .. 1e3, ncp 0 .. 37 (R warns above 37.62) */
  for (int i = 0; i < NN; i++) {
    A0[i] = nm_special((nm_u() * 2 - 1) * 40);
    A1[i] = nm_special(nm_logu(0.1, 1e3));
    A2[i] = nm_special(nm_u() < 0.1 ? 0 : nm_u() * 37);
    A3[i] = 0;
    F0[i] = nm_flag();
    F1[i] = nm_flag();
  }
  pnt_batched(NN, A0, A1, A2, F0, F1, R);
  nm_report("pnt", r_pnt, 0);
  /* pnchisq: x 0 .. 400, df 0.01 .. 100, ncp 0 .. 300 (its series and
   * its approximations) */
  for (int i = 0; i < NN; i++) {
    A0[i] = nm_special(nm_logu(1e-3, 400));
    A1[i] = nm_special(nm_logu(1e-2, 100));
    A2[i] = nm_special(nm_u() < 0.1 ? 0 : nm_logu(1e-2, 300));
  }
  pnchisq_batched(NN, A0, A1, A2, F0, F1, R);
  nm_report("pnchisq", r_pnchisq, 0);
  /* dnchisq: the same x, df, ncp */
  dnchisq_batched(NN, A0, A1, A2, F0, R);
  nm_report("dnchisq", r_dnchisq, 0);
  /* ptukey: q 0 .. 20, 1 .. 4 ranges, 2 .. 20 groups, df 2 .. 1000
   * (costly: a double integral per example) */
  for (int i = 0; i < NN; i++) {
    A0[i] = nm_special(nm_u() * 20);
    A1[i] = nm_special(floor(nm_u() * 4) + 1);
    A2[i] = nm_special(floor(nm_u() * 19) + 2);
    A3[i] = nm_special(nm_logu(2, 1000));
  }
  ptukey_batched(NN, A0, A1, A2, A3, F0, F1, R);
  nm_report("ptukey", r_ptukey, 1);
  /* dnbeta: x in (0, 1), shapes 0.1 .. 100, ncp 0 .. 100 */
  for (int i = 0; i < NN; i++) {
    A0[i] = nm_special(nm_u());
    A1[i] = nm_special(nm_logu(0.1, 100));
    A2[i] = nm_special(nm_logu(0.1, 100));
    A3[i] = nm_special(nm_u() < 0.1 ? 0 : nm_logu(1e-2, 100));
  }
  dnbeta_batched(NN, A0, A1, A2, A3, F0, R);
  nm_report("dnbeta", r_dnbeta, 0);
  /* phyper: NR, NB 0 .. 300 red and black balls, n drawn, x red among
   * them (integers; 2% not) */
  for (int i = 0; i < NN; i++) {
    double nr = floor(nm_logu(1, 300)), nb = floor(nm_logu(1, 300));
    double n = floor(nm_u() * (nr + nb + 1));
    A1[i] = nm_special(nr);
    A2[i] = nm_special(nb);
    A3[i] = nm_special(n);
    A0[i] = nm_special(nm_u() < 0.02 ? nm_u() * n : floor(nm_u() * (n + 1)));
  }
  phyper_batched(NN, A0, A1, A2, A3, F0, F1, R);
  nm_report("phyper", r_phyper, 0);
  fprintf(stderr, "%s\n", nm_bad ? "FAIL" : "ok");
  return nm_bad != 0;
}
