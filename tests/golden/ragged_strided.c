/* A ragged batch in the default strided layout (docs/abi.md, "Order of the
 * examples"): example b's row at x + b * x_stride, its length n[b]. Each
 * chunk runs sorted by n, like BD_PACKED/BD_POINTERS, so the lanes take
 * the examples of __bd_ord and results go back to the caller's index. */
#include <batchdiff.h>

BATCHDIFF float rsum(const float *x, int n, BD_UNIFORM float w) {
  float h = 0.0f;
  for (int i = 0; i < n; i++)
    h = w * h + x[i];
  return h;
}
// DEFINES: rsum rsum_batched rsum_grad
// Each chunk is sorted by the extent n:
// CHECK: bd_sort_by_length(__bd_cnt, __bd_ord + BD_CHUNK, __bd_ord, __bd_ord + 2 * BD_CHUNK);
// Lane j's row is example __bd_e[j]'s, at its stride:
// CHECK: __bd_a0 + (ptrdiff_t)__bd_e[__bd_j] * __bd_as0
