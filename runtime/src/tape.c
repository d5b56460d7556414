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

enum { BD_HINTS = 64 };

/* Rows a tape needed in an earlier call on this thread, by tape identity. */
typedef struct bd_hint {
  const void *key;
  size_t rows;
} bd_hint;

struct bd_arena {
  bd_block blocks[BD_MAX_BLOCKS];
  size_t nblocks; /* blocks allocated (kept for reuse) */
  size_t cur;     /* block being filled */
  size_t used;    /* bytes used in blocks[cur] */
  bd_alloc_hooks hooks;
  bd_hint hints[BD_HINTS];
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
    /* Move to the next kept block big enough, else drop the kept blocks
     * after the current one (all too small) and allocate a bigger one. */
    size_t next = a->cur + 1;
    while (next < a->nblocks && a->blocks[next].size < bytes)
      next++; /* smaller kept blocks are skipped for now, not freed */
    if (next < a->nblocks) {
      a->cur = next;
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
  if (!t->cap && rows > 64)
    cap = rows; /* sized from an earlier call's need: no doubling slack */
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

static bd_hint *bd_hint_slot(bd_arena *a, const void *key, int insert) {
  size_t h = ((uintptr_t)key >> 4) * 0x9E3779B97F4A7C15ull;
  for (size_t i = 0; i < BD_HINTS; i++) {
    bd_hint *e = &a->hints[(h + i) % BD_HINTS];
    if (e->key == key)
      return e;
    if (!e->key) {
      if (!insert)
        return NULL;
      e->key = key;
      e->rows = 0;
      return e;
    }
  }
  return NULL; /* table full: no hint, tapes just grow */
}

void bd_tape_begin(bd_arena *a, bd_tape *t, const void *key) {
  bd_hint *e = bd_hint_slot(a, key, 0);
  if (e && e->rows > t->cap)
    bd_tape_grow(a, t, e->rows);
}

void bd_tape_end(bd_arena *a, bd_tape *t, const void *key) {
  bd_hint *e = bd_hint_slot(a, key, 1);
  if (e && t->cap > e->rows)
    e->rows = t->cap;
}
