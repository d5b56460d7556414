/* Helpers for the array-parameter tests (tests/arrays).
 *
 * Strided per-example arrays with guard pages: lay_make() maps one buffer
 * for a varying array parameter (example b at p + b * stride elements, its
 * own extent ext[b]) such that
 *   - the element right after the data of the example that ends last is
 *     the first byte of a PROT_NONE page, and
 *   - with LAY_EACH, the element right after EVERY example's data
 *     (p[b * stride + ext[b]]) is the first byte of a PROT_NONE page,
 * so reading or writing one element past any example's extent faults.
 * Everything mapped and not data holds a sentinel byte pattern; after a
 * call, lay_cmp() compares every accessible element with a reference copy
 * (the same layout, run through the scalar function), so an element past
 * an example's extent that changed is caught even where no guard page is.
 *
 * Per-example guards need every example's end at a page boundary: with
 * P elements per page, stride S = m * P - d and a start offset `off`
 * (elements), example b ends at a page boundary iff
 *     ext[b] = (b * d - off) mod P + k_b * P.
 * lay_ragged_ext() picks such extents (random k_b in [0, kmax]); d = 1,
 * off = P - c gives ext[b] = b + c: small, different in every lane.
 */
#ifndef BATCHDIFF_ARRAYS_UTIL_H
#define BATCHDIFF_ARRAYS_UTIL_H

#include "../exec/exec_util.h"

/* The batch sizes of the brief: tails and full chunks for both widths. */
static const size_t arr_ns[] = {0, 1, 3, 4, 5, 8, 9, 17, 100};
#define N_ARR_NS (sizeof arr_ns / sizeof arr_ns[0])

typedef struct {
  gp_pages m; /* the mapping, guard pages included (guard_pages.h) */
  char *ref;  /* malloc'd copy for the reference run (same offsets) */
  void *p;    /* example 0's first element */
  void *rp;   /* the same in ref */
  ptrdiff_t stride;
  size_t esz;
  size_t off; /* elements from m.map to p */
} lay_t;

enum { LAY_END = 0, LAY_EACH = 1 };
#define LAY_SENT 0xA5

static size_t lay_P(size_t esz) { return gp_page() / esz; }

/* Extents for per-example guards with stride m * P - d and offset off. */
static void lay_ragged_ext(size_t esz, size_t nb, size_t d, size_t off,
                           int kmax, rng_t *r, int *ext) {
  size_t P = lay_P(esz);
  for (size_t b = 0; b < nb; b++) {
    size_t res = ((b * d) % P + P - off % P) % P;
    ext[b] = (int)(res + (size_t)rng_below(r, kmax + 1) * P);
  }
}

/* Maps a buffer for nb examples of stride S elements (S may be 0) and
 * extents ext[]; with LAY_EACH every example's end must be page aligned
 * (off chosen by the caller), with LAY_END off is chosen here so that the
 * last byte of data ends at the final guard page. Elements are LAY_SENT
 * bytes; the caller fills the data and then calls lay_seal() (inputs) and
 * lay_snapshot(). */
static void lay_make(lay_t *L, size_t esz, size_t nb, ptrdiff_t S,
                     const int *ext, size_t off, int mode) {
  size_t pg = gp_page(), P = pg / esz;
  size_t rel_end = 0;
  for (size_t b = 0; b < nb; b++) {
    size_t e = (size_t)((ptrdiff_t)b * S) + (size_t)ext[b];
    if (e > rel_end)
      rel_end = e;
  }
  if (mode == LAY_END)
    off = (P - rel_end % P) % P;
  size_t data_pages = (off + rel_end + P - 1) / P;
  if (data_pages == 0)
    data_pages = 1;
  if ((off + rel_end) % P != 0 && mode == LAY_EACH)
    data_pages++; /* not reached: each end is aligned */
  size_t npages = data_pages + 1;
  memset(L, 0, sizeof *L);
  L->esz = esz;
  L->off = off;
  L->stride = S;
  /* Which pages are guards, decided before any is protected. */
  unsigned char *guard = calloc(npages, 1);
  /* The final guard: right after the data that ends last. */
  size_t last = (off + rel_end + P - 1) / P;
  if (last == 0 && nb == 0)
    last = 1;
  assert_true((off + rel_end) % P == 0 || nb == 0 || mode == LAY_END);
  guard[last] = 1;
  if (mode == LAY_EACH)
    for (size_t b = 0; b < nb; b++) {
      size_t end = off + (size_t)((ptrdiff_t)b * S) + (size_t)ext[b];
      assert_true(end % P == 0);
      guard[end / P] = 1;
    }
  /* No example's data may sit in a guard page. */
  for (size_t b = 0; b < nb; b++) {
    size_t s = off + (size_t)((ptrdiff_t)b * S);
    for (size_t e = s; e < s + (size_t)ext[b]; e += P)
      assert_false(guard[e / P]);
    if (ext[b])
      assert_false(guard[(s + (size_t)ext[b] - 1) / P]);
  }
  gp_pages_map(&L->m, npages, LAY_SENT);
  for (size_t g = 0; g < npages; g++)
    if (guard[g])
      gp_pages_guard(&L->m, g);
  free(guard);
  L->ref = malloc(L->m.len);
  L->p = L->m.map + off * esz;
  L->rp = L->ref + off * esz;
}

/* Example b's element i (in the mapping / in the reference copy). */
#define LAY_AT(L, T, b, i)                                                     \
  (((T *)(L)->p)[(ptrdiff_t)(b) * (L)->stride + (ptrdiff_t)(i)])
#define LAY_REF(L, b) ((void *)((char *)(L)->rp + (ptrdiff_t)(b) * (L)->stride * (ptrdiff_t)(L)->esz))

/* Copies the mapping to the reference buffer (guard pages stay sentinel). */
static void lay_snapshot(lay_t *L) {
  size_t pg = gp_page();
  for (size_t g = 0; g * pg < L->m.len; g++)
    if (L->m.guard[g])
      memset(L->ref + g * pg, LAY_SENT, pg);
    else
      memcpy(L->ref + g * pg, L->m.map + g * pg, pg);
}

/* Read-only, except the guard pages that stay PROT_NONE. */
static void lay_seal(lay_t *L) { gp_pages_seal(&L->m); }

static void lay_free(lay_t *L) {
  gp_pages_unmap(&L->m);
  free(L->ref);
  L->ref = NULL;
}

/* Element kinds for comparisons. */
enum { K_F = 'f', K_D = 'd', K_I = 'i' };

/* Bits equal, or both NaN (arithmetic NaNs' sign/payload are not fixed). */
static int el_same(const void *a, const void *b, int kind) {
  size_t sz = kind == K_D ? 8 : 4;
  return same_bits_or_nan(a, b, sz, kind != K_I);
}

/* Compares every accessible element of the mapping with the reference;
 * returns the first differing element index (from map) or -1. */
static long lay_cmp(const lay_t *L, int kind) {
  size_t pg = gp_page();
  for (size_t g = 0; g * pg < L->m.len; g++) {
    if (L->m.guard[g])
      continue;
    for (size_t o = g * pg; o < (g + 1) * pg; o += L->esz)
      if (!el_same(L->m.map + o, L->ref + o, kind))
        return (long)(o / L->esz);
  }
  return -1;
}

#endif /* BATCHDIFF_ARRAYS_UTIL_H */
