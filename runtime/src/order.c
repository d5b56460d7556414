/* bd_sort_by_length: a bottom-up merge sort of indices by decreasing
 * length, stable (runtime/include/batchdiff/order.h). */
#include "batchdiff/order.h"

#include <string.h>

void bd_sort_by_length(size_t n, const size_t *len, size_t *order,
                       size_t *scratch) {
  for (size_t i = 0; i < n; i++)
    order[i] = i;
  size_t *src = order, *dst = scratch;
  for (size_t w = 1; w < n; w *= 2) {
    for (size_t lo = 0; lo < n; lo += 2 * w) {
      size_t mid = lo + w < n ? lo + w : n;
      size_t hi = lo + 2 * w < n ? lo + 2 * w : n;
      size_t a = lo, b = mid, o = lo;
      /* The left run wins ties: equal lengths keep their index order. */
      while (a < mid && b < hi)
        dst[o++] = len[src[b]] > len[src[a]] ? src[b++] : src[a++];
      while (a < mid)
        dst[o++] = src[a++];
      while (b < hi)
        dst[o++] = src[b++];
    }
    size_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != order)
    memcpy(order, src, n * sizeof *order);
}
