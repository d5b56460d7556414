/* Shared by the execution tests (tests/exec, tests/loops, tests/arrays) and
 * the fuzzer's harness (tests/fuzz/fuzz_harness.h).
 *
 * Guard pages: gp_alloc(bytes) returns `bytes` usable bytes that end exactly
 * at a PROT_NONE page, so reading or writing one element past the end
 * faults; gp_seal(p) makes a filled input read-only (generated code must
 * not write it); gp_reset() frees every block (at most GP_MAX_BLOCKS at a
 * time). gp_map(bytes) / gp_unmap(p, bytes) are the same memory with the
 * caller's lifetime (no table: the fuzz harness allocates and frees per
 * call, far more than GP_MAX_BLOCKS over a run).
 * RNG: rng_t, a xorshift64* generator, and uniform draws from it.
 * Needs <sys/mman.h>, <unistd.h>, <stdio.h>, <stdlib.h>, <stdint.h>. */
#ifndef BATCHDIFF_TESTS_COMMON_GUARD_PAGES_H
#define BATCHDIFF_TESTS_COMMON_GUARD_PAGES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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

static size_t gp_page(void) { return (size_t)sysconf(_SC_PAGESIZE); }

/* The mapping of `bytes` usable bytes and its guard page: its length. */
static size_t gp_map_len(size_t bytes) {
  size_t pg = gp_page();
  size_t data = (bytes + pg - 1) / pg * pg;
  return (data == 0 ? pg : data) + pg;
}

/* bytes usable (zero-filled), ending exactly at a PROT_NONE page; freed by
 * gp_unmap(p, bytes) with the same bytes. */
static void *gp_map(size_t bytes) {
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

static void gp_unmap(void *user, size_t bytes) {
  if (!user)
    return;
  size_t pg = gp_page(), len = gp_map_len(bytes);
  munmap((char *)user + bytes + pg - len, len);
}

/* gp_map's memory, freed by gp_reset(). */
static void *gp_alloc(size_t bytes) {
  if (gp_nblocks >= GP_MAX_BLOCKS)
    abort();
  void *user = gp_map(bytes);
  size_t len = gp_map_len(bytes);
  char *base = (char *)user + bytes + gp_page() - len;
  gp_blocks[gp_nblocks++] = (gp_block){base, len, user, bytes};
  return user;
}

/* Make an input buffer read-only (the generated code must not write it). */
static void gp_seal(const void *user) {
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

static void gp_reset(void) {
  for (int i = 0; i < gp_nblocks; i++)
    munmap(gp_blocks[i].base, gp_blocks[i].len);
  gp_nblocks = 0;
}

/* ---- RNG and value generators ----------------------------------------- */

typedef struct {
  uint64_t s;
} rng_t;

static uint64_t rng_u64(rng_t *r) {
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 0x2545F4914F6CDD1DULL;
}
static double rng_unit(rng_t *r) { /* [0,1) */
  return (double)(rng_u64(r) >> 11) * 0x1p-53;
}
static double rng_range(rng_t *r, double lo, double hi) {
  return lo + (hi - lo) * rng_unit(r);
}
static int rng_below(rng_t *r, int k) {
  return (int)(rng_u64(r) % (uint64_t)k);
}

#endif
