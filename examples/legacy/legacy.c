/* Existing code, batched and differentiated without editing it.
 *
 * kepler.h is ordinary C that knows nothing about batchdiff. The only new
 * code is a one-line annotated wrapper: static functions of the same file
 * (here: of an included header) are inlined into the annotated function,
 * so kepler_solve's Newton loop, its per-example trip count and its break
 * are batched and differentiated as they are.
 *
 * Usage: legacy [n]      (default 100000 orbits)
 *
 * Checks ecc_anomaly_batched against the scalar function and the gradient
 * against the closed forms dE/dM = 1 / (1 - e cos E) and
 * dE/de = sin E / (1 - e cos E); writes E against M for four
 * eccentricities to legacy.dat (`gnuplot plot.gp` draws legacy.png). Exits
 * with status 1 if a check fails. */
#include <batchdiff.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "kepler.h"

/* The eccentric anomaly of an orbit of eccentricity e at mean anomaly M. */
BATCHDIFF double ecc_anomaly(double M, double e) {
  return kepler_solve(M, e, 1e-15, 30);
}

/* Newton steps kepler_solve takes (what the masks have to cover). */
static int bd_steps(double M, double e) {
  double E = kepler_start(M, e);
  int i;
  for (i = 0; i < 30; i++) {
    double d = (E - e * sin(E) - M) / (1.0 - e * cos(E));
    E -= d;
    if (fabs(d) < 1e-15)
      break;
  }
  return i + 1;
}

static double bd_uniform(unsigned long long *s) {
  *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(*s >> 11) * 0x1p-53;
}

static int bd_curves(const char *path) {
  enum { NM = 181, NE = 4 };
  static const double ecc[NE] = {0.0, 0.3, 0.7, 0.95};
  double M[NM * NE], e[NM * NE], E[NM * NE];
  for (int k = 0; k < NE; k++)
    for (int i = 0; i < NM; i++) {
      M[k * NM + i] = 6.283185307179586 * i / (NM - 1);
      e[k * NM + i] = ecc[k];
    }
  ecc_anomaly_batched(NM * NE, M, e, E);
  FILE *f = fopen(path, "w");
  if (!f)
    return 1;
  fprintf(f, "# M, then E for e = 0, 0.3, 0.7, 0.95\n");
  for (int i = 0; i < NM; i++) {
    fprintf(f, "%.9g", M[i]);
    for (int k = 0; k < NE; k++)
      fprintf(f, " %.12g", E[k * NM + i]);
    fprintf(f, "\n");
  }
  return fclose(f) != 0;
}

int main(int argc, char **argv) {
  size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 100000;
  if (n == 0) {
    fprintf(stderr, "usage: %s [n > 0]\n", argv[0]);
    return 2;
  }
  double *M = malloc(n * sizeof *M), *e = malloc(n * sizeof *e);
  double *E = malloc(n * sizeof *E), *dM = calloc(n, sizeof *dM);
  double *de = calloc(n, sizeof *de);
  if (!M || !e || !E || !dM || !de) {
    fprintf(stderr, "legacy: out of memory\n");
    return 2;
  }
  unsigned long long s = 5;
  int hist[31] = {0};
  for (size_t i = 0; i < n; i++) {
    M[i] = 6.283185307179586 * bd_uniform(&s);
    e[i] = 0.99 * bd_uniform(&s);
    hist[bd_steps(M[i], e[i])]++;
  }
  ecc_anomaly_batched(n, M, e, E);
  double err = 0.0, gerr = 0.0, resid = 0.0;
  for (size_t i = 0; i < n; i++) {
    err = fmax(err, fabs(E[i] - ecc_anomaly(M[i], e[i])));
    resid = fmax(resid, fabs(E[i] - e[i] * sin(E[i]) - M[i]));
  }
  ecc_anomaly_grad(n, M, e, NULL, NULL, dM, de);
  for (size_t i = 0; i < n; i++) {
    double q = 1.0 - e[i] * cos(E[i]);
    gerr = fmax(gerr, fabs(dM[i] - 1.0 / q) * q);
    gerr = fmax(gerr, fabs(de[i] - sin(E[i]) / q) * q);
  }
  printf("%zu orbits, e in [0, 0.99): Newton steps per example:", n);
  for (int k = 1; k <= 30; k++)
    if (hist[k])
      printf(" %d: %d", k, hist[k]);
  printf("\n");
  /* sin and cos in the batched code are within ~1 ULP of libm's, so E may
   * differ in the last bits; the residual shows it solves the equation. */
  int ok1 = err < 1e-13, ok2 = resid < 1e-13, ok3 = gerr < 1e-9;
  printf("ecc_anomaly_batched vs ecc_anomaly: max abs. difference %.1e %s\n",
         err, ok1 ? "ok" : "FAIL");
  printf("residual |E - e sin E - M|: max %.1e %s\n", resid,
         ok2 ? "ok" : "FAIL");
  printf("ecc_anomaly_grad vs 1/(1 - e cos E), sin E/(1 - e cos E): max "
         "rel. error %.1e %s\n",
         gerr, ok3 ? "ok" : "FAIL");
  int ok4 = bd_curves("legacy.dat") == 0;
  printf("%s legacy.dat (gnuplot plot.gp draws legacy.png)\n",
         ok4 ? "wrote" : "FAILED to write");
  free(M), free(e), free(E), free(dM), free(de);
  return ok1 && ok2 && ok3 && ok4 ? 0 : 1;
}
