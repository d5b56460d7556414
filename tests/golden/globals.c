/* File-scope data: a global scalar read once per call, a table gathered at
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
// The chunk holding example n - 1 leaves its LASTK:
// CHECK: if (__bd_i + __bd_k == __bd_nall) {
// CHECK: LASTK = __bd_gb[__bd_k - 1];
// The wrapper reads TAB's address and GAIN once per call:
// CHECK: (const float *)TAB, GAIN, __bd_n};
