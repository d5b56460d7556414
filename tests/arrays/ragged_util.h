/* Ragged batches in memory for the tests of BD_PACKED / BD_POINTERS
 * parameters (test_ragged.c, test_interleaved.c): n examples of len[b]
 * doubles in one mapping with guard pages, long-tailed lengths, and the
 * bit-for-bit comparisons. Include after exec_util.h. */
#ifndef BATCHDIFF_RAGGED_UTIL_H
#define BATCHDIFF_RAGGED_UTIL_H

/* ---- layouts ----------------------------------------------------------- */

#define SENT_BYTE 0xA5

/* n examples of len[b] doubles in one mapping. each: example b's last
 * element right before a PROT_NONE page (gaps between examples hold
 * sentinels); else back to back (CSR, n + 1 offsets) ending at one guard
 * page. */
typedef struct {
  gp_pages m; /* guard_pages.h */
  double *base;
  size_t *off; /* n + 1 */
  const double **ptr;
  double **wptr;
} pk_t;

static void pk_make(pk_t *p, size_t n, const int *len, int each) {
  size_t pg = gp_page(), P = pg / sizeof(double), pages = 0;
  p->off = malloc((n + 1) * sizeof(size_t));
  p->ptr = malloc((n + 1) * sizeof(double *));
  p->wptr = malloc((n + 1) * sizeof(double *));
  if (each) {
    for (size_t b = 0; b < n; b++)
      pages += ((size_t)len[b] + P - 1) / P + 1 + (len[b] == 0);
  } else {
    size_t tot = 0;
    for (size_t b = 0; b < n; b++)
      tot += (size_t)len[b];
    pages = (tot + P - 1) / P + 1;
  }
  if (pages == 0)
    pages = 1;
  gp_pages_map(&p->m, pages, SENT_BYTE);
  p->base = (double *)p->m.map;
  if (each) {
    size_t pgi = 0;
    for (size_t b = 0; b < n; b++) {
      size_t d = ((size_t)len[b] + P - 1) / P + (len[b] == 0);
      p->off[b] = (pgi + d) * P - (size_t)len[b];
      pgi += d;
      gp_pages_guard(&p->m, pgi++);
    }
    p->off[n] = pgi * P;
  } else {
    size_t tot = 0;
    for (size_t b = 0; b < n; b++)
      tot += (size_t)len[b];
    /* The data ends right before the last page, which is PROT_NONE. */
    size_t start = (pages - 1) * P - tot;
    p->off[0] = start;
    for (size_t b = 0; b < n; b++)
      p->off[b + 1] = p->off[b] + (size_t)len[b];
    gp_pages_guard(&p->m, pages - 1);
  }
  for (size_t b = 0; b < n; b++) {
    p->ptr[b] = p->base + p->off[b];
    p->wptr[b] = p->base + p->off[b];
  }
}

static void pk_free(pk_t *p) {
  gp_pages_unmap(&p->m);
  free(p->off);
  free(p->ptr);
  free(p->wptr);
}

/* Example b's element i. */
#define AT(p, b, i) ((p)->base[(p)->off[b] + (size_t)(i)])

/* Every byte of the mapping outside the examples' extents is a sentinel. */
static void pk_check_gaps(const pk_t *p, size_t n, const int *len,
                          const char *what) {
  unsigned char *in = calloc(p->m.len / sizeof(double) + 1, 1);
  for (size_t b = 0; b < n; b++)
    for (int i = 0; i < len[b]; i++)
      in[p->off[b] + (size_t)i] = 1;
  for (size_t e = 0; e < p->m.len / sizeof(double); e++) {
    if (in[e])
      continue;
    const unsigned char *c = (const unsigned char *)(p->base + e);
    if (gp_pages_guarded(&p->m, (size_t)((const char *)c - p->m.map)))
      continue;
    for (size_t k = 0; k < sizeof(double); k++)
      if (c[k] != SENT_BYTE) {
        print_error("%s: element %zu outside every extent written\n", what, e);
        free(in);
        fail();
      }
  }
  free(in);
}

/* ---- tests ------------------------------------------------------------- */

static void gen_lens(rng_t *r, size_t n, int *len, int maxlen) {
  for (size_t b = 0; b < n; b++) {
    /* long-tailed: mostly short, a few long, some empty */
    double u = rng_unit(r);
    len[b] = (int)(maxlen * u * u * u * u);
  }
}

static void fill(pk_t *p, size_t n, const int *len, rng_t *r) {
  for (size_t b = 0; b < n; b++)
    for (int i = 0; i < len[b]; i++)
      AT(p, b, i) = rng_range(r, -2.0, 2.0);
}

/* The examples of p copied into a zeroed strided array, `stride` apart (the
 * strided form of the same batch); free() it. */
static double *pk_padded(const pk_t *p, size_t n, const int *len,
                         size_t stride) {
  double *pad = calloc(n * stride + 1, sizeof(double));
  for (size_t b = 0; b < n; b++)
    for (int i = 0; i < len[b]; i++)
      pad[b * stride + (size_t)i] = AT(p, b, i);
  return pad;
}

static int same(double a, double b) { return memcmp(&a, &b, sizeof a) == 0; }

#define EXPECT_SAME(a, b, ...)                                                 \
  do {                                                                         \
    if (!same((a), (b))) {                                                     \
      print_error(__VA_ARGS__);                                                \
      print_error(": got %a want %a\n", (double)(a), (double)(b));             \
      fail();                                                                  \
    }                                                                          \
  } while (0)

/* Uniform gradients summed in another order: equal to rounding. */
#define EXPECT_CLOSE(a, b, ...)                                                \
  do {                                                                         \
    if (!close_to((a), (b), 1e-12)) {                                          \
      print_error(__VA_ARGS__);                                                \
      print_error(": got %a want %a\n", (double)(a), (double)(b));             \
      fail();                                                                  \
    }                                                                          \
  } while (0)

static const size_t ns[] = {0, 1, 3, 4, 5, 8, 9, 17, 100, 2049, 5000};
#define N_NS (sizeof ns / sizeof ns[0])

#endif
