/* Large local arrays (issue 8, item 2): arrays past the stack budget of
 * generated code (16 KiB, plugin/emit/Frame.h) live in the runtime's arena.
 *
 * - gradients and primal of functions whose arrays are on the stack, in the
 *   arena, or split by the budget in declaration order; a uniform table;
 *   arena arrays next to a loop tape (grad_util.h: dual numbers, finite
 *   differences, accumulation, NULL shadows, guard pages);
 * - the same bits on 1 and 3 threads for a batch long enough for the pool
 *   (per-worker arenas);
 * - the documented maximum, four double[65536], batched and differentiated
 *   on a thread with a 256 KiB stack (test_frames_max.c): 16 MiB of frame
 *   before the fix.
 * This file is compiled with -Wframe-larger-than=32768 as an error
 * (tests/exec/CMakeLists.txt): every generated function here keeps its
 * frame within 16 KiB of arrays plus its temporaries. */
#include "grad_util.h"
#include "../common/test_filter.h"

#include <pthread.h>


/* ---- 1. a varying table in the arena, a small one on the stack --------- */
BATCHDIFF double fr_table(double x, double y, int k) {
  double t[1024]; /* 1024 vectors: past the budget */
  double s4[4] = {x, y, x * y, 1.0};
  for (int i = 0; i < 1024; i++)
    t[i] = x * (double)i + y * s4[i & 3];
  double acc = 0.0;
  for (int i = 0; i < 8; i++)
    acc += t[(k + 131 * i) & 1023] * s4[(i + k) & 3];
  return acc + t[1023];
}
static dual dual_fr_table(dual x, dual y, int k) {
  dual s4[4] = {x, y, dmul(x, y), dc(1.0)};
  dual acc = dc(0.0);
  for (int i = 0; i < 8; i++) {
    int j = (k + 131 * i) & 1023;
    dual tj = dadd(dscale(x, (double)j), dmul(y, s4[j & 3]));
    acc = dadd(acc, dmul(tj, s4[(i + k) & 3]));
  }
  return dadd(acc, dadd(dscale(x, 1023.0), dmul(y, s4[1023 & 3])));
}
static double s_fr_table(const double *a) {
  return fr_table(a[0], a[1], (int)a[2]);
}
static double d_fr_table(const double *a, int j) {
  dual x[2];
  dseed(x, a, 2, j);
  return dual_fr_table(x[0], x[1], (int)a[2]).d;
}
static void b_fr_table(size_t n, double *const *A, double *r) {
  fr_table_batched(n, A[0], A[1], to_i(A[2], n), r);
}
static void g_fr_table(size_t n, double *const *A, double *r, const double *dr,
                       double *const *S) {
  fr_table_grad(n, A[0], A[1], to_i(A[2], n), r, dr, S[0], S[1]);
}
static void sm_table(rng_t *r, double *a) {
  a[0] = rng_range(r, -2, 2);
  a[1] = rng_range(r, -2, 2);
  a[2] = (double)(int)rng_range(r, -3000, 3000);
}
static const gcase c_fr_table = {
    "fr_table", 3,          {P_VD, P_VD, P_VN}, 0,         0,
    s_fr_table, d_fr_table, b_fr_table,         g_fr_table, sm_table};
GTEST(c_fr_table)

/* ---- 2. the budget in declaration order: a stays, b goes, c stays ------ */
BATCHDIFF double fr_budget(double x, double y) {
  double a[200], b[200], c[8];
  for (int i = 0; i < 200; i++) {
    a[i] = x + (double)i;
    b[i] = a[i] * y;
  }
  for (int i = 0; i < 8; i++)
    c[i] = b[i * 25] - a[199 - i * 25];
  return c[0] * c[7] + c[3] / (1.0 + c[5] * c[5]);
}
static dual dual_fr_budget(dual x, dual y) {
  dual c[8];
  for (int i = 0; i < 8; i++) {
    dual ai = dadd(x, dc((double)(i * 25)));
    dual aj = dadd(x, dc((double)(199 - i * 25)));
    c[i] = dsub(dmul(ai, y), aj);
  }
  return dadd(dmul(c[0], c[7]),
              ddiv(c[3], dadd(dc(1.0), dmul(c[5], c[5]))));
}
static double s_fr_budget(const double *a) { return fr_budget(a[0], a[1]); }
static double d_fr_budget(const double *a, int j) {
  dual x[2];
  dseed(x, a, 2, j);
  return dual_fr_budget(x[0], x[1]).d;
}
static void b_fr_budget(size_t n, double *const *A, double *r) {
  fr_budget_batched(n, A[0], A[1], r);
}
static void g_fr_budget(size_t n, double *const *A, double *r,
                        const double *dr, double *const *S) {
  fr_budget_grad(n, A[0], A[1], r, dr, S[0], S[1]);
}
static void sm_budget(rng_t *r, double *a) {
  a[0] = rng_range(r, -3, 3);
  a[1] = rng_range(r, -3, 3);
}
static const gcase c_fr_budget = {
    "fr_budget", 2,           {P_VD, P_VD}, 0,          0,
    s_fr_budget, d_fr_budget, b_fr_budget,  g_fr_budget, sm_budget};
GTEST(c_fr_budget)

/* ---- 3. a uniform table (one per call, not per lane) in the arena ------ */
BATCHDIFF double fr_uniform(double x, double y, int k) {
  double tab[4096];
  for (int i = 0; i < 4096; i++)
    tab[i] = sqrt((double)i) * 0.125;
  return tab[k & 4095] * x + y * tab[(k >> 3) & 4095];
}
static double s_fr_uniform(const double *a) {
  return fr_uniform(a[0], a[1], (int)a[2]);
}
static double d_fr_uniform(const double *a, int j) {
  int k = (int)a[2];
  dual x[2];
  dseed(x, a, 2, j);
  dual r = dadd(dscale(x[0], sqrt((double)(k & 4095)) * 0.125),
                dscale(x[1], sqrt((double)((k >> 3) & 4095)) * 0.125));
  return r.d;
}
static void b_fr_uniform(size_t n, double *const *A, double *r) {
  fr_uniform_batched(n, A[0], A[1], to_i(A[2], n), r);
}
static void g_fr_uniform(size_t n, double *const *A, double *r,
                         const double *dr, double *const *S) {
  fr_uniform_grad(n, A[0], A[1], to_i(A[2], n), r, dr, S[0], S[1]);
}
static void sm_uniform(rng_t *r, double *a) {
  a[0] = rng_range(r, -3, 3);
  a[1] = rng_range(r, -3, 3);
  a[2] = (double)(int)rng_range(r, -40000, 40000);
}
static const gcase c_fr_uniform = {
    "fr_uniform", 3,            {P_VD, P_VD, P_VN}, 0,           0,
    s_fr_uniform, d_fr_uniform, b_fr_uniform,       g_fr_uniform, sm_uniform};
GTEST(c_fr_uniform)

/* ---- 4. an arena array next to the tape of a ragged loop --------------- */
BATCHDIFF double fr_tape(double x, int n) {
  double t[512] = {0};
  double p = x;
  for (int i = 0; i < n; i++) {
    p = p * 0.75 + sin(p) * 0.5;
    t[i & 511] = p;
  }
  return t[(n + 511) & 511] + p * t[n & 511];
}
static dual dual_fr_tape(dual x, int n) {
  /* t[i & 511] holds the p of the last iteration i with that index. */
  dual t[512];
  for (int i = 0; i < 512; i++)
    t[i] = dc(0.0);
  dual p = x;
  for (int i = 0; i < n; i++) {
    p = dadd(dscale(p, 0.75), dscale(dsin(p), 0.5));
    t[i & 511] = p;
  }
  return dadd(t[(n + 511) & 511], dmul(p, t[n & 511]));
}
static double s_fr_tape(const double *a) { return fr_tape(a[0], (int)a[1]); }
static double d_fr_tape(const double *a, int j) {
  (void)j;
  return dual_fr_tape(dv(a[0]), (int)a[1]).d;
}
static void b_fr_tape(size_t n, double *const *A, double *r) {
  fr_tape_batched(n, A[0], to_i(A[1], n), r);
}
static void g_fr_tape(size_t n, double *const *A, double *r, const double *dr,
                      double *const *S) {
  fr_tape_grad(n, A[0], to_i(A[1], n), r, dr, S[0]);
}
static void sm_tape(rng_t *r, double *a) {
  a[0] = rng_range(r, -2, 2);
  a[1] = (double)(int)rng_range(r, 0, 700);
}
static const gcase c_fr_tape = {
    "fr_tape", 2,         {P_VD, P_VN}, 0,        0,
    s_fr_tape, d_fr_tape, b_fr_tape,    g_fr_tape, sm_tape};
GTEST(c_fr_tape)

/* ---- 5. threads: per-worker arenas give the same bits ----------------- */
static void threads_same_bits(void **state) {
  (void)state;
  const size_t n = 3 * BD_PARALLEL_MIN_N / 2 + 5;
  double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
  int *k = malloc(n * sizeof *k);
  double *r1 = malloc(n * sizeof *r1), *r3 = malloc(n * sizeof *r3);
  double *dx1 = calloc(n, sizeof *dx1), *dx3 = calloc(n, sizeof *dx3);
  double *dy1 = calloc(n, sizeof *dy1), *dy3 = calloc(n, sizeof *dy3);
  rng_t rng = {name_seed("threads_same_bits")};
  for (size_t b = 0; b < n; b++) {
    x[b] = rng_range(&rng, -2, 2);
    y[b] = rng_range(&rng, -2, 2);
    k[b] = (int)rng_range(&rng, -3000, 3000);
  }
  bd_set_num_threads(3);
  fr_table_batched(n, x, y, k, r3);
  for (size_t b = 0; b < n; b++)
    if (!same_val(r3[b], fr_table(x[b], y[b], k[b])))
      fail_msg("3 threads: batched %.17g != scalar at b=%zu", r3[b], b);
  bd_set_num_threads(1);
  fr_table_grad(n, x, y, k, r1, NULL, dx1, dy1);
  /* Until a call ran chunks on more than one thread: the runtime may keep
   * a call on the calling thread (it takes the pool or not by what each
   * way measured, the pool at least every 8th call), and a worker woken on
   * a busy machine may start after the caller took every chunk. */
  bd_set_num_threads(3);
  int used = 1, calls = 0;
  for (; calls < 32 && used < 2; calls++) {
    memset(dx3, 0, n * sizeof *dx3);
    memset(dy3, 0, n * sizeof *dy3);
    fr_table_grad(n, x, y, k, r3, NULL, dx3, dy3);
    used = bd_parallel_last_threads();
    assert_memory_equal(r1, r3, n * sizeof *r1);
    assert_memory_equal(dx1, dx3, n * sizeof *dx1);
    assert_memory_equal(dy1, dy3, n * sizeof *dy1);
  }
  bd_set_num_threads(0);
  if (used < 2)
    fail_msg("no call of %d on 3 threads ran chunks on another thread", calls);
  free(x), free(y), free(k), free(r1), free(r3);
  free(dx1), free(dx3), free(dy1), free(dy3);
}

/* ---- 6. the documented maximum on a small stack (test_frames_max.c) --- */
int frames_max_run(size_t n, const double *x, const int *k, double *ret,
                   double *dx);
double fr_max(double x, int k);

typedef struct {
  size_t n;
  const double *x;
  const int *k;
  double *ret, *dx;
  int ok;
} max_job;

static void *max_thread(void *p) {
  max_job *j = p;
  j->ok = frames_max_run(j->n, j->x, j->k, j->ret, j->dx);
  return NULL;
}

static void max_arrays_small_stack(void **state) {
  (void)state;
  enum { N = 2 * BD_WN + 3 };
  double x[N], ret[N], dx[N];
  int k[N];
  for (int b = 0; b < N; b++) {
    x[b] = 0.25 * (b + 1) - 1.5;
    k[b] = b == 0 ? 0 : b == 1 ? 65535 : b == 2 ? -1 : 977 * b;
  }
  max_job j = {N, x, k, ret, dx, 0};
  pthread_attr_t at;
  pthread_t t;
  assert_int_equal(pthread_attr_init(&at), 0);
  assert_int_equal(pthread_attr_setstacksize(&at, 256 * 1024), 0);
  assert_int_equal(pthread_create(&t, &at, max_thread, &j), 0);
  assert_int_equal(pthread_join(t, NULL), 0);
  pthread_attr_destroy(&at);
  assert_true(j.ok);
  for (int b = 0; b < N; b++) {
    /* The scalar function's own 2 MiB frame needs the main stack. */
    double want = fr_max(x[b], k[b]);
    if (!same_val(ret[b], want))
      fail_msg("ret %.17g != scalar %.17g at b=%d", ret[b], want, b);
    /* w = v * v, v = t * x + t, t = x * i at i = k & 65535 */
    double i = (double)(k[b] & 65535);
    dual xd = dv(x[b]), t = dscale(xd, i), v = dadd(dmul(t, xd), t);
    double g = dmul(v, v).d;
    if (!close_to(dx[b], g, 1e-12))
      fail_msg("d_x %.17g != %.17g at b=%d", dx[b], g, b);
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      GT_(c_fr_table),
      GT_(c_fr_budget),
      GT_(c_fr_uniform),
      GT_(c_fr_tape),
      cmocka_unit_test(threads_same_bits),
      cmocka_unit_test(max_arrays_small_stack),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_frames", tests, NULL, NULL);
}
