/* && with a side effect on its right: it may only run where the left
   side holds, lane by lane. */
#include <batchdiff.h>
// DEFINES: clipped clipped_batched clipped_grad

BATCHDIFF float clipped(float x, float lim) {
  float n = 0.0f;
  if (x > 0.0f && (n = x * x) < lim)
    return n;
  return x + n;
}
