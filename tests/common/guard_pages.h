/* Shared by the execution tests (tests/exec, tests/loops, tests/arrays) and
 * the fuzzer's harness (tests/fuzz/fuzz_harness.h).
 *
 * Guard pages: gp_alloc(bytes) returns `bytes` usable bytes that end exactly
 * at a PROT_NONE page, so reading or writing one element past the end
 * faults; gp_seal(p) makes a filled input read-only (generated code must
 * not write it); gp_reset() frees every block (at most GP_MAX_BLOCKS at a
 * time). gp_map(bytes) / gp_unmap(p, bytes) are the same memory with the
 * caller's lifetime (no table: the fuzz harness allocates and frees per
 * call, far more than GP_MAX_BLOCKS over a run). gp_pages: one mapping of
 * whole pages with guards inside it, after each example's data (layouts of
 * tests/arrays, tests/structs).
 * RNG: rng_t, a xorshift64* generator, and uniform draws from it.
 * Needs <sys/mman.h>, <unistd.h>, <stdio.h>, <stdlib.h>, <stdint.h>,
 * <string.h>. */
#ifndef BATCHDIFF_TESTS_COMMON_GUARD_PAGES_H
#define BATCHDIFF_TESTS_COMMON_GUARD_PAGES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#ifndef MAP_ANONYMOUS
/* hidden by -std=c11 when no _DEFAULT_SOURCE came before the first include
 * of <sys/mman.h>; Linux's value */
#define MAP_ANONYMOUS 0x20
#endif

#define GP_MAX_BLOCKS 4096

typedef struct {
  void *base;
  size_t len;
  void *user;
  size_t bytes;
} gp_block;

static gp_block gp_blocks[GP_MAX_BLOCKS];
static int gp_nblocks;

static inline size_t gp_page(void) { return (size_t)sysconf(_SC_PAGESIZE); }

/* The mapping of `bytes` usable bytes and its guard page: its length. */
static inline size_t gp_map_len(size_t bytes) {
  size_t pg = gp_page();
  size_t data = (bytes + pg - 1) / pg * pg;
  return (data == 0 ? pg : data) + pg;
}

/* bytes usable (zero-filled), ending exactly at a PROT_NONE page; freed by
 * gp_unmap(p, bytes) with the same bytes. */
static inline void *gp_map(size_t bytes) {
  size_t pg = gp_page(), len = gp_map_len(bytes);
  char *base = mmap(NULL, len, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) {
    perror("mmap");
    abort();
  }
  if (mprotect(base + len - pg, pg, PROT_NONE) != 0) {
    perror("mprotect");
    abort();
  }
  return base + len - pg - bytes;
}

static inline void gp_unmap(void *user, size_t bytes) {
  if (!user)
    return;
  size_t pg = gp_page(), len = gp_map_len(bytes);
  munmap((char *)user + bytes + pg - len, len);
}

/* gp_map's memory, freed by gp_reset(). */
static inline void *gp_alloc(size_t bytes) {
  if (gp_nblocks >= GP_MAX_BLOCKS)
    abort();
  void *user = gp_map(bytes);
  size_t len = gp_map_len(bytes);
  char *base = (char *)user + bytes + gp_page() - len;
  gp_blocks[gp_nblocks++] = (gp_block){base, len, user, bytes};
  return user;
}

/* Make an input buffer read-only (the generated code must not write it). */
static inline void gp_seal(const void *user) {
  for (int i = 0; i < gp_nblocks; i++)
    if (gp_blocks[i].user == user) {
      size_t pg = gp_page();
      size_t data = gp_blocks[i].len - pg;
      if (mprotect(gp_blocks[i].base, data, PROT_READ) != 0) {
        perror("mprotect");
        abort();
      }
    }
}

static inline void gp_reset(void) {
  for (int i = 0; i < gp_nblocks; i++)
    munmap(gp_blocks[i].base, gp_blocks[i].len);
  gp_nblocks = 0;
}

/* Whether `end` (one past a table laid out in assembly) is a page boundary
 * and the start of `next` (the guard page after the table). The addresses
 * pass through an empty asm: compared in C, the addresses of two distinct
 * objects may be folded to "different" by the compiler. */
static inline int gp_ends_at(const void *end, const void *next) {
  uintptr_t e = (uintptr_t)end, n = (uintptr_t)next;
  __asm__("" : "+r"(e), "+r"(n));
  return e % 4096 == 0 && e == n;
}

/* ---- guards inside one mapping ----------------------------------------- */

/* npages pages, every byte `fill`, in which a layout makes chosen pages
 * PROT_NONE (gp_pages_guard): right after each example's data, so that a
 * lane reading or writing one element past its own extent faults, not
 * only past the last one. Everything else stays accessible, to compare
 * with a reference run. */
typedef struct {
  char *map;            /* page aligned */
  size_t len;           /* bytes: whole pages */
  unsigned char *guard; /* per page: 1 = PROT_NONE */
} gp_pages;

static inline void gp_pages_map(gp_pages *m, size_t npages,
                                unsigned char fill) {
  m->len = npages * gp_page();
  m->map = mmap(NULL, m->len, PROT_READ | PROT_WRITE,
                MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  m->guard = calloc(npages ? npages : 1, 1);
  if (m->map == MAP_FAILED || !m->guard) {
    perror("gp_pages_map");
    abort();
  }
  memset(m->map, fill, m->len);
}

/* Makes page g PROT_NONE. */
static inline void gp_pages_guard(gp_pages *m, size_t g) {
  size_t pg = gp_page();
  if (mprotect(m->map + g * pg, pg, PROT_NONE) != 0) {
    perror("mprotect");
    abort();
  }
  m->guard[g] = 1;
}

/* Whether byte `at` of the mapping is in a guard page. */
static inline int gp_pages_guarded(const gp_pages *m, size_t at) {
  return m->guard[at / gp_page()];
}

/* Read-only but the guards (an input the generated code must not write). */
static inline void gp_pages_seal(gp_pages *m) {
  size_t pg = gp_page();
  for (size_t g = 0; g * pg < m->len; g++)
    if (!m->guard[g] && mprotect(m->map + g * pg, pg, PROT_READ) != 0) {
      perror("mprotect");
      abort();
    }
}

static inline void gp_pages_unmap(gp_pages *m) {
  if (m->map)
    munmap(m->map, m->len);
  free(m->guard);
  m->map = NULL;
  m->guard = NULL;
}

/* ---- RNG and value generators ----------------------------------------- */

typedef struct {
  uint64_t s;
} rng_t;

static inline uint64_t rng_u64(rng_t *r) {
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 0x2545F4914F6CDD1DULL;
}
static inline double rng_unit(rng_t *r) { /* [0,1) */
  return (double)(rng_u64(r) >> 11) * 0x1p-53;
}
static inline double rng_range(rng_t *r, double lo, double hi) {
  return lo + (hi - lo) * rng_unit(r);
}
static inline int rng_below(rng_t *r, int k) {
  return (int)(rng_u64(r) % (uint64_t)k);
}

#endif
