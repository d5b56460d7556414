/* A call to a static inline helper, inlined into the generated code. */
#include <batchdiff.h>
// DEFINES: gate gate_batched gate_grad
#include <math.h>

static inline float sigmoid(float z) { return 1.0f / (1.0f + expf(-z)); }

BATCHDIFF float gate(float x, float h) {
  return sigmoid(x) * tanhf(h);
}
