/* Forward-mode dual numbers for the gradient tests: a value and its
 * derivative along one direction. dual (double) and dualf (float, rounded
 * as the float function rounds); dc(x) a constant, dv(x) the variable. */
#ifndef BATCHDIFF_TESTS_COMMON_DUAL_H
#define BATCHDIFF_TESTS_COMMON_DUAL_H

#include <math.h>

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

typedef struct {
  double v, d;
} dual;

static dual dc(double v) { return (dual){v, 0.0}; }
static dual dv(double v) { return (dual){v, 1.0}; }
static dual dadd(dual a, dual b) { return (dual){a.v + b.v, a.d + b.d}; }
static dual dsub(dual a, dual b) { return (dual){a.v - b.v, a.d - b.d}; }
static dual dneg(dual a) { return (dual){-a.v, -a.d}; }
static dual dmul(dual a, dual b) {
  return (dual){a.v * b.v, a.d * b.v + a.v * b.d};
}
static dual ddiv(dual a, dual b) {
  double q = a.v / b.v;
  return (dual){q, (a.d - q * b.d) / b.v};
}
static dual dscale(dual a, double c) { return (dual){a.v * c, a.d * c}; }
static dual dexp(dual a) {
  double e = exp(a.v);
  return (dual){e, e * a.d};
}
static dual dlog(dual a) { return (dual){log(a.v), a.d / a.v}; }
static dual dlog1p(dual a) { return (dual){log1p(a.v), a.d / (1.0 + a.v)}; }
static dual dsqrt(dual a) {
  double s = sqrt(a.v);
  return (dual){s, a.d / (2.0 * s)};
}
static dual dsin(dual a) { return (dual){sin(a.v), cos(a.v) * a.d}; }
static dual dcos(dual a) { return (dual){cos(a.v), -sin(a.v) * a.d}; }
static dual dtanh(dual a) {
  double t = tanh(a.v);
  return (dual){t, (1.0 - t * t) * a.d};
}
static dual datan(dual a) { return (dual){atan(a.v), a.d / (1.0 + a.v * a.v)}; }
static dual derfc(dual a) {
  return (dual){erfc(a.v), -2.0 / sqrt(M_PI) * exp(-a.v * a.v) * a.d};
}
static dual dpow(dual a, dual b) { /* a > 0 */
  double p = pow(a.v, b.v);
  return (dual){p, p * (b.d * log(a.v) + b.v * a.d / a.v)};
}
static dual datan2(dual y, dual x) {
  double r2 = x.v * x.v + y.v * y.v;
  return (dual){atan2(y.v, x.v), (x.v * y.d - y.v * x.d) / r2};
}
static dual dhypot(dual x, dual y) {
  double h = hypot(x.v, y.v);
  return (dual){h, (x.v * x.d + y.v * y.d) / h};
}
static dual dfabs(dual a) { return a.v < 0 ? dneg(a) : a; }
static dual dfmax(dual a, dual b) { return a.v >= b.v ? a : b; }

/* Float duals: the same, rounded as the float function rounds. */
typedef struct {
  float v, d;
} dualf;
static dualf fc(float v) { return (dualf){v, 0.0f}; }
static dualf fadd(dualf a, dualf b) { return (dualf){a.v + b.v, a.d + b.d}; }
static dualf fsub(dualf a, dualf b) { return (dualf){a.v - b.v, a.d - b.d}; }
static dualf fmul(dualf a, dualf b) {
  return (dualf){a.v * b.v, a.d * b.v + a.v * b.d};
}
static dualf fdivd(dualf a, dualf b) {
  float q = a.v / b.v;
  return (dualf){q, (a.d - q * b.d) / b.v};
}
static dualf fexpd(dualf a) {
  float e = expf(a.v);
  return (dualf){e, e * a.d};
}
static dualf flogd(dualf a) { return (dualf){logf(a.v), a.d / a.v}; }
static dualf flog1pd(dualf a) {
  return (dualf){log1pf(a.v), a.d / (1.0f + a.v)};
}
static dualf fsqrtd(dualf a) {
  float s = sqrtf(a.v);
  return (dualf){s, a.d / (2.0f * s)};
}
static dualf ftanhd(dualf a) {
  float t = tanhf(a.v);
  return (dualf){t, (1.0f - t * t) * a.d};
}

#endif
