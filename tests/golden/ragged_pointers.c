/* BD_POINTERS parameters (docs/abi.md, "Ragged batches without padding"):
 * as ragged_packed.c, with example b's array at x[b]. */
#include <batchdiff.h>

BATCHDIFF void rsq(BD_POINTERS const double *x, BD_POINTERS double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
}
// DEFINES: rsq rsq_batched rsq_grad
// Each chunk is sorted by the extent n:
// CHECK: bd_sort_by_length(__bd_cnt, __bd_ord + BD_CHUNK, __bd_ord, __bd_ord + 2 * BD_CHUNK);
// Example b's array at x[b]:
// CHECK: __bd_a0[__bd_e[__bd_j]]
