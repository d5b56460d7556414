/* Long double digamma and trigamma for the tests (the derivatives of lgamma
 * and tgamma): shifted to x >= 40 by the recurrences, asymptotic series to
 * x^-20, x < 1/2 reflected with tanl / sinl. Independent of the runtime's
 * batchdiff/vmath_gamma.h (other shift, more terms, long double);
 * tests/runtime/test_gamma.c checks it against exact values. */
#ifndef BATCHDIFF_TEST_GAMMA_REF_H
#define BATCHDIFF_TEST_GAMMA_REF_H

#include <math.h>

#define PIL 3.14159265358979323846264338327950288L

static __attribute__((unused)) long double ref_digamma(long double x) {
  long double refl = 0;
  if (x < 0.5L) {
    refl = PIL / tanl(PIL * (x - rintl(x)));
    x = 1 - x;
  }
  long double acc = 0;
  while (x < 40) {
    acc -= 1 / x;
    x += 1;
  }
  /* Bernoulli numbers B2k / 2k for k = 1..10. */
  static const long double b[] = {
      1.0L / 12,        -1.0L / 120,      1.0L / 252, -1.0L / 240,
      1.0L / 132,       -691.0L / 32760,  1.0L / 12,  -3617.0L / 8160,
      43867.0L / 14364, -174611.0L / 6600};
  long double z = 1 / (x * x), zk = z, s = 0;
  for (int k = 0; k < 10; k++, zk *= z)
    s += b[k] * zk;
  return logl(x) - 0.5L / x - s + acc - refl;
}

static __attribute__((unused)) long double ref_trigamma(long double x) {
  long double refl = 0, sign = 1;
  if (x < 0.5L) {
    long double sn = sinl(PIL * (x - rintl(x)));
    refl = PIL * PIL / (sn * sn);
    sign = -1;
    x = 1 - x;
  }
  long double acc = 0;
  while (x < 40) {
    acc += 1 / (x * x);
    x += 1;
  }
  /* B2k for k = 1..10. */
  static const long double b[] = {
      1.0L / 6,       -1.0L / 30,      1.0L / 42, -1.0L / 30,
      5.0L / 66,      -691.0L / 2730,  7.0L / 6,  -3617.0L / 510,
      43867.0L / 798, -174611.0L / 330};
  long double ix = 1 / x, z = ix * ix, zk = z * ix, s = 0;
  for (int k = 0; k < 10; k++, zk *= z)
    s += b[k] * zk;
  return refl + sign * (ix + 0.5L * z + s + acc);
}

#endif
