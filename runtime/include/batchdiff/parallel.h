/* Threads: NAME_batched and NAME_grad split large batches across a thread
 * pool owned by the runtime. Plain C (no vector extensions): any compiler
 * can include it to set or read the thread count.
 *
 * Usage (users):   bd_set_num_threads(1);   -- every call on one thread
 *                  int t = bd_get_num_threads();
 * Usage (generated code): bd_parallel_for(n, fn, reduce, slot_bytes, ctx,
 *                         flags).
 *
 * Results never depend on the thread count: the batch is cut into chunks of
 * BD_CHUNK examples whatever the thread count, and per-chunk partial sums
 * are combined in chunk order. See docs/runtime.md ("Threads"). */
#ifndef BATCHDIFF_PARALLEL_H
#define BATCHDIFF_PARALLEL_H
#include <batchdiff/macro_shield.h> /* hides the user's macros until its end */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BD_PARALLEL_API __attribute__((__visibility__("default")))

/* Examples per chunk: the unit of work and of partial sums. A multiple of
 * every vector width (8, 16 lanes). Part of the results' definition: the
 * uniform gradients of a batch longer than one chunk are summed chunk by
 * chunk (docs/abi.md). */
#define BD_CHUNK 2048

/* Batches shorter than this run on the calling thread only (measured: below
 * it, waking the pool costs more than it saves for the cheapest kernels;
 * docs/performance.md). */
#define BD_PARALLEL_MIN_N 32768

/* Usage: bd_set_num_threads(k) -- k >= 1: at most k threads per call (the
 * caller's plus k - 1 pool workers); 1 turns the pool off; k <= 0 goes back
 * to the default (BATCHDIFF_NUM_THREADS, else the CPUs this process may run
 * on). Process-wide, takes effect for calls that start afterwards; safe to
 * call from any thread at any time. */
BD_PARALLEL_API void bd_set_num_threads(int k);

/* Usage: int t = bd_get_num_threads(); -- the count calls use now (>= 1). */
BD_PARALLEL_API int bd_get_num_threads(void);

/* Usage (tests, tuning): threads that ran chunks of the calling thread's
 * last parallel call (1 when it stayed on the calling thread). */
BD_PARALLEL_API int bd_parallel_last_threads(void);

/* Usage (tests): bd_set_tune_clock(now, ctx) -- the calling thread's calls
 * time themselves with now(ctx) (nanoseconds, never decreasing) instead of
 * CLOCK_MONOTONIC where they choose between the pool and the calling thread
 * alone by what each way measured (docs/runtime.md, "Pool or not"), so a
 * test decides which way is faster, exactly; now NULL goes back to the
 * clock. Affects only the calling thread's calls; which way a call goes
 * never changes its results. */
typedef unsigned long long (*bd_clock_fn)(void *ctx);
BD_PARALLEL_API void bd_set_tune_clock(bd_clock_fn now, void *ctx);

/* Runs fn over [0, n) chunk by chunk: fn(ctx, begin, end, slot) for each
 * chunk [c*BD_CHUNK, min(n, (c+1)*BD_CHUNK)), each exactly once, possibly on
 * several threads at once. slot: slot_bytes zeroed bytes, 64-byte aligned,
 * private to the chunk, in which fn leaves the chunk's partial sums; then
 * reduce(ctx, slot) runs on the calling thread for every chunk in chunk
 * order (reduce may be NULL when slot_bytes is 0). Without partial sums
 * (slot_bytes 0) a call that stays on one thread may pass several chunks
 * in one fn call. fn must only write what belongs to its chunk.
 * flags: BD_PAR_SERIAL runs every chunk on the calling thread, in order
 * (for outputs that several chunks add to, such as a uniform array's
 * shadow). Tape memory (bd_arena_get) inside fn comes from per-worker
 * arenas of the calling thread. If a worker cannot get tape memory, the
 * other chunks are abandoned and the calling thread's fail hook is called
 * (tape.h) once every worker has stopped. */
typedef void (*bd_chunk_fn)(void *ctx, size_t begin, size_t end, void *slot);
typedef void (*bd_reduce_fn)(void *ctx, const void *slot);
#define BD_PAR_SERIAL 1
BD_PARALLEL_API void bd_parallel_for(size_t n, bd_chunk_fn fn,
                                     bd_reduce_fn reduce, size_t slot_bytes,
                                     void *ctx, int flags);

#ifdef __cplusplus
}
#endif

#include <batchdiff/macro_shield.h>
#endif
