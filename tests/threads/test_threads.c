/* NAME_batched and NAME_grad on the runtime's thread pool (issue 9).
 *
 * - identical results, bit for bit, for 1, 2, 3 and 7 threads: ret, varying
 *   shadows, uniform shadows (summed chunk by chunk, in chunk order), a
 *   ragged batch (per-example trip counts, array parameters, tapes) and a
 *   uniform array's shadow (BD_PAR_SERIAL);
 * - ret and varying shadows also equal calls on slices of the batch (each
 *   below the threshold, so on one thread): the chunks land where they
 *   belong;
 * - the threshold path: a batch below BD_PARALLEL_MIN_N runs on the calling
 *   thread whatever the thread count;
 * - several user threads calling at once get the single-threaded results;
 * - calls in a row, the thread count changing, workers polling or asleep:
 *   the single-threaded results every time;
 * - hooks under threads: a thread's hooks see the tape memory of its calls'
 *   workers, none in steady state, all freed at its exit; a worker that
 *   cannot get tape memory ends in the caller's fail hook on the caller's
 *   thread.
 * No timing assertions. */
#include <batchdiff.h>

#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "../common/test_filter.h"

#ifndef __BATCHDIFF__
#error "tests/threads must be compiled with the batchdiff plugin"
#endif

/* ---- functions under test ------------------------------------------------ */

BATCHDIFF double th_bs(double S, BD_UNIFORM double K, BD_UNIFORM double r,
                       double sigma, double T) {
  if (T <= 0.0)
    return fmax(S - K, 0.0);
  double vol = sigma * sqrt(T);
  double d1 = (log(S / K) + (r + 0.5 * sigma * sigma) * T) / vol;
  double d2 = d1 - vol;
  return S * 0.5 * erfc(-d1 * 0.7071067811865476) -
         K * exp(-r * T) * 0.5 * erfc(-d2 * 0.7071067811865476);
}

BATCHDIFF float th_soft(float x, BD_UNIFORM float w, BD_UNIFORM float b) {
  float z = w * x + b;
  return z > 20.0f ? z : log1pf(expf(z));
}

/* Ragged: example b runs n[b] steps over its own x; the grad needs a tape. */
BATCHDIFF float th_rnn(const float *x, int n, BD_UNIFORM float w,
                       BD_UNIFORM float u) {
  float h = 0.0f;
  for (int i = 0; i < n; i++)
    h = tanhf(w * h + u * x[i]);
  return h;
}

/* A uniform array's shadow: every chunk adds to the same elements. */
BATCHDIFF double th_poly(double x, BD_UNIFORM const double c[3]) {
  return c[0] + x * (c[1] + x * c[2]);
}

/* ---- data ------------------------------------------------------------------
 */

enum { MAXT = 9, BIG = 3 * BD_PARALLEL_MIN_N + 4101 };

typedef struct {
  uint64_t s;
} rng_t;
static double rnd(rng_t *r, double lo, double hi) {
  r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
  return lo + (hi - lo) * (double)(r->s >> 11) * 0x1p-53;
}

typedef struct {
  size_t n;
  double *S, *sig, *T, *seed;
  float *x, *fseed, *xs; /* xs: MAXT floats per example */
  int *k;
} in_t;

static in_t make_in(size_t n, uint64_t seed) {
  rng_t r = {seed};
  in_t in = {.n = n};
  in.S = malloc(n * 8);
  in.sig = malloc(n * 8);
  in.T = malloc(n * 8);
  in.seed = malloc(n * 8);
  in.x = malloc(n * 4);
  in.fseed = malloc(n * 4);
  in.xs = malloc(n * MAXT * 4);
  in.k = malloc(n * sizeof(int));
  for (size_t b = 0; b < n; b++) {
    in.S[b] = rnd(&r, 50, 150);
    in.sig[b] = rnd(&r, 0.05, 0.6);
    in.T[b] = b % 97 == 0 ? 0.0 : rnd(&r, 0.01, 3.0);
    in.seed[b] = rnd(&r, -1, 1);
    in.x[b] = (float)rnd(&r, -30, 30);
    in.fseed[b] = (float)rnd(&r, -1, 1);
    in.k[b] = (int)rnd(&r, 0, MAXT + 0.999);
    for (int i = 0; i < MAXT; i++)
      in.xs[b * MAXT + i] = (float)rnd(&r, -1, 1);
  }
  return in;
}
static void free_in(in_t *in) {
  free(in->S);
  free(in->sig);
  free(in->T);
  free(in->seed);
  free(in->x);
  free(in->fseed);
  free(in->xs);
  free(in->k);
}

/* Every output of one round of calls. */
typedef struct {
  size_t n;
  double *bs_ret, *bs_gret, *dS, *dsig, *dT, dK, dr;
  float *sp_ret, *sp_gret, *dx, dw, db;
  float *rn_ret, *rn_gret, *dxs, rdw, rdu;
  double *po_ret, *po_gret, *pdx, dc[3];
} out_t;

static out_t make_out(size_t n) {
  out_t o = {.n = n};
  double **d[] = {&o.bs_ret, &o.bs_gret, &o.dS,      &o.dsig,
                  &o.dT,     &o.po_ret,  &o.po_gret, &o.pdx};
  for (size_t i = 0; i < sizeof d / sizeof *d; i++)
    *d[i] = calloc(n + 1, 8);
  float **f[] = {&o.sp_ret, &o.sp_gret, &o.dx, &o.rn_ret, &o.rn_gret};
  for (size_t i = 0; i < sizeof f / sizeof *f; i++)
    *f[i] = calloc(n + 1, 4);
  o.dxs = calloc(n * MAXT + 1, 4);
  return o;
}
static void free_out(out_t *o) {
  void *p[] = {o->bs_ret, o->bs_gret, o->dS,      o->dsig,   o->dT,
               o->po_ret, o->po_gret, o->pdx,     o->sp_ret, o->sp_gret,
               o->dx,     o->rn_ret,  o->rn_gret, o->dxs};
  for (size_t i = 0; i < sizeof p / sizeof *p; i++)
    free(p[i]);
}

static const double K = 100.0, R = 0.03, C3[3] = {0.5, -1.25, 0.75};

/* Most threads that ran chunks of one call in the last run_range (this
 * thread's calls only). */
static _Thread_local int max_used;
static void note_used(void) {
  int u = bd_parallel_last_threads();
  max_used = u > max_used ? u : max_used;
}

/* Calls every function on examples [lo, lo + n) of in, writing the same
 * range of o; uniform shadows accumulate into o. */
static void run_range(const in_t *in, out_t *o, size_t lo, size_t n) {
  max_used = 0;
  th_bs_batched(n, in->S + lo, K, R, in->sig + lo, in->T + lo, o->bs_ret + lo);
  note_used();
  th_bs_grad(n, in->S + lo, K, R, in->sig + lo, in->T + lo, o->bs_gret + lo,
             in->seed + lo, o->dS + lo, &o->dK, &o->dr, o->dsig + lo,
             o->dT + lo);
  note_used();
  th_soft_batched(n, in->x + lo, 0.75f, 0.5f, o->sp_ret + lo);
  th_soft_grad(n, in->x + lo, 0.75f, 0.5f, o->sp_gret + lo, in->fseed + lo,
               o->dx + lo, &o->dw, &o->db);
  note_used();
  th_rnn_batched(n, in->xs + lo * MAXT, MAXT, in->k + lo, 0.9f, 0.6f,
                 o->rn_ret + lo);
  note_used();
  th_rnn_grad(n, in->xs + lo * MAXT, MAXT, in->k + lo, 0.9f, 0.6f,
              o->rn_gret + lo, NULL, o->dxs + lo * MAXT, MAXT, &o->rdw,
              &o->rdu);
  note_used();
  th_poly_batched(n, in->S + lo, C3, o->po_ret + lo);
  th_poly_grad(n, in->S + lo, C3, o->po_gret + lo, in->seed + lo, o->pdx + lo,
               o->dc);
  /* A uniform array's shadow: the call stays on this thread. */
  assert_int_equal(bd_parallel_last_threads(), 1);
}

#define SAME(a, b, n) assert_memory_equal((a), (b), (n) * sizeof *(a))

/* Per-example outputs of two rounds are the same bits. */
static void same_varying(const out_t *a, const out_t *b) {
  size_t n = a->n;
  SAME(a->bs_ret, b->bs_ret, n);
  SAME(a->bs_gret, b->bs_gret, n);
  SAME(a->dS, b->dS, n);
  SAME(a->dsig, b->dsig, n);
  SAME(a->dT, b->dT, n);
  SAME(a->sp_ret, b->sp_ret, n);
  SAME(a->sp_gret, b->sp_gret, n);
  SAME(a->dx, b->dx, n);
  SAME(a->rn_ret, b->rn_ret, n);
  SAME(a->rn_gret, b->rn_gret, n);
  SAME(a->dxs, b->dxs, n * MAXT);
  SAME(a->po_ret, b->po_ret, n);
  SAME(a->po_gret, b->po_gret, n);
  SAME(a->pdx, b->pdx, n);
}
static void same_uniform(const out_t *a, const out_t *b) {
  assert_memory_equal(&a->dK, &b->dK, 8);
  assert_memory_equal(&a->dr, &b->dr, 8);
  assert_memory_equal(&a->dw, &b->dw, 4);
  assert_memory_equal(&a->db, &b->db, 4);
  assert_memory_equal(&a->rdw, &b->rdw, 4);
  assert_memory_equal(&a->rdu, &b->rdu, 4);
  assert_memory_equal(a->dc, b->dc, sizeof a->dc);
}

/* ---- thread counts ------------------------------------------------------- */

static void thread_counts(void **st) {
  (void)st;
  static const size_t ns[] = {
      0, 1, BD_CHUNK + 3, BD_PARALLEL_MIN_N - 1, BD_PARALLEL_MIN_N, BIG};
  static const int counts[] = {2, 3, 7};
  for (size_t s = 0; s < sizeof ns / sizeof *ns; s++) {
    size_t n = ns[s];
    in_t in = make_in(n, 11 + s);
    bd_set_num_threads(1);
    out_t ref = make_out(n);
    run_range(&in, &ref, 0, n);
    /* Slices of 1000 (below the threshold): the same per-example bits. */
    out_t sl = make_out(n);
    for (size_t lo = 0; lo < n; lo += 1000)
      run_range(&in, &sl, lo, n - lo < 1000 ? n - lo : 1000);
    same_varying(&ref, &sl);
    free_out(&sl);
    for (int c = 0; c < 3; c++) {
      bd_set_num_threads(counts[c]);
      for (int rep = 0; rep < 2; rep++) {
        out_t o = make_out(n);
        run_range(&in, &o, 0, n);
        int used = max_used;
        if (n < BD_PARALLEL_MIN_N)
          assert_int_equal(used, 1); /* the threshold path */
        assert_true(used <= counts[c]);
        if (n == BIG && rep == 0)
          print_message("n = %zu, %d threads: at most %d ran chunks of one "
                        "call\n",
                        n, counts[c], used);
        same_varying(&ref, &o);
        same_uniform(&ref, &o);
        free_out(&o);
      }
    }
    free_out(&ref);
    free_in(&in);
  }
  bd_set_num_threads(0);
}

/* ---- calls in a row --------------------------------------------------------
 */

/* Short calls one after another, the thread count changing between them,
 * with a pause now and then: pool workers join while polling after the
 * last call, late, or after sleeping. The bits never change. */
static void calls_in_a_row(void **st) {
  (void)st;
  size_t n = BD_PARALLEL_MIN_N + 5;
  in_t in = make_in(n, 29);
  bd_set_num_threads(1);
  out_t ref = make_out(n);
  run_range(&in, &ref, 0, n);
  static const int counts[] = {2, 3, 1, 7};
  for (int i = 0; i < 24; i++) {
    if (i % 8 == 7) { /* long enough for the workers to go to sleep */
      struct timespec ts = {0, 20 * 1000 * 1000};
      nanosleep(&ts, NULL);
    }
    bd_set_num_threads(counts[i % 4]);
    out_t o = make_out(n);
    run_range(&in, &o, 0, n);
    assert_true(max_used <= counts[i % 4]);
    same_varying(&ref, &o);
    same_uniform(&ref, &o);
    free_out(&o);
  }
  free_out(&ref);
  free_in(&in);
  bd_set_num_threads(0);
}

/* ---- concurrent user threads ------------------------------------------------
 */

typedef struct {
  const in_t *in;
  const out_t *ref;
  int bad;
} conc_t;

static void *conc_fn(void *arg) {
  conc_t *c = arg;
  for (int rep = 0; rep < 3; rep++) {
    out_t o = make_out(c->in->n);
    run_range(c->in, &o, 0, c->in->n);
    c->bad += memcmp(o.bs_gret, c->ref->bs_gret, o.n * 8) != 0;
    c->bad += memcmp(o.dS, c->ref->dS, o.n * 8) != 0;
    c->bad += memcmp(o.dxs, c->ref->dxs, o.n * MAXT * 4) != 0;
    c->bad += memcmp(&o.dK, &c->ref->dK, 8) != 0;
    c->bad += memcmp(&o.rdw, &c->ref->rdw, 4) != 0;
    c->bad += memcmp(o.dc, c->ref->dc, sizeof o.dc) != 0;
    free_out(&o);
  }
  return NULL;
}

static void concurrent_callers(void **st) {
  (void)st;
  in_t in = make_in(BIG, 5);
  bd_set_num_threads(1);
  out_t ref = make_out(BIG);
  run_range(&in, &ref, 0, BIG);
  bd_set_num_threads(3);
  enum { NT = 4 };
  pthread_t th[NT];
  conc_t c[NT];
  for (int i = 0; i < NT; i++) {
    c[i] = (conc_t){&in, &ref, 0};
    assert_int_equal(pthread_create(&th[i], NULL, conc_fn, &c[i]), 0);
  }
  for (int i = 0; i < NT; i++) {
    assert_int_equal(pthread_join(th[i], NULL), 0);
    assert_int_equal(c[i].bad, 0);
  }
  bd_set_num_threads(0);
  free_out(&ref);
  free_in(&in);
}

/* ---- hooks under threads ----------------------------------------------------
 */

typedef struct {
  size_t allocs, frees, fails, refuse_from;
  pthread_t caller;
  int off_thread;
  char msg[256];
  jmp_buf *jb;
  size_t after_warm, after_more;
  int jumped, ok_after;
  int threads;
} hk_t;

static void *hk_alloc(size_t bytes, void *ctx) {
  hk_t *h = ctx;
  if (h->refuse_from && bytes >= h->refuse_from)
    return NULL;
  h->allocs++; /* hook calls of one thread's family never overlap */
  return malloc(bytes);
}
static void hk_free(void *p, void *ctx) {
  ((hk_t *)ctx)->frees++;
  free(p);
}
static void hk_fail(const char *msg, void *ctx) {
  hk_t *h = ctx;
  h->fails++;
  h->off_thread |= !pthread_equal(pthread_self(), h->caller);
  snprintf(h->msg, sizeof h->msg, "%s", msg);
  longjmp(*h->jb, 1);
}

static void rnn_grad_all(const in_t *in, float *ret, float *dxs, int *k) {
  float dw = 0, du = 0;
  th_rnn_grad(in->n, in->xs, MAXT, k, 0.9f, 0.6f, ret, NULL, dxs, MAXT, &dw,
              &du);
}

static void *hooks_thread(void *arg) {
  hk_t *h = arg;
  jmp_buf jb;
  h->caller = pthread_self();
  h->jb = &jb;
  bd_alloc_hooks hooks = {hk_alloc, hk_free, hk_fail, h};
  bd_set_alloc_hooks(&hooks);
  bd_set_num_threads(h->threads);
  in_t in = make_in(BIG, 9);
  float *ret = malloc(BIG * 4), *dxs = malloc(BIG * MAXT * 4);
  rnn_grad_all(&in, ret, dxs, in.k);
  h->after_warm = h->allocs;
  for (int i = 0; i < 10; i++)
    rnn_grad_all(&in, ret, dxs, in.k);
  h->after_more = h->allocs;
  /* Long trips for one example in 64: more tape than the hooks give. All
   * examples read one long x (stride 0); no d_x (it would be shared). */
  h->refuse_from = 1u << 20;
  int *big_k = malloc(BIG * sizeof(int));
  for (size_t b = 0; b < BIG; b++)
    big_k[b] = b % 64 == 0 ? 1 << 20 : in.k[b];
  float *xs = calloc(1u << 20, 4);
  if (setjmp(jb) == 0) {
    float dw = 0, du = 0;
    th_rnn_grad(BIG, xs, 0, big_k, 0.9f, 0.6f, NULL, NULL, NULL, 0, &dw, &du);
  } else {
    h->jumped = 1;
  }
  h->refuse_from = 0;
  float *ref = malloc(BIG * 4);
  rnn_grad_all(&in, ret, dxs, in.k);
  memcpy(ref, ret, BIG * 4);
  bd_set_num_threads(1);
  rnn_grad_all(&in, ret, dxs, in.k);
  h->ok_after = !memcmp(ref, ret, BIG * 4);
  free(ref);
  free(xs);
  free(big_k);
  free(ret);
  free(dxs);
  free_in(&in);
  return NULL;
}

static void hooks_under_threads(void **st) {
  (void)st;
  static const int counts[] = {1, 2, 7};
  size_t per_arena = 0;
  for (int c = 0; c < 3; c++) {
    hk_t *h = calloc(1, sizeof *h);
    h->threads = counts[c];
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, hooks_thread, h), 0);
    assert_int_equal(pthread_join(t, NULL), 0);
    print_message("%d threads: %zu allocs (%zu after 11 calls), %zu frees; "
                  "fail: %s\n",
                  counts[c], h->allocs, h->after_more, h->frees, h->msg);
    if (c == 0)
      per_arena = h->after_more;
    /* Each participant's arena allocates when it first runs a chunk. */
    assert_true(h->after_more >= 1);
    assert_true(h->after_more <= (size_t)counts[c] * per_arena + 1);
    assert_int_equal(h->jumped, 1);
    assert_int_equal(h->fails, 1);
    assert_false(h->off_thread);
    assert_non_null(strstr(h->msg, "tape arena: out of memory"));
    assert_true(h->ok_after);
    assert_int_equal(h->allocs, h->frees); /* all freed at thread exit */
    free(h);
  }
  bd_set_num_threads(0);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(thread_counts),
      cmocka_unit_test(calls_in_a_row),
      cmocka_unit_test(concurrent_callers),
      cmocka_unit_test(hooks_under_threads),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
