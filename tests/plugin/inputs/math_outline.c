/* Costly math in every shape (double two-chain loop, float, library and
 * inline bodies, one and two arguments): compiled with and without
 * -fplugin-arg-batchdiff-math=outline by options.test.sh, which compares
 * the results bit for bit. MO(name) renames the functions per build. */
#include <batchdiff.h>
#include <math.h>

BATCHDIFF double MO(md)(double x, double y, BD_UNIFORM double w, int k) {
  double t = w * x + y;
  if (t > 1.0)
    t = log1p(t) * y;
  else
    t = exp(-t * t) + x;
  for (int j = 0; j < k; j++)
    t = t * 0.5 + tanh(t) + sin(y * j);
  return tanh(t) * w + erfc(x) + atan2(x, y) + cos(x) + log(fabs(y) + 0.5) +
         expm1(y) + cbrt(x) + lgamma(fabs(y) + 0.5);
}

BATCHDIFF float MO(mf)(float x, float y) {
  return expf(x) * log1pf(fabsf(y)) + tanhf(x * y) + sinf(x) +
         powf(fabsf(x) + 1.0f, y) + erfcf(y);
}
