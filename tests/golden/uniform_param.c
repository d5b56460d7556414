/* A uniform parameter: one weight for the whole batch, its gradient summed. */
#include <batchdiff.h>
// DEFINES: affine affine_batched affine_grad

BATCHDIFF float affine(float x, BD_UNIFORM float w, BD_UNIFORM float b) {
  return w * x + b;
}
