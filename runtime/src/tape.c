/* Per-thread arena for gradient tapes. A thread's arena also owns one child
 * arena per pool worker that runs chunks of that thread's parallel calls
 * (arena_internal.h): their blocks come from the thread's hooks. */
#include "batchdiff/tape.h"
#include "arena_internal.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  BD_ARENA_ALIGN = 64,
  BD_ARENA_MIN_BLOCK = 64 * 1024,
  BD_MAX_BLOCKS = 48
};

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
  size_t nblocks;       /* blocks allocated (kept for reuse) */
  size_t cur;           /* block being filled */
  size_t used;          /* bytes used in blocks[cur] */
  bd_alloc_hooks hooks; /* of a thread's own arena; children use top's */
  bd_hint hints[BD_HINTS];
  bd_arena *top;       /* the thread's own arena (itself if it is one) */
  bd_fail_trap *trap;  /* set while chunks of a parallel call run */
  bd_arena **children; /* top only: children[i] for pool worker i + 1 */
  size_t nchildren;
  pthread_mutex_t lock; /* top only: serializes hook calls of the family */
  bd_tune_clock clock;  /* top only: the pool tuner's clock (parallel.c) */
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

/* The arena a pool worker uses while it runs chunks of another thread's
 * call (NULL otherwise). */
static _Thread_local bd_arena *bd_current;

static void bd_free_blocks(bd_arena *a) {
  for (size_t i = 0; i < a->nblocks; i++)
    a->blocks[i].free(a->blocks[i].raw, a->blocks[i].free_ctx);
}
static void bd_arena_destroy(void *p) {
  bd_arena *a = p;
  for (size_t i = 0; i < a->nchildren; i++) {
    bd_free_blocks(a->children[i]);
    free(a->children[i]);
  }
  free(a->children);
  bd_free_blocks(a);
  pthread_mutex_destroy(&a->lock);
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
    a->top = a;
    pthread_mutex_init(&a->lock, NULL);
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

bd_arena *bd_arena_get(void) {
  return bd_current ? bd_current : bd_arena_of_thread(1);
}

bd_arena *bd__arena_own(void) { return bd_arena_of_thread(1); }

int bd__arena_reserve_children(bd_arena *top, size_t count) {
  if (count <= top->nchildren)
    return 1;
  bd_arena **c = realloc(top->children, count * sizeof *c);
  if (!c)
    return 0;
  top->children = c;
  while (top->nchildren < count) {
    bd_arena *a = calloc(1, sizeof *a);
    if (!a)
      return 0;
    a->top = top;
    c[top->nchildren++] = a;
  }
  return 1;
}

bd_arena *bd__arena_child(bd_arena *top, size_t i) {
  return i == 0 ? top : top->children[i - 1];
}

void bd__arena_enter(bd_arena *a, bd_fail_trap *trap) {
  a->trap = trap;
  if (a != a->top)
    bd_current = a;
}

void bd__arena_leave(bd_arena *a) {
  a->trap = NULL;
  bd_current = NULL;
}

bd_tune_clock *bd__arena_clock(bd_arena *top) { return &top->clock; }

_Noreturn void bd__arena_fail(bd_arena *top, const char *msg) {
  top->hooks.fail(msg, top->hooks.ctx);
  abort(); /* the hook must not return */
}

/* Reports msg: to the trap of a running parallel call (which reports it on
 * the calling thread once every worker stopped), else to the fail hook. */
static _Noreturn void bd_fail(bd_arena *a, const char *msg) {
  if (a->trap) {
    snprintf(a->trap->msg, sizeof a->trap->msg, "%s", msg);
    longjmp(a->trap->jb, 1);
  }
  bd__arena_fail(a->top, msg);
  abort();
}

void bd_arena_fail(bd_arena *a, const char *msg) { bd_fail(a, msg); }

/* Hook calls of a thread's arena and its children run one at a time. */
static void *bd_hook_alloc(bd_arena *a, size_t bytes, bd_block *b) {
  bd_arena *t = a->top;
  pthread_mutex_lock(&t->lock);
  void *raw = t->hooks.alloc(bytes, t->hooks.ctx);
  b->free = t->hooks.free;
  b->free_ctx = t->hooks.ctx;
  pthread_mutex_unlock(&t->lock);
  return raw;
}
static void bd_hook_free(bd_arena *a, bd_block *b) {
  pthread_mutex_lock(&a->top->lock);
  b->free(b->raw, b->free_ctx);
  pthread_mutex_unlock(&a->top->lock);
}

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
        bd_hook_free(a, &a->blocks[i]);
      a->nblocks = a->cur + 1;
    }
    if (a->nblocks == BD_MAX_BLOCKS)
      bd_fail(a, "tape arena: too many blocks");
    size_t last = a->nblocks ? a->blocks[a->nblocks - 1].size : 0;
    size_t size = last * 2 > BD_ARENA_MIN_BLOCK ? last * 2 : BD_ARENA_MIN_BLOCK;
    if (size < bytes)
      size = bytes;
    if (size > SIZE_MAX - BD_ARENA_ALIGN)
      bd_fail(a, "tape arena: allocation size overflows");
    bd_block *b = &a->blocks[a->nblocks];
    void *raw = bd_hook_alloc(a, size + BD_ARENA_ALIGN, b);
    if (!raw)
      bd_fail(a, "tape arena: out of memory (a loop ran too many "
                 "iterations to record its gradient tape)");
    uintptr_t u = ((uintptr_t)raw + BD_ARENA_ALIGN - 1) &
                  ~(uintptr_t)(BD_ARENA_ALIGN - 1);
    b->raw = raw;
    b->base = (char *)u;
    b->size = size;
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
  size_t rowbytes = t->row * t->slot;
  if (rowbytes && cap > SIZE_MAX / rowbytes)
    bd_fail(a, "tape arena: tape size overflows");
  /* A tape that is the arena's last allocation gives its space back
   * first: it grows in place while its block has room, and otherwise
   * leaves no copy behind in the block it grew out of. Copies in earlier
   * blocks stay until the call returns: about 2 x cap x rowbytes in all
   * for a tape grown from empty (4 x before), docs/loops.md. */
  size_t old = t->cap * rowbytes;
  size_t held = (old + BD_ARENA_ALIGN - 1) & ~(size_t)(BD_ARENA_ALIGN - 1);
  if (t->data && a->cur < a->nblocks && a->used >= held &&
      t->data == a->blocks[a->cur].base + (a->used - held))
    a->used -= held;
  char *data = bd_arena_alloc(a, cap * rowbytes);
  if (t->data && old && data != t->data)
    memcpy(data, t->data, old);
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
