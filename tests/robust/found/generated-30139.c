/* tests/robust/mutate.py seed 30139: generated
   key: fatal error bracket nesting level exceeded maximum of N
   from: tests/loops/test_loops_tape.c
   mutations: plugin 1 plain 1; insert: insert 'for (int i0 = 0; i0 < 1; i0++) for (int i1 = 0; i1 < 1; i1++) for (int i2 = 0; i'; insert: insert '{ int i7991 = 0; double a7991[4]; a7991[i7991++] = x; a7991[-1] = 0; }'
   flags: -O2 -march=native -I tests/loops
   detail:
     <batchdiff:tp_loop>:825:516: fatal error: bracket nesting level exceeded maximum of 256 */
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
   { int i7991 = 0; double a7991[4]; a7991[i7991++] = x; a7991[-1] = 0; } for (int i = 0; i < n; i++) {
    s += sin(p) * p;
    p = p * 0.999 + 0.001;
  }
   for (int i0 = 0; i0 < 1; i0++) for (int i1 = 0; i1 < 1; i1++) for (int i2 = 0; i2 < 1; i2++) for (int i3 = 0; i3 < 1; i3++) for (int i4 = 0; i4 < 1; i4++) for (int i5 = 0; i5 < 1; i5++) for (int i6 = 0; i6 < 1; i6++) for (int i7 = 0; i7 < 1; i7++) for (int i8 = 0; i8 < 1; i8++) for (int i9 = 0; i9 < 1; i9++) for (int i10 = 0; i10 < 1; i10++) for (int i11 = 0; i11 < 1; i11++) for (int i12 = 0; i12 < 1; i12++) for (int i13 = 0; i13 < 1; i13++) for (int i14 = 0; i14 < 1; i14++) for (int i15 = 0; i15 < 1; i15++) for (int i16 = 0; i16 < 1; i16++) for (int i17 = 0; i17 < 1; i17++) for (int i18 = 0; i18 < 1; i18++) for (int i19 = 0; i19 < 1; i19++) for (int i20 = 0; i20 < 1; i20++) for (int i21 = 0; i21 < 1; i21++) for (int i22 = 0; i22 < 1; i22++) for (int i23 = 0; i23 < 1; i23++) for (int i24 = 0; i24 < 1; i24++) for (int i25 = 0; i25 < 1; i25++) for (int i26 = 0; i26 < 1; i26++) for (int i27 = 0; i27 < 1; i27++) for (int i28 = 0; i28 < 1; i28++) for (int i29 = 0; i29 < 1; i29++) for (int i30 = 0; i30 < 1; i30++) for (int i31 = 0; i31 < 1; i31++) for (int i32 = 0; i32 < 1; i32++) for (int i33 = 0; i33 < 1; i33++) for (int i34 = 0; i34 < 1; i34++) for (int i35 = 0; i35 < 1; i35++) for (int i36 = 0; i36 < 1; i36++) for (int i37 = 0; i37 < 1; i37++) for (int i38 = 0; i38 < 1; i38++) for (int i39 = 0; i39 < 1; i39++) for (int i40 = 0; i40 < 1; i40++) for (int i41 = 0; i41 < 1; i41++) for (int i42 = 0; i42 < 1; i42++) for (int i43 = 0; i43 < 1; i43++) for (int i44 = 0; i44 < 1; i44++) for (int i45 = 0; i45 < 1; i45++) for (int i46 = 0; i46 < 1; i46++) for (int i47 = 0; i47 < 1; i47++) for (int i48 = 0; i48 < 1; i48++) for (int i49 = 0; i49 < 1; i49++) for (int i50 = 0; i50 < 1; i50++) for (int i51 = 0; i51 < 1; i51++) for (int i52 = 0; i52 < 1; i52++) for (int i53 = 0; i53 < 1; i53++) for (int i54 = 0; i54 < 1; i54++) for (int i55 = 0; i55 < 1; i55++) for (int i56 = 0; i56 < 1; i56++) for (int i57 = 0; i57 < 1; i57++) for (int i58 = 0; i58 < 1; i58++) for (int i59 = 0; i59 < 1; i59++) for (int i60 = 0; i60 < 1; i60++) for (int i61 = 0; i61 < 1; i61++) for (int i62 = 0; i62 < 1; i62++) for (int i63 = 0; i63 < 1; i63++) for (int i64 = 0; i64 < 1; i64++) for (int i65 = 0; i65 < 1; i65++) for (int i66 = 0; i66 < 1; i66++) for (int i67 = 0; i67 < 1; i67++) for (int i68 = 0; i68 < 1; i68++) for (int i69 = 0; i69 < 1; i69++) for (int i70 = 0; i70 < 1; i70++) for (int i71 = 0; i71 < 1; i71++) for (int i72 = 0; i72 < 1; i72++) for (int i73 = 0; i73 < 1; i73++) for (int i74 = 0; i74 < 1; i74++) for (int i75 = 0; i75 < 1; i75++) for (int i76 = 0; i76 < 1; i76++) for (int i77 = 0; i77 < 1; i77++) for (int i78 = 0; i78 < 1; i78++) for (int i79 = 0; i79 < 1; i79++) for (int i80 = 0; i80 < 1; i80++) for (int i81 = 0; i81 < 1; i81++) for (int i82 = 0; i82 < 1; i82++) for (int i83 = 0; i83 < 1; i83++) for (int i84 = 0; i84 < 1; i84++) for (int i85 = 0; i85 < 1; i85++) for (int i86 = 0; i86 < 1; i86++) for (int i87 = 0; i87 < 1; i87++) for (int i88 = 0; i88 < 1; i88++) for (int i89 = 0; i89 < 1; i89++) for (int i90 = 0; i90 < 1; i90++) for (int i91 = 0; i91 < 1; i91++) for (int i92 = 0; i92 < 1; i92++) for (int i93 = 0; i93 < 1; i93++) for (int i94 = 0; i94 < 1; i94++) for (int i95 = 0; i95 < 1; i95++) for (int i96 = 0; i96 < 1; i96++) for (int i97 = 0; i97 < 1; i97++) for (int i98 = 0; i98 < 1; i98++) for (int i99 = 0; i99 < 1; i99++) for (int i100 = 0; i100 < 1; i100++) for (int i101 = 0; i101 < 1; i101++) for (int i102 = 0; i102 < 1; i102++) for (int i103 = 0; i103 < 1; i103++) for (int i104 = 0; i104 < 1; i104++) for (int i105 = 0; i105 < 1; i105++) for (int i106 = 0; i106 < 1; i106++) for (int i107 = 0; i107 < 1; i107++) for (int i108 = 0; i108 < 1; i108++) for (int i109 = 0; i109 < 1; i109++) for (int i110 = 0; i110 < 1; i110++) for (int i111 = 0; i111 < 1; i111++) for (int i112 = 0; i112 < 1; i112++) for (int i113 = 0; i113 < 1; i113++) for (int i114 = 0; i114 < 1; i114++) for (int i115 = 0; i115 < 1; i115++) for (int i116 = 0; i116 < 1; i116++) for (int i117 = 0; i117 < 1; i117++) for (int i118 = 0; i118 < 1; i118++) for (int i119 = 0; i119 < 1; i119++) for (int i120 = 0; i120 < 1; i120++) for (int i121 = 0; i121 < 1; i121++) for (int i122 = 0; i122 < 1; i122++) for (int i123 = 0; i123 < 1; i123++) for (int i124 = 0; i124 < 1; i124++) for (int i125 = 0; i125 < 1; i125++) for (int i126 = 0; i126 < 1; i126++) for (int i127 = 0; i127 < 1; i127++) for (int i128 = 0; i128 < 1; i128++) for (int i129 = 0; i129 < 1; i129++) for (int i130 = 0; i130 < 1; i130++) for (int i131 = 0; i131 < 1; i131++) for (int i132 = 0; i132 < 1; i132++) for (int i133 = 0; i133 < 1; i133++) for (int i134 = 0; i134 < 1; i134++) for (int i135 = 0; i135 < 1; i135++) for (int i136 = 0; i136 < 1; i136++) for (int i137 = 0; i137 < 1; i137++) for (int i138 = 0; i138 < 1; i138++) for (int i139 = 0; i139 < 1; i139++) for (int i140 = 0; i140 < 1; i140++) for (int i141 = 0; i141 < 1; i141++) for (int i142 = 0; i142 < 1; i142++) for (int i143 = 0; i143 < 1; i143++) for (int i144 = 0; i144 < 1; i144++) for (int i145 = 0; i145 < 1; i145++) for (int i146 = 0; i146 < 1; i146++) for (int i147 = 0; i147 < 1; i147++) for (int i148 = 0; i148 < 1; i148++) for (int i149 = 0; i149 < 1; i149++) for (int i150 = 0; i150 < 1; i150++) for (int i151 = 0; i151 < 1; i151++) for (int i152 = 0; i152 < 1; i152++) for (int i153 = 0; i153 < 1; i153++) for (int i154 = 0; i154 < 1; i154++) for (int i155 = 0; i155 < 1; i155++) for (int i156 = 0; i156 < 1; i156++) for (int i157 = 0; i157 < 1; i157++) for (int i158 = 0; i158 < 1; i158++) for (int i159 = 0; i159 < 1; i159++) for (int i160 = 0; i160 < 1; i160++) for (int i161 = 0; i161 < 1; i161++) for (int i162 = 0; i162 < 1; i162++) for (int i163 = 0; i163 < 1; i163++) for (int i164 = 0; i164 < 1; i164++) for (int i165 = 0; i165 < 1; i165++) for (int i166 = 0; i166 < 1; i166++) for (int i167 = 0; i167 < 1; i167++) for (int i168 = 0; i168 < 1; i168++) for (int i169 = 0; i169 < 1; i169++) for (int i170 = 0; i170 < 1; i170++) for (int i171 = 0; i171 < 1; i171++) for (int i172 = 0; i172 < 1; i172++) for (int i173 = 0; i173 < 1; i173++) for (int i174 = 0; i174 < 1; i174++) for (int i175 = 0; i175 < 1; i175++) for (int i176 = 0; i176 < 1; i176++) for (int i177 = 0; i177 < 1; i177++) for (int i178 = 0; i178 < 1; i178++) for (int i179 = 0; i179 < 1; i179++) for (int i180 = 0; i180 < 1; i180++) for (int i181 = 0; i181 < 1; i181++) for (int i182 = 0; i182 < 1; i182++) for (int i183 = 0; i183 < 1; i183++) for (int i184 = 0; i184 < 1; i184++) for (int i185 = 0; i185 < 1; i185++) for (int i186 = 0; i186 < 1; i186++) for (int i187 = 0; i187 < 1; i187++) for (int i188 = 0; i188 < 1; i188++) for (int i189 = 0; i189 < 1; i189++) for (int i190 = 0; i190 < 1; i190++) for (int i191 = 0; i191 < 1; i191++) for (int i192 = 0; i192 < 1; i192++) for (int i193 = 0; i193 < 1; i193++) for (int i194 = 0; i194 < 1; i194++) for (int i195 = 0; i195 < 1; i195++) for (int i196 = 0; i196 < 1; i196++) for (int i197 = 0; i197 < 1; i197++) for (int i198 = 0; i198 < 1; i198++) for (int i199 = 0; i199 < 1; i199++) x += 1; return s;
}

 double tp_nested(double x, int n, int m) {
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
 double tp_nothing(double x, BD_UNIFORM int n) {
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


