/* Order of a ragged batch: examples sorted by length, so that the W lanes
 * of a vector hold examples of about the same length and loops run few
 * masked trips. Plain C.
 * Usage (users):   bd_sort_by_length(n, len, order, scratch);
 *                  -- then example order[j] is the j-th to process.
 * Usage (generated code): each chunk of BD_CHUNK examples of a function
 * with a BD_PACKED / BD_POINTERS parameter (docs/abi.md). */
#ifndef BATCHDIFF_ORDER_H
#define BATCHDIFF_ORDER_H
#include <batchdiff/macro_shield.h> /* hides the user's macros until its end */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Fills order[0..n-1] with 0..n-1 sorted by decreasing len[order[j]];
 * ties keep increasing index (stable), so the result is unique.
 * scratch: n entries of working memory (no allocation). O(n log n). */
__attribute__((__visibility__("default"))) void
bd_sort_by_length(size_t n, const size_t *len, size_t *order, size_t *scratch);

#ifdef __cplusplus
}
#endif

#include <batchdiff/macro_shield.h>
#endif
