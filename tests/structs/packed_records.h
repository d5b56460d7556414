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
  char *map;
  size_t maplen, sz;
  size_t *off;
  void **ptr;
  unsigned char *guard; /* per group of three pages: 1 = PROT_NONE */
} rk_t;

static void rk_make(rk_t *r, size_t n, const int *len, size_t sz) {
  size_t G = 3 * gp_page(), groups = 0;
  assert_true(G % sz == 0);
  for (size_t b = 0; b < n; b++)
    groups += ((size_t)len[b] * sz + G - 1) / G + (len[b] == 0) + 1;
  if (groups == 0)
    groups = 1;
  r->sz = sz;
  r->maplen = groups * G;
  r->map = mmap(NULL, r->maplen, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  assert_true(r->map != MAP_FAILED);
  memset(r->map, SENT, r->maplen);
  r->off = malloc((n + 1) * sizeof(size_t));
  r->ptr = malloc((n + 1) * sizeof(void *));
  r->guard = calloc(groups, 1);
  size_t gi = 0;
  for (size_t b = 0; b < n; b++) {
    gi += ((size_t)len[b] * sz + G - 1) / G + (len[b] == 0);
    r->off[b] = (gi * G - (size_t)len[b] * sz) / sz;
    r->ptr[b] = r->map + r->off[b] * sz;
    assert_int_equal(mprotect(r->map + gi * G, G, PROT_NONE), 0);
    r->guard[gi++] = 1;
  }
}
static void rk_free(rk_t *r) {
  munmap(r->map, r->maplen);
  free(r->off);
  free(r->ptr);
  free(r->guard);
}
static void *rk_at(const rk_t *r, size_t b) {
  return r->map + r->off[b] * r->sz;
}
/* Every byte of the mapping but bytes [lo, hi) of each record of every
 * example is a sentinel (guard pages are skipped: never accessible). */
static void rk_check(const rk_t *r, size_t n, const int *len, size_t lo,
                     size_t hi, const char *what) {
  size_t G = 3 * gp_page();
  unsigned char *w = calloc(r->maplen, 1);
  for (size_t b = 0; b < n; b++)
    for (size_t i = 0; i < (size_t)len[b]; i++)
      memset(w + (r->off[b] + i) * r->sz + lo, 1, hi - lo);
  for (size_t at = 0; at < r->maplen; at++)
    if (!w[at] && !r->guard[at / G] && (unsigned char)r->map[at] != SENT) {
      print_error("%s: byte %zu outside the written members changed\n", what,
                  at);
      free(w);
      fail();
    }
  free(w);
}

#endif
