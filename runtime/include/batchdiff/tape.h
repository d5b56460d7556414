/* Tape memory for gradients of loops.
 *
 * Usage: generated NAME_grad code takes this thread's arena with
 * bd_arena_get(), saves its position, grows one bd_tape per loop while the
 * forward sweep runs and restores the position before returning. Blocks are
 * kept, so once an arena has grown to the largest tape a thread needed, later
 * calls allocate nothing. Users normally never call these; bd_set_alloc_hooks
 * lets them route (or count, or fail) the arena's allocations. */
#ifndef BATCHDIFF_TAPE_H
#define BATCHDIFF_TAPE_H
#include <batchdiff/macro_shield.h> /* hides the user's macros until its end */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BD_TAPE_API __attribute__((__visibility__("default")))

typedef struct bd_arena bd_arena;

/* A saved arena position (for bd_arena_restore). */
typedef struct bd_arena_pos {
  size_t block;
  size_t used;
} bd_arena_pos;

/* One loop's tape: rows of `row` slots of `slot` bytes; `top` rows belong
 * to earlier executions of the loop, `cap` rows are allocated. Generated
 * code sets `slot` to its vector width, bd_tape_slot_bytes (gen_support.h),
 * so the library serves every width. */
typedef struct bd_tape {
  char *data;
  size_t cap;
  size_t top;
  size_t row;
  size_t slot;
} bd_tape;

/* Allocation hooks for the calling thread's arena. alloc returns NULL on
 * failure; fail is then called with a message and must not return (the
 * default prints it and aborts). */
typedef struct bd_alloc_hooks {
  void *(*alloc)(size_t bytes, void *ctx);
  void (*free)(void *p, void *ctx);
  void (*fail)(const char *msg, void *ctx);
  void *ctx;
} bd_alloc_hooks;

/* Usage: bd_set_alloc_hooks(&h) before the first gradient call of a thread;
 * NULL restores malloc/free/abort. Affects only the calling thread and only
 * blocks allocated afterwards; that includes the tape memory pool workers
 * use for this thread's calls (parallel.h). The hooks of one thread are
 * never called concurrently, but may be called on a worker thread; fail is
 * always called on this thread, after the workers stopped. */
BD_TAPE_API void bd_set_alloc_hooks(const bd_alloc_hooks *hooks);

/* Usage: bd_arena *a = bd_arena_get(); -- this thread's arena, created on
 * first use and freed when the thread exits (in a pool worker running chunks
 * of another thread's call: that thread's arena for this worker). */
BD_TAPE_API bd_arena *bd_arena_get(void);

/* Usage: bd_arena_pos p = bd_arena_save(a); ... bd_arena_restore(a, p); */
BD_TAPE_API bd_arena_pos bd_arena_save(const bd_arena *a);
BD_TAPE_API void bd_arena_restore(bd_arena *a, bd_arena_pos pos);

/* Usage: void *p = bd_arena_alloc(a, bytes); -- 64-byte aligned, valid until
 * the arena is restored to a position before it. Never returns NULL. Fresh
 * memory (malloc-like: it aliases nothing else the caller holds), which
 * lets the compiler treat large local arrays of generated code kept here
 * like the stack arrays they replace. */
BD_TAPE_API void *bd_arena_alloc(bd_arena *a, size_t bytes)
    __attribute__((__malloc__, __assume_aligned__(64)));

/* Usage: bd_arena_fail(a, "what went wrong"); -- reports an error of the
 * running call as the arena's own failures are reported: through the fail
 * hook (default: print "batchdiff: msg" and abort), from a worker of a
 * parallel call on the calling thread once every worker stopped. Does not
 * return. */
BD_TAPE_API void bd_arena_fail(bd_arena *a, const char *msg);

/* Usage: bd_tape_grow(a, &t, rows); -- makes room for at least `rows` rows,
 * keeping the contents. */
BD_TAPE_API void bd_tape_grow(bd_arena *a, bd_tape *t, size_t rows);

/* Usage: bd_tape_begin(a, &t, key) when a call starts; bd_tape_end(a, &t,
 * key) before it restores the arena. `key` is any address unique to the
 * tape (generated code uses a static const object). A tape that needed R
 * rows in an earlier call on this thread starts with R rows at once, so
 * steady-state calls neither grow nor copy it. */
BD_TAPE_API void bd_tape_begin(bd_arena *a, bd_tape *t, const void *key);
BD_TAPE_API void bd_tape_end(bd_arena *a, bd_tape *t, const void *key);

/* Bytes the arena holds (for tests and for sizing). */
BD_TAPE_API size_t bd_arena_capacity(const bd_arena *a);

#ifdef __cplusplus
}
#endif

#include <batchdiff/macro_shield.h>
#endif
