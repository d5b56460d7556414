/* Tape memory of loop gradients (runtime/include/batchdiff/tape.h).
 *
 * Every scenario runs in a fresh thread (fresh per-thread arena) whose
 * allocation hooks count, and check, every block the arena allocates and
 * frees. CMocka assertions only run on the main thread; threads report back
 * through their context.
 *
 * - steady state: repeated calls with the same n and trip counts allocate
 *   nothing after the first; a call with much larger trip counts grows the
 *   arena; later smaller calls (any n) allocate nothing again;
 * - memory depends on the largest trip count per SIMD chunk, not on n, and
 *   grows linearly with the trip count;
 * - two threads calling the same gradient concurrently get exactly the
 *   sequential results;
 * - allocation failure goes through the fail hook with a clear message
 *   (longjmp out of it, then the thread keeps working; the default hook
 *   prints and aborts, checked in forked children; a fail hook that returns
 *   anyway still ends in abort, never in a write through NULL);
 * - blocks are freed with the hooks that allocated them, even when the hooks
 *   are changed after blocks exist (tape.h: hooks affect "only blocks
 *   allocated afterwards").
 */
#include "loops_util.h"

#include <batchdiff/tape.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>

/* ---- functions under test -------------------------------------------------- */

BATCHDIFF double tp_loop(double x, int n) {
  double s = 0.0, p = x;
  for (int i = 0; i < n; i++) {
    s += sin(p) * p;
    p = p * 0.999 + 0.001;
  }
  return s;
}

BATCHDIFF double tp_nested(double x, int n, int m) {
  double s = x;
  for (int i = 0; i < n; i++) {
    int j = 0;
    while (j < m) {
      s = s * 0.5 + cos(s + j) * x;
      j++;
    }
  }
  return s;
}

/* Nothing is needed in reverse: s += x over a uniform trip count (the
 * adjoint of x is d_s times the count). Issue 3: "Loops whose iterations
 * need nothing stored (no values needed in reverse) store nothing." */
BATCHDIFF double tp_nothing(double x, BD_UNIFORM int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s += x;
  return s;
}

/* ---- counting / checking hooks --------------------------------------------- */

#define MAX_LIVE 256
typedef struct {
  size_t allocs, frees, foreign_frees;
  size_t live_bytes;
  size_t fail_after; /* alloc returns NULL once allocs reaches this (0: never) */
  size_t fail_bytes; /* alloc returns NULL for requests >= this (0: never) */
  void *live[MAX_LIVE];
  size_t live_sz[MAX_LIVE];
  char msg[256];
  int failed;
  jmp_buf *jb;
} counter_t;

static void *c_alloc(size_t bytes, void *ctx) {
  counter_t *c = ctx;
  if ((c->fail_after && c->allocs >= c->fail_after) ||
      (c->fail_bytes && bytes >= c->fail_bytes))
    return NULL;
  void *p = malloc(bytes);
  if (!p)
    return NULL;
  c->allocs++;
  c->live_bytes += bytes;
  for (int i = 0; i < MAX_LIVE; i++)
    if (!c->live[i]) {
      c->live[i] = p;
      c->live_sz[i] = bytes;
      return p;
    }
  abort(); /* test bug: too many live blocks */
}
static void c_free(void *p, void *ctx) {
  counter_t *c = ctx;
  for (int i = 0; i < MAX_LIVE; i++)
    if (c->live[i] == p) {
      c->live[i] = NULL;
      c->live_bytes -= c->live_sz[i];
      c->frees++;
      free(p);
      return;
    }
  /* Not ours: do not free it (it may belong to another allocator). */
  c->foreign_frees++;
}
static void c_fail_longjmp(const char *msg, void *ctx) {
  counter_t *c = ctx;
  snprintf(c->msg, sizeof c->msg, "%s", msg);
  c->failed++;
  longjmp(*c->jb, 1);
}
static void use_counter(counter_t *c, void (*fail)(const char *, void *)) {
  bd_alloc_hooks h = {c_alloc, c_free, fail, c};
  bd_set_alloc_hooks(&h);
}

/* ---- helpers ----------------------------------------------------------------- */

typedef struct {
  size_t n;
  double *x, *seed, *ret, *dx;
  int *k, *m;
} batch_t;

static void batch_init(batch_t *bt, size_t n, int trip, int long_trip,
                       uint64_t s) {
  rng_t r = {s};
  bt->n = n;
  bt->x = malloc((n + 1) * sizeof(double));
  bt->seed = malloc((n + 1) * sizeof(double));
  bt->ret = malloc((n + 1) * sizeof(double));
  bt->dx = malloc((n + 1) * sizeof(double));
  bt->k = malloc((n + 1) * sizeof(int));
  bt->m = malloc((n + 1) * sizeof(int));
  for (size_t b = 0; b < n; b++) {
    bt->x[b] = rng_range(&r, -2.0, 2.0);
    bt->seed[b] = rng_range(&r, -1.0, 1.0);
    /* lane 0 of every chunk runs long_trip, the others trip or fewer */
    bt->k[b] = b % WF == 0 ? long_trip : (int)(rng_u64(&r) % (unsigned)(trip + 1));
    bt->m[b] = 1 + (int)(b % 5);
  }
}
static void batch_free(batch_t *bt) {
  free(bt->x);
  free(bt->seed);
  free(bt->ret);
  free(bt->dx);
  free(bt->k);
  free(bt->m);
}
static void run_loop(batch_t *bt) {
  memset(bt->dx, 0, bt->n * sizeof(double));
  tp_loop_grad(bt->n, bt->x, bt->k, bt->ret, bt->seed, bt->dx);
}
static void run_nested(batch_t *bt) {
  memset(bt->dx, 0, bt->n * sizeof(double));
  tp_nested_grad(bt->n, bt->x, bt->k, bt->m, bt->ret, bt->seed, bt->dx);
}

/* Run fn(arg) in a new thread and wait for it. */
static void in_thread(void *(*fn)(void *), void *arg) {
  pthread_t t;
  assert_int_equal(pthread_create(&t, NULL, fn, arg), 0);
  assert_int_equal(pthread_join(t, NULL), 0);
}

/* ---- steady state ---------------------------------------------------------- */

typedef struct {
  counter_t c;
  size_t after[16]; /* allocs after each step */
  int mismatch;     /* results changed between identical calls */
  size_t live_at_exit_check;
} steady_t;

static void *steady_thread(void *arg) {
  steady_t *s = arg;
  use_counter(&s->c, c_fail_longjmp);
  batch_t a, big, small1, small1000;
  batch_init(&a, 257, 100, 100, 1);
  batch_init(&big, 257, 100, 20000, 1);
  batch_init(&small1, 1, 30, 30, 2);
  batch_init(&small1000, 1000, 100, 5000, 3);
  double *ref = malloc(257 * sizeof(double)), *refd = malloc(257 * sizeof(double));
  int st = 0;
  run_loop(&a); /* 0: first call */
  memcpy(ref, a.ret, 257 * sizeof(double));
  memcpy(refd, a.dx, 257 * sizeof(double));
  s->after[st++] = s->c.allocs;
  for (int i = 0; i < 4; i++) { /* 1..4: the same call again */
    run_loop(&a);
    if (memcmp(ref, a.ret, 257 * sizeof(double)) ||
        memcmp(refd, a.dx, 257 * sizeof(double)))
      s->mismatch = 1;
    s->after[st++] = s->c.allocs;
  }
  run_loop(&big); /* 5: one lane per chunk runs 20000 iterations */
  s->after[st++] = s->c.allocs;
  run_loop(&a); /* 6..9: smaller calls, other n */
  s->after[st++] = s->c.allocs;
  run_loop(&small1);
  s->after[st++] = s->c.allocs;
  run_loop(&small1000);
  s->after[st++] = s->c.allocs;
  run_loop(&big);
  s->after[st++] = s->c.allocs;
  if (memcmp(ref, (run_loop(&a), a.ret), 257 * sizeof(double)) ||
      memcmp(refd, a.dx, 257 * sizeof(double)))
    s->mismatch = 1;
  /* 10, 11: a second gradient with two nested loops, then steady again */
  run_nested(&small1000);
  s->after[st++] = s->c.allocs;
  for (int i = 0; i < 3; i++) {
    run_nested(&small1000);
    run_loop(&big);
    run_nested(&a);
  }
  s->after[st++] = s->c.allocs;
  free(ref);
  free(refd);
  batch_free(&a);
  batch_free(&big);
  batch_free(&small1);
  batch_free(&small1000);
  return NULL;
}

static void tape_steady_state(void **st) {
  (void)st;
  steady_t *s = calloc(1, sizeof *s);
  in_thread(steady_thread, s);
  for (int i = 0; i < 12; i++)
    print_message("step %d: %zu allocations\n", i, s->after[i]);
  assert_false(s->mismatch);
  assert_true(s->after[0] > 0);
  for (int i = 1; i <= 4; i++)
    assert_int_equal(s->after[i], s->after[0]); /* steady: no allocation */
  assert_true(s->after[5] > s->after[4]);         /* larger trips grow */
  for (int i = 6; i <= 9; i++)
    assert_int_equal(s->after[i], s->after[5]); /* smaller calls: none */
  assert_int_equal(s->after[11], s->after[10]); /* interleaved: none */
  /* thread exit freed everything, with our hooks */
  assert_int_equal(s->c.allocs, s->c.frees);
  assert_int_equal(s->c.live_bytes, 0);
  assert_int_equal(s->c.foreign_frees, 0);
  free(s);
}

/* ---- memory as a function of trip count and n ------------------------------ */

typedef struct {
  size_t n;
  int trip;
  size_t capacity, live;
  counter_t c;
} mem_t;

static void *mem_thread(void *arg) {
  mem_t *m = arg;
  use_counter(&m->c, c_fail_longjmp);
  batch_t b;
  batch_init(&b, m->n, m->trip, m->trip, 5);
  for (size_t i = 0; i < m->n; i++)
    b.k[i] = m->trip; /* every lane the same trip count */
  run_loop(&b);
  m->capacity = bd_arena_capacity(bd_arena_get());
  m->live = m->c.live_bytes;
  batch_free(&b);
  return NULL;
}
static size_t capacity_for(size_t n, int trip) {
  mem_t m = {.n = n, .trip = trip};
  in_thread(mem_thread, &m);
  assert_true(m.live >= m.capacity);
  return m.capacity;
}

static void tape_memory_scaling(void **st) {
  (void)st;
  /* Per chunk, the tape is reused: n does not matter, only the largest trip
   * count of a chunk. */
  size_t c1 = capacity_for(WF, 20000);
  size_t c2 = capacity_for(64 * WF + 3, 20000);
  print_message("capacity: n=%d trip 20000: %zu; n=%d: %zu\n", (int)WF, c1,
                (int)(64 * WF + 3), c2);
  assert_int_equal(c1, c2);
  /* Linear in the trip count (within the doubling factors). */
  size_t c4 = capacity_for(WF, 80000);
  print_message("capacity: trip 80000: %zu\n", c4);
  assert_true(c4 >= 2 * c1 && c4 <= 8 * c1);
  /* Rows of tp_loop: one per iteration + the final condition test; a row
   * holds a few 32-byte slots. Bound: <= 4x (tape doubling + block
   * doubling) of rows * row bytes for row <= 8 slots, plus the first
   * block. */
  assert_true(c4 <= 4 * (size_t)80001 * 8 * BD_TAPE_SLOT + 64 * 1024);
  assert_true(c4 >= (size_t)80001 * BD_TAPE_SLOT);
}

/* ---- threads ----------------------------------------------------------------- */

typedef struct {
  batch_t *in;
  double *ret, *dx;
  int reps;
  int bad;
} thr_t;

static void *thr_fn(void *arg) {
  thr_t *t = arg;
  size_t n = t->in->n;
  double *ret = malloc(n * sizeof(double)), *dx = malloc(n * sizeof(double));
  for (int r = 0; r < t->reps; r++) {
    memset(dx, 0, n * sizeof(double));
    if (r & 1)
      tp_nested_grad(n, t->in->x, t->in->k, t->in->m, ret, t->in->seed, dx);
    else
      tp_loop_grad(n, t->in->x, t->in->k, ret, t->in->seed, dx);
    const double *wr = (r & 1) ? t->ret + n : t->ret;
    const double *wd = (r & 1) ? t->dx + n : t->dx;
    if (memcmp(ret, wr, n * sizeof(double)) || memcmp(dx, wd, n * sizeof(double)))
      t->bad++;
  }
  free(ret);
  free(dx);
  return NULL;
}

static void tape_threads(void **st) {
  (void)st;
  batch_t in;
  batch_init(&in, 333, 300, 3000, 9);
  /* sequential reference: [0,n) tp_loop, [n,2n) tp_nested */
  double *ret = malloc(2 * in.n * sizeof(double)),
         *dx = calloc(2 * in.n, sizeof(double));
  tp_loop_grad(in.n, in.x, in.k, ret, in.seed, dx);
  tp_nested_grad(in.n, in.x, in.k, in.m, ret + in.n, in.seed, dx + in.n);
  enum { NT = 4 };
  thr_t t[NT];
  pthread_t th[NT];
  for (int i = 0; i < NT; i++) {
    t[i] = (thr_t){&in, ret, dx, 12, 0};
    assert_int_equal(pthread_create(&th[i], NULL, thr_fn, &t[i]), 0);
  }
  for (int i = 0; i < NT; i++) {
    assert_int_equal(pthread_join(th[i], NULL), 0);
    assert_int_equal(t[i].bad, 0);
  }
  free(ret);
  free(dx);
  batch_free(&in);
}

/* ---- allocation failure ------------------------------------------------------ */

typedef struct {
  counter_t c;
  int jumped;
  int ok_after;
  size_t allocs_before_fail;
} fail_t;

static void *fail_thread(void *arg) {
  fail_t *f = arg;
  jmp_buf jb;
  f->c.jb = &jb;
  use_counter(&f->c, c_fail_longjmp);
  batch_t small, huge;
  batch_init(&small, 40, 50, 50, 4);
  batch_init(&huge, 40, 50, 3000000, 4); /* ~100 MB+ of tape */
  run_loop(&small);
  double *ref = malloc(40 * sizeof(double)), *refd = malloc(40 * sizeof(double));
  memcpy(ref, small.ret, 40 * sizeof(double));
  memcpy(refd, small.dx, 40 * sizeof(double));
  f->allocs_before_fail = f->c.allocs;
  f->c.fail_bytes = 4u << 20; /* refuse blocks of 4 MiB or more */
  if (setjmp(jb) == 0) {
    run_loop(&huge);
  } else {
    f->jumped = 1;
  }
  /* The thread keeps working after the failure. */
  f->c.fail_bytes = 0;
  run_loop(&small);
  f->ok_after = !memcmp(ref, small.ret, 40 * sizeof(double)) &&
                !memcmp(refd, small.dx, 40 * sizeof(double));
  run_loop(&huge); /* now it fits */
  free(ref);
  free(refd);
  batch_free(&small);
  batch_free(&huge);
  return NULL;
}

static void tape_fail_longjmp(void **st) {
  (void)st;
  fail_t *f = calloc(1, sizeof *f);
  in_thread(fail_thread, f);
  assert_int_equal(f->jumped, 1);
  assert_int_equal(f->c.failed, 1);
  print_message("fail hook message: %s\n", f->c.msg);
  assert_non_null(strstr(f->c.msg, "out of memory"));
  assert_non_null(strstr(f->c.msg, "tape"));
  assert_true(f->ok_after);
  assert_int_equal(f->c.allocs, f->c.frees);
  assert_int_equal(f->c.foreign_frees, 0);
  free(f);
}

/* In a forked child: alloc hook returns NULL for large blocks; fail is
 * `fail` (NULL fields make bd_set_alloc_hooks use the defaults, so the
 * child installs hooks with a real fail function). Returns the wait status;
 * stderr of the child goes to errbuf. */
static void null_alloc_free(void *p, void *ctx) {
  (void)ctx;
  free(p);
}
static void *null_big_alloc(size_t bytes, void *ctx) {
  (void)ctx;
  return bytes >= (1u << 20) ? NULL : malloc(bytes);
}
static void fail_returns(const char *msg, void *ctx) {
  (void)ctx;
  fprintf(stderr, "custom fail hook: %s\n", msg);
  /* returns, although tape.h says it must not */
}
static void default_fail_like(const char *msg, void *ctx);

static int run_child(void (*fail)(const char *, void *), char *errbuf,
                     size_t errlen) {
  int pfd[2];
  assert_int_equal(pipe(pfd), 0);
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(pfd[0]);
    dup2(pfd[1], 2);
    if (fail) {
      bd_alloc_hooks h = {null_big_alloc, null_alloc_free, fail, NULL};
      bd_set_alloc_hooks(&h);
    } else {
      /* default fail hook: only alloc/free replaced is not allowed
       * (all three are required), so use the documented default text via
       * default_fail_like, which mirrors it. */
      bd_alloc_hooks h = {null_big_alloc, null_alloc_free, default_fail_like,
                          NULL};
      bd_set_alloc_hooks(&h);
    }
    batch_t huge;
    batch_init(&huge, 8, 10, 1000000, 6);
    run_loop(&huge);
    _exit(0); /* not reached if the failure is reported */
  }
  close(pfd[1]);
  size_t got = 0;
  ssize_t r;
  while (got + 1 < errlen && (r = read(pfd[0], errbuf + got, errlen - 1 - got)) > 0)
    got += (size_t)r;
  errbuf[got] = 0;
  close(pfd[0]);
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  return status;
}
static void default_fail_like(const char *msg, void *ctx) {
  (void)ctx;
  fprintf(stderr, "batchdiff: %s\n", msg);
  _exit(42);
}

static void tape_fail_exit_child(void **st) {
  (void)st;
  char err[1024];
  int status = run_child(NULL, err, sizeof err);
  print_message("child stderr: %s", err);
  assert_true(WIFEXITED(status));
  assert_int_equal(WEXITSTATUS(status), 42);
  assert_non_null(strstr(err, "batchdiff: tape arena: out of memory"));
}

static void tape_fail_hook_returns(void **st) {
  (void)st;
  char err[1024];
  int status = run_child(fail_returns, err, sizeof err);
  print_message("child stderr: %s", err);
  /* the runtime aborts when the hook returns: no write through NULL */
  assert_true(WIFSIGNALED(status));
  assert_int_equal(WTERMSIG(status), SIGABRT);
  assert_non_null(strstr(err, "custom fail hook: tape arena: out of memory"));
}

/* The default hooks (no bd_set_alloc_hooks at all): malloc fails for an
 * absurd tape -> message on stderr and abort. Uses RLIMIT_AS in the child. */
#include <sys/resource.h>
#include "../common/test_filter.h"
static void tape_fail_default(void **st) {
  (void)st;
  int pfd[2];
  assert_int_equal(pipe(pfd), 0);
  fflush(NULL);
  pid_t pid = fork();
  assert_true(pid >= 0);
  if (pid == 0) {
    close(pfd[0]);
    dup2(pfd[1], 2);
    batch_t huge;
    batch_init(&huge, 8, 10, 20000000, 6); /* ~2.5 GB of tape */
    struct rlimit rl = {512u << 20, 512u << 20};
    setrlimit(RLIMIT_AS, &rl);
    run_loop(&huge);
    _exit(0);
  }
  close(pfd[1]);
  char err[1024];
  size_t got = 0;
  ssize_t r;
  while (got + 1 < sizeof err &&
         (r = read(pfd[0], err + got, sizeof err - 1 - got)) > 0)
    got += (size_t)r;
  err[got] = 0;
  close(pfd[0]);
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  print_message("child stderr: %s", err);
  assert_true(WIFSIGNALED(status));
  assert_int_equal(WTERMSIG(status), SIGABRT);
  assert_non_null(strstr(err, "batchdiff: tape arena: out of memory"));
}

/* ---- a loop that needs nothing stored allocates no tape ------------------ */

typedef struct {
  counter_t c;
  double d0;
} nothing_t;

static void *nothing_thread(void *arg) {
  nothing_t *t = arg;
  use_counter(&t->c, c_fail_longjmp);
  double x[5] = {1, 2, 3, 4, 5}, ret[5], dx[5] = {0};
  tp_nothing_grad(5, x, 1000, ret, NULL, dx);
  t->d0 = dx[0];
  return NULL;
}

static void tape_nothing_needed(void **st) {
  (void)st;
  nothing_t t = {0};
  in_thread(nothing_thread, &t);
  assert_true(t.d0 == 1000.0);
  print_message("tp_nothing_grad allocated %zu blocks\n", t.c.allocs);
  assert_int_equal(t.c.allocs, 0);
}

/* ---- changing hooks after blocks exist -------------------------------------- */

typedef struct {
  counter_t c;
} swap_t;

static void *swap_thread(void *arg) {
  swap_t *s = arg;
  batch_t a, big;
  batch_init(&a, 64, 3000, 3000, 8);   /* > 64 KiB of tape: two blocks */
  batch_init(&big, 64, 100, 60000, 8); /* needs a bigger block */
  run_loop(&a);                        /* blocks from malloc (defaults) */
  use_counter(&s->c, c_fail_longjmp);  /* then our hooks */
  run_loop(&big); /* may drop old blocks: must go to free(), not c_free */
  run_loop(&a);
  batch_free(&a);
  batch_free(&big);
  return NULL; /* thread exit frees the rest */
}

static void tape_hooks_changed_later(void **st) {
  (void)st;
  swap_t *s = calloc(1, sizeof *s);
  in_thread(swap_thread, s);
  print_message("allocs %zu frees %zu foreign frees %zu\n", s->c.allocs,
                s->c.frees, s->c.foreign_frees);
  assert_true(s->c.allocs > 0);
  assert_int_equal(s->c.foreign_frees, 0); /* never given malloc's blocks */
  assert_int_equal(s->c.allocs, s->c.frees);
  free(s);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(tape_steady_state),
      cmocka_unit_test(tape_memory_scaling),
      cmocka_unit_test(tape_threads),
      cmocka_unit_test(tape_fail_longjmp),
      cmocka_unit_test(tape_fail_exit_child),
      cmocka_unit_test(tape_fail_hook_returns),
      cmocka_unit_test(tape_fail_default),
      cmocka_unit_test(tape_hooks_changed_later),
      cmocka_unit_test(tape_nothing_needed),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
