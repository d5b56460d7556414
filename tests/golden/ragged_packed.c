/* BD_PACKED parameters (docs/abi.md, "Ragged batches without padding"):
 * lanes take the examples of a chunk sorted by length (bd_sort_by_length),
 * per-example scalars go through the list __bd_e, and each varying array
 * gets lane offsets from the wrapper. BD_POINTERS: ragged_pointers.c. */
#include <batchdiff.h>

BATCHDIFF double rsum(BD_PACKED const double *x, int n, BD_UNIFORM double w) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s = w * s + x[i];
  return s;
}
// DEFINES: rsum rsum_batched rsum_grad
// Each chunk is sorted by the extent n:
// CHECK: bd_sort_by_length(__bd_cnt, __bd_ord + BD_CHUNK, __bd_ord, __bd_ord + 2 * BD_CHUNK);
// Example b's array at x + x_off[b]:
// CHECK: __bd_a0 + __bd_ao0[__bd_e[__bd_j]]
