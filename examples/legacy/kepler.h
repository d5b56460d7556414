/* kepler.h -- solve Kepler's equation E - e sin E = M for the eccentric
 * anomaly E. Old-style numerical code, as found in many projects: a header
 * of static functions, a series start, Newton's method with a tolerance.
 * (This file knows nothing about batchdiff.) */
#ifndef KEPLER_H
#define KEPLER_H

#include <math.h>

/* Starting guess: the series E = M + e sin M + e^2/2 sin 2M + ..., to
 * third order in e, evaluated by Horner's rule in e. */
static double kepler_start(double M, double e) {
  double s1 = sin(M), s2 = sin(2.0 * M), s3 = sin(3.0 * M);
  double c3 = 0.375 * s3 - 0.125 * s1;
  return M + e * (s1 + e * (0.5 * s2 + e * c3));
}

/* Newton's method on f(E) = E - e sin E - M; stops when the step is below
 * tol or after maxit steps. */
static double kepler_solve(double M, double e, double tol, int maxit) {
  double E = kepler_start(M, e);
  int i;
  for (i = 0; i < maxit; i++) {
    double f = E - e * sin(E) - M;
    double d = f / (1.0 - e * cos(E));
    E = E - d;
    if (fabs(d) < tol)
      break;
  }
  return E;
}

#endif
