/* Ragged records with a guard after every example, for the BD_PACKED /
 * BD_POINTERS tests of arrays of records (test_struct_packed.c,
 * test_struct_packed_hvp.c). Include after ../exec/exec_util.h. */
#ifndef BATCHDIFF_TEST_PACKED_RECORDS_H
#define BATCHDIFF_TEST_PACKED_RECORDS_H

#define SENT 0xA5
/* n examples of len[b] records of sz bytes in one mapping, each example's
 * last record right before three PROT_NONE pages (three pages: a multiple
 * of every record size here, so the offsets are whole records). */
typedef struct {
  gp_pages m; /* guard_pages.h */
  size_t sz;
  size_t *off;
  void **ptr;
} rk_t;

static void rk_make(rk_t *r, size_t n, const int *len, size_t sz) {
  size_t G = 3 * gp_page(), groups = 0;
  assert_true(G % sz == 0);
  for (size_t b = 0; b < n; b++)
    groups += ((size_t)len[b] * sz + G - 1) / G + (len[b] == 0) + 1;
  if (groups == 0)
    groups = 1;
  r->sz = sz;
  gp_pages_map(&r->m, groups * 3, SENT);
  r->off = malloc((n + 1) * sizeof(size_t));
  r->ptr = malloc((n + 1) * sizeof(void *));
  size_t gi = 0;
  for (size_t b = 0; b < n; b++) {
    gi += ((size_t)len[b] * sz + G - 1) / G + (len[b] == 0);
    r->off[b] = (gi * G - (size_t)len[b] * sz) / sz;
    r->ptr[b] = r->m.map + r->off[b] * sz;
    for (size_t g = 0; g < 3; g++)
      gp_pages_guard(&r->m, gi * 3 + g);
    gi++;
  }
}
static void rk_free(rk_t *r) {
  gp_pages_unmap(&r->m);
  free(r->off);
  free(r->ptr);
}
static void *rk_at(const rk_t *r, size_t b) {
  return r->m.map + r->off[b] * r->sz;
}
/* Every byte of the mapping but bytes [lo, hi) of each record of every
 * example is a sentinel (guard pages are skipped: never accessible). */
static void rk_check(const rk_t *r, size_t n, const int *len, size_t lo,
                     size_t hi, const char *what) {
  unsigned char *w = calloc(r->m.len, 1);
  for (size_t b = 0; b < n; b++)
    for (size_t i = 0; i < (size_t)len[b]; i++)
      memset(w + (r->off[b] + i) * r->sz + lo, 1, hi - lo);
  for (size_t at = 0; at < r->m.len; at++)
    if (!w[at] && !gp_pages_guarded(&r->m, at) &&
        (unsigned char)r->m.map[at] != SENT) {
      print_error("%s: byte %zu outside the written members changed\n", what,
                  at);
      free(w);
      fail();
    }
  free(w);
}

#endif
