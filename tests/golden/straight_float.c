/* Straight-line float code: arithmetic, a contracted a*b+c, a math call. */
#include <batchdiff.h>
// DEFINES: poly poly_batched poly_grad
#include <math.h>

BATCHDIFF float poly(float x, float y) {
  float t = x * y + 1.0f;
  float u = t / (y * y + 2.0f);
  return sqrtf(u * u + x) - 0.5f * t;
}
