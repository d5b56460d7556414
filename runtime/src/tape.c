/* Per-thread arena for gradient tapes. */
#include "batchdiff/tape.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BD_ARENA_ALIGN = 64, BD_ARENA_MIN_BLOCK = 64 * 1024, BD_MAX_BLOCKS = 48 };

typedef struct bd_block {
  char *base; /* aligned start */
  void *raw;  /* what the hook returned */
  size_t size;
  /* The free hook of the hooks that allocated this block: hooks set later
   * apply only to blocks allocated afterwards (tape.h). */
  void (*free)(void *p, void *ctx);
  void *free_ctx;
} bd_block;

struct bd_arena {
  bd_block blocks[BD_MAX_BLOCKS];
  size_t nblocks; /* blocks allocated (kept for reuse) */
  size_t cur;     /* block being filled */
  size_t used;    /* bytes used in blocks[cur] */
  bd_alloc_hooks hooks;
};

static void *bd_default_alloc(size_t bytes, void *ctx) {
  (void)ctx;
  return malloc(bytes);
}
static void bd_default_free(void *p, void *ctx) {
  (void)ctx;
  free(p);
}
static void bd_default_fail(const char *msg, void *ctx) {
  (void)ctx;
  fprintf(stderr, "batchdiff: %s\n", msg);
  abort();
}
static const bd_alloc_hooks bd_default_hooks = {
    bd_default_alloc, bd_default_free, bd_default_fail, NULL};

/* The arena is per thread so gradients are reentrant across threads without
 * locks; the key's destructor frees it when the thread exits. */
static pthread_key_t bd_key;
static pthread_once_t bd_once = PTHREAD_ONCE_INIT;

static void bd_arena_destroy(void *p) {
  bd_arena *a = p;
  for (size_t i = 0; i < a->nblocks; i++)
    a->blocks[i].free(a->blocks[i].raw, a->blocks[i].free_ctx);
  free(a);
}
static void bd_make_key(void) { pthread_key_create(&bd_key, bd_arena_destroy); }

static bd_arena *bd_arena_of_thread(int create) {
  pthread_once(&bd_once, bd_make_key);
  bd_arena *a = pthread_getspecific(bd_key);
  if (!a && create) {
    a = calloc(1, sizeof *a);
    if (!a)
      bd_default_fail("out of memory creating the tape arena", NULL);
    a->hooks = bd_default_hooks;
    pthread_setspecific(bd_key, a);
  }
  return a;
}

void bd_set_alloc_hooks(const bd_alloc_hooks *hooks) {
  bd_arena *a = bd_arena_of_thread(1);
  a->hooks = hooks ? *hooks : bd_default_hooks;
  if (!a->hooks.alloc || !a->hooks.free || !a->hooks.fail)
    a->hooks = bd_default_hooks;
}

bd_arena *bd_arena_get(void) { return bd_arena_of_thread(1); }

bd_arena_pos bd_arena_save(const bd_arena *a) {
  bd_arena_pos p = {a->cur, a->used};
  return p;
}

void bd_arena_restore(bd_arena *a, bd_arena_pos pos) {
  a->cur = pos.block;
  a->used = pos.used;
}

size_t bd_arena_capacity(const bd_arena *a) {
  size_t s = 0;
  for (size_t i = 0; i < a->nblocks; i++)
    s += a->blocks[i].size;
  return s;
}

void *bd_arena_alloc(bd_arena *a, size_t bytes) {
  bytes = (bytes + BD_ARENA_ALIGN - 1) & ~(size_t)(BD_ARENA_ALIGN - 1);
  for (;;) {
    if (a->cur < a->nblocks && a->blocks[a->cur].size - a->used >= bytes) {
      void *p = a->blocks[a->cur].base + a->used;
      a->used += bytes;
      return p;
    }
    /* Move to the next kept block if it is big enough, else drop the kept
     * blocks after the current one and allocate a bigger one. */
    if (a->cur + 1 < a->nblocks && a->blocks[a->cur + 1].size >= bytes) {
      a->cur++;
      a->used = 0;
      continue;
    }
    if (a->nblocks > 0 && a->cur + 1 < a->nblocks) {
      for (size_t i = a->cur + 1; i < a->nblocks; i++)
        a->blocks[i].free(a->blocks[i].raw, a->blocks[i].free_ctx);
      a->nblocks = a->cur + 1;
    }
    if (a->nblocks == BD_MAX_BLOCKS) {
      a->hooks.fail("tape arena: too many blocks", a->hooks.ctx);
      abort();
    }
    size_t last = a->nblocks ? a->blocks[a->nblocks - 1].size : 0;
    size_t size = last * 2 > BD_ARENA_MIN_BLOCK ? last * 2 : BD_ARENA_MIN_BLOCK;
    if (size < bytes)
      size = bytes;
    if (size > SIZE_MAX - BD_ARENA_ALIGN) {
      a->hooks.fail("tape arena: allocation size overflows", a->hooks.ctx);
      abort();
    }
    void *raw = a->hooks.alloc(size + BD_ARENA_ALIGN, a->hooks.ctx);
    if (!raw) {
      a->hooks.fail("tape arena: out of memory (a loop ran too many "
                    "iterations to record its gradient tape)",
                    a->hooks.ctx);
      abort();
    }
    uintptr_t u = ((uintptr_t)raw + BD_ARENA_ALIGN - 1) &
                  ~(uintptr_t)(BD_ARENA_ALIGN - 1);
    bd_block *b = &a->blocks[a->nblocks];
    b->raw = raw;
    b->base = (char *)u;
    b->size = size;
    b->free = a->hooks.free;
    b->free_ctx = a->hooks.ctx;
    if (a->nblocks > 0)
      a->cur++;
    a->nblocks++;
    a->used = 0;
  }
}

void bd_tape_grow(bd_arena *a, bd_tape *t, size_t rows) {
  size_t cap = t->cap ? t->cap * 2 : 64;
  while (cap < rows)
    cap *= 2;
  size_t rowbytes = t->row * (size_t)BD_TAPE_SLOT;
  if (rowbytes && cap > SIZE_MAX / rowbytes) {
    a->hooks.fail("tape arena: tape size overflows", a->hooks.ctx);
    abort();
  }
  char *data = bd_arena_alloc(a, cap * rowbytes);
  if (t->data && t->cap)
    memcpy(data, t->data, t->cap * rowbytes);
  t->data = data;
  t->cap = cap;
}
