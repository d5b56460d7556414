/* bd_sort_by_length: indices by decreasing length, stable
 * (runtime/include/batchdiff/order.h). An LSD radix sort over the bytes of
 * the lengths, each pass stable with the byte's buckets in decreasing
 * order. Bytes on which all lengths agree are skipped, so lengths below
 * 256 take one pass: a comparison sort's unpredictable branches cost more
 * than a short ragged loop (bench_chains' rnn_ragged, 1..16 steps). */
#include "batchdiff/order.h"

#include <string.h>

void bd_sort_by_length(size_t n, const size_t *len, size_t *order,
                       size_t *scratch) {
  size_t any = 0, all = ~(size_t)0;
  for (size_t i = 0; i < n; i++) {
    order[i] = i;
    any |= len[i];
    all &= len[i];
  }
  size_t vary = any ^ all, *src = order, *dst = scratch;
  for (unsigned sh = 0; sh < 8 * sizeof(size_t); sh += 8) {
    if (!((vary >> sh) & 255))
      continue;
    size_t at[256] = {0};
    for (size_t i = 0; i < n; i++)
      at[255 - ((len[src[i]] >> sh) & 255)]++;
    size_t sum = 0;
    for (unsigned b = 0; b < 256; b++) {
      size_t c = at[b];
      at[b] = sum;
      sum += c;
    }
    for (size_t i = 0; i < n; i++)
      dst[at[255 - ((len[src[i]] >> sh) & 255)]++] = src[i];
    size_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != order)
    memcpy(order, src, n * sizeof *order);
}
