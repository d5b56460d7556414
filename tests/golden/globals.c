/* File-scope data: a global scalar read once per call, a constant table
 * read by name (so LLVM folds it as in the scalar function) and gathered at
 * a per-example index, a global every example writes (left as example
 * n - 1 leaves it). */
#include <batchdiff.h>
// DEFINES: lookup lookup_batched

static const float TAB[4] = {0.5f, 1.5f, -2.0f, 4.0f};
float GAIN = 2.0f;
int LASTK;

BD_BATCH float lookup(float x, int k) {
  LASTK = k & 3;
  return TAB[LASTK] * x + GAIN;
}
// The chunk function reads TAB by name (the wrapper reads GAIN, below):
// CHECK: const float *__bd_a2 = (const float *)TAB;
// The chunk holding example n - 1 leaves its LASTK:
// CHECK: if (__bd_i + __bd_k == __bd_nall) {
// CHECK: LASTK = __bd_gb[__bd_k - 1];
// The wrapper reads GAIN once per call:
// CHECK: __bd_ret, GAIN, __bd_n};
