/* Ragged layouts at guard pages for the exec and arrays tests: n examples'
 * rows in one mapping, each row's last element right before a PROT_NONE page.
 * Include after cmocka.h and guard_pages.h. */
#ifndef BD_TEST_RAGGED_LAYOUTS_H
#define BD_TEST_RAGGED_LAYOUTS_H

#include <stdlib.h>
#include <string.h>

#define SENT 0xA5

/* n examples of ext[b] elements of es bytes in one mapping, each one's last
 * element right before a PROT_NONE page (sentinel bytes before it). */
typedef struct {
  gp_pages m;
  size_t *off; /* in elements */
  void **ptr;
} lay_t;

static void lay_make(lay_t *L, size_t n, const int *ext, size_t es) {
  size_t P = gp_page() / es, pages = 0, pg = 0;
  for (size_t b = 0; b < n; b++)
    pages += ((size_t)ext[b] + P - 1) / P + (ext[b] == 0) + 1;
  gp_pages_map(&L->m, pages ? pages : 1, SENT);
  L->off = malloc((n + 1) * sizeof(size_t));
  L->ptr = malloc((n + 1) * sizeof(void *));
  for (size_t b = 0; b < n; b++) {
    size_t d = ((size_t)ext[b] + P - 1) / P + (ext[b] == 0);
    L->off[b] = (pg + d) * P - (size_t)ext[b];
    pg += d;
    gp_pages_guard(&L->m, pg++);
    L->ptr[b] = L->m.map + L->off[b] * es;
  }
}

static void lay_free(lay_t *L) {
  gp_pages_unmap(&L->m);
  free(L->off);
  free(L->ptr);
}

/* Bytes of the mapping outside every extent are still sentinels. */
static void lay_check_gaps(const lay_t *L, size_t n, const int *ext, size_t es,
                           const char *what) {
  unsigned char *in = calloc(L->m.len + 1, 1);
  for (size_t b = 0; b < n; b++)
    memset(in + L->off[b] * es, 1, (size_t)ext[b] * es);
  for (size_t at = 0; at < L->m.len; at++)
    if (!in[at] && !gp_pages_guarded(&L->m, at) &&
        (unsigned char)L->m.map[at] != SENT) {
      print_error("%s: byte %zu outside every extent written\n", what, at);
      free(in);
      fail();
    }
  free(in);
}

static int same_bits(const void *a, const void *b, size_t es) {
  return memcmp(a, b, es) == 0;
}

/* Example e of the strided batch ends right before a guard page: rows
 * 0..e copied `st` elements apart into memory ending at the guard. */
static void *strided_last(const lay_t *X, size_t e, const int *ext, size_t st,
                          size_t es) {
  size_t elems = e * st + (size_t)ext[e];
  char *p = gp_alloc(elems * es);
  memset(p, SENT, elems * es);
  for (size_t b = 0; b <= e; b++)
    memcpy(p + b * st * es, X->ptr[b], (size_t)ext[b] * es);
  return p;
}

#endif
