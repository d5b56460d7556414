/* The callees of test_extern_array_out.c, compiled without annotations
 * (extern_array_out.h). */
#include "extern_array_out.h"

#include <math.h>

static long step3_calls;

int ao_rem_pio2(double x, double *y) {
  static const double invpio2 = 6.36619772367581382433e-01,
                      pio2_1 = 1.57079632673412561417e+00,
                      pio2_1t = 6.07710050650619224932e-11;
  double fn = rint(x * invpio2);
  double r = x - fn * pio2_1, w = fn * pio2_1t;
  y[0] = r - w;
  y[1] = (r - y[0]) - w;
  return (int)fn;
}

void ao_step3(float x, float *v) {
  step3_calls++;
  for (int i = 0; i < 3; i++)
    v[i] = v[i] * x + (float)i;
}

double ao_dot4(const double *v) {
  return v[0] + 2.0 * v[1] + 3.0 * v[2] + 4.0 * v[3];
}

void ao_count(double x, int *c) {
  c[0] = (int)x;
  c[1] = c[0] % 7;
  c[2] += 1;
}

long ao_step3_calls(void) { return step3_calls; }
