/* Shared by the execution tests (tests/exec, tests/loops, tests/arrays).
 *
 * Guard pages: gp_alloc(bytes) returns `bytes` usable bytes that end exactly
 * at a PROT_NONE page, so reading or writing one element past the end
 * faults; gp_seal(p) makes a filled input read-only (generated code must
 * not write it); gp_reset() frees every block.
 * RNG: rng_t, a xorshift64* generator, and uniform draws from it.
 * Needs <sys/mman.h>, <unistd.h>, <stdio.h>, <stdlib.h>, <stdint.h>. */
#ifndef BATCHDIFF_TESTS_COMMON_GUARD_PAGES_H
#define BATCHDIFF_TESTS_COMMON_GUARD_PAGES_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

typedef struct {
  void *base;
  size_t len;
  void *user;
  size_t bytes;
} gp_block;

static gp_block gp_blocks[4096];
static int gp_nblocks;

static size_t gp_page(void) { return (size_t)sysconf(_SC_PAGESIZE); }

/* bytes usable, ending exactly at a PROT_NONE page. */
static void *gp_alloc(size_t bytes) {
  size_t pg = gp_page();
  size_t data = (bytes + pg - 1) / pg * pg;
  if (data == 0)
    data = pg;
  size_t len = data + pg;
  char *base = mmap(NULL, len, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (base == MAP_FAILED) {
    perror("mmap");
    abort();
  }
  if (mprotect(base + data, pg, PROT_NONE) != 0) {
    perror("mprotect");
    abort();
  }
  if (gp_nblocks >= 4096)
    abort();
  void *user = base + data - bytes;
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
