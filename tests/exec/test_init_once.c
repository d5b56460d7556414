/* Static tables filled once, lazily (docs/globals.md, "Tables filled
 * once"): `if (!ready) init_table();` where init_table fills static
 * globals from constants and sets ready, or the same block written in
 * place. The scalar loop runs the block when the first example reaches it;
 * NAME_batched and NAME_grad run it the same way (a function of the
 * generated code, called per example where the examples reach it, on the
 * calling thread, in example order). Checked: NAME_batched and NAME_grad's
 * values bit for bit against the scalar loop, over every n of test_ns with
 * lanes that reach the block or not; the tables and flags the generated
 * functions leave, bit for bit against what the scalar loop leaves, from
 * the same state (reset between runs: the block printed into the generated
 * code computes what the scalar code does); a first call where no example
 * reaches the block leaves it unrun, as the scalar loop does; NAME_grad
 * against central differences. */
#include "exec_fd.h"
#include "exec_util.h"

#include "../common/test_filter.h"

#include <stdbool.h>

/* 1. u4's shape: the block in a static helper, a scalar it also fills. */
static double table[64];
static double scale;
static int table_ready = 0;
static void init_table(void) {
  for (int i = 0; i < 64; i++)
    table[i] = exp(-0.1 * i);
  scale = table[3] * 0.5;
  table_ready = 1;
}
BATCHDIFF double lazy(double x) {
  if (!table_ready)
    init_table();
  int i = (int)fabs(x * 10) % 64;
  return table[i] * x + scale * x * x + table_ready;
}

/* 2. The block in place, `== 0`, a float table, a local of the block. */
static float wave[32];
static double wave_sum;
static int wave_done;
BATCHDIFF double lazy_inline(double x, int k) {
  if (wave_done == 0) {
    double acc = 0.0;
    for (int i = 0; i < 32; i++) {
      wave[i] = (float)(sin(0.3 * i) + 0.25 * cos(1.7 * i));
      acc += wave[i];
    }
    wave_sum = acc;
    wave_done = 1;
  }
  return wave[k & 31] * x * x + wave_sum;
}

/* 3. Reached by some examples only (x > 2): a call where none does leaves
 * the table and flag as they were. A _Bool flag read after the block. */
static double steps[16];
static bool steps_ready;
static void fill_steps(void) {
  for (int i = 0; i < 16; i++)
    steps[i] = 1.0 + i * i / 8.0;
  steps_ready = true;
}
BATCHDIFF double lazy_branch(double x) {
  if (x > 2.0) {
    if (!steps_ready)
      fill_steps();
    return x * steps[(int)x % 16] + (steps_ready ? 1.0 : 0.0);
  }
  return -x;
}

/* 4. The guard in a helper the plugin inlines, inside a loop; the table
 * passed to the helper that fills it. */
static double coef[8];
static int coef_ready;
static void init_coef(double *c, int n) {
  double f = 1.0;
  for (int i = 0; i < n; i++) {
    f /= (i + 1);
    c[i] = f;
  }
  coef_ready = 1;
}
static double coef_at(int i) {
  if (!coef_ready)
    init_coef(coef, 8);
  return coef[i];
}
BATCHDIFF double lazy_series(double x, int n) {
  double s = 1.0, p = 1.0;
  for (int k = 0; k < n && k < 8; k++) {
    p *= x;
    s += coef_at(k) * p;
  }
  return s;
}

/* Not annotated: back to the state before any call. */
static void reset_all(void) {
  memset(table, 0, sizeof table);
  scale = 0.0;
  table_ready = 0;
  memset(wave, 0, sizeof wave);
  wave_sum = 0.0;
  wave_done = 0;
  memset(steps, 0, sizeof steps);
  steps_ready = false;
  memset(coef, 0, sizeof coef);
  coef_ready = 0;
}

/* Everything the blocks fill, to compare bit for bit. */
typedef struct {
  double table[64], scale, wave_sum, steps[16], coef[8];
  float wave[32];
  int table_ready, wave_done, coef_ready;
  bool steps_ready;
} state_t;

static void snap(state_t *s) {
  memset(s, 0, sizeof *s);
  memcpy(s->table, table, sizeof table);
  s->scale = scale;
  s->table_ready = table_ready;
  memcpy(s->wave, wave, sizeof wave);
  s->wave_sum = wave_sum;
  s->wave_done = wave_done;
  memcpy(s->steps, steps, sizeof steps);
  s->steps_ready = steps_ready;
  memcpy(s->coef, coef, sizeof coef);
  s->coef_ready = coef_ready;
}

static void same(const char *what, size_t e, double got, double want) {
  if (memcmp(&got, &want, sizeof got)) {
    print_error("%s example %zu: %.17g, want %.17g\n", what, e, got, want);
    fail();
  }
}

static void states_equal(const char *what, size_t n, const state_t *got,
                         const state_t *want) {
  if (memcmp(got, want, sizeof *got)) {
    print_error("%s n=%zu: the globals the block fills differ from the "
                "scalar loop's\n",
                what, n);
    fail();
  }
}

/* The inputs of one run: x, k; reach: how many examples take x > 2 (some
 * functions only), 0 = none. */
static void inputs(rng_t *rng, size_t n, double *x, int *k, int mode) {
  for (size_t e = 0; e < n; e++) {
    x[e] = rng_range(rng, -3.0, 3.0);
    if (mode == 0 && x[e] > 2.0) /* no example reaches the block */
      x[e] -= 2.5;
    if (mode == 2 && e + 1 == n) /* only the last one may */
      x[e] = 2.5;
    if (mode == 2 && e + 1 < n && x[e] > 2.0)
      x[e] = 1.0;
    k[e] = (int)rng_below(rng, 40);
  }
}

static double lazy_x(double x, const void *c) {
  (void)c;
  return lazy(x);
}
static double inline_x(double x, const void *c) {
  return lazy_inline(x, *(const int *)c);
}
static double branch_x(double x, const void *c) {
  (void)c;
  return lazy_branch(x);
}
static double series_x(double x, const void *c) {
  return lazy_series(x, *(const int *)c);
}

/* Function f of the file by number, scalar, batched, grad, for one n. */
static double scalar_of(int f, double x, int k) {
  switch (f) {
  case 0:
    return lazy(x);
  case 1:
    return lazy_inline(x, k);
  case 2:
    return lazy_branch(x);
  default:
    return lazy_series(x, k);
  }
}
static void batched_of(int f, size_t n, const double *x, const int *k,
                       double *r) {
  switch (f) {
  case 0:
    lazy_batched(n, x, r);
    break;
  case 1:
    lazy_inline_batched(n, x, k, r);
    break;
  case 2:
    lazy_branch_batched(n, x, r);
    break;
  default:
    lazy_series_batched(n, x, k, r);
  }
}
static void grad_of(int f, size_t n, const double *x, const int *k, double *r,
                    double *d) {
  switch (f) {
  case 0:
    lazy_grad(n, x, r, NULL, d);
    break;
  case 1:
    lazy_inline_grad(n, x, k, r, NULL, d);
    break;
  case 2:
    lazy_branch_grad(n, x, r, NULL, d);
    break;
  default:
    lazy_series_grad(n, x, k, r, NULL, d);
  }
}

static const char *const names[] = {"lazy", "lazy_inline", "lazy_branch",
                                    "lazy_series"};
static const fd_fn fds[] = {lazy_x, inline_x, branch_x, series_x};

/* One function f over every n, with inputs of mode (1: any; 0: none
 * reaches lazy_branch's block; 2: only the last example does). */
static void run(int f, int mode, fd_count *fc, uint64_t seed) {
  rng_t rng = {seed};
  for (size_t t = 0; t < N_TEST_NS; t++) {
    size_t n = test_ns[t];
    double *x = gp_alloc(n * 8), *r = gp_alloc(n * 8), *g = gp_alloc(n * 8);
    double *want = gp_alloc(n * 8), *d = gp_alloc(n * 8);
    int *k = gp_alloc(n * sizeof(int));
    inputs(&rng, n, x, k, mode);
    gp_seal(x);
    gp_seal(k);
    static state_t scal, bat, grd;
    /* The scalar loop from the state before any call. */
    reset_all();
    for (size_t e = 0; e < n; e++)
      want[e] = scalar_of(f, x[e], k[e]);
    snap(&scal);
    /* NAME_batched from the same state, then again with the block run. */
    reset_all();
    batched_of(f, n, x, k, r);
    snap(&bat);
    states_equal(names[f], n, &bat, &scal);
    for (size_t e = 0; e < n; e++)
      same(names[f], e, r[e], want[e]);
    batched_of(f, n, x, k, r);
    for (size_t e = 0; e < n; e++)
      same(names[f], e, r[e], want[e]);
    /* NAME_grad from the same state: its values, what it leaves. */
    reset_all();
    for (size_t e = 0; e < n; e++)
      d[e] = 0.0;
    grad_of(f, n, x, k, g, d);
    snap(&grd);
    states_equal(names[f], n, &grd, &scal);
    for (size_t e = 0; e < n; e++)
      same(names[f], e, g[e], want[e]);
    /* Its derivatives (central differences of the scalar function, which
     * sees the tables the scalar loop filled). */
    for (size_t e = 0; e < n; e++)
      fd_check(fc, names[f], fds[f], &k[e], x[e], d[e]);
    gp_reset();
  }
}

static void t_helper(void **state) {
  (void)state;
  fd_count fc = {0, 64};
  run(0, 1, &fc, 0x5851F42D4C957F2DULL);
  fd_expect(&fc, "lazy", 300);
}

static void t_inline(void **state) {
  (void)state;
  fd_count fc = {0, 64};
  run(1, 1, &fc, 0x14057B7EF767814FULL);
  fd_expect(&fc, "lazy_inline", 300);
}

static void t_branch(void **state) {
  (void)state;
  fd_count fc = {0, 64};
  run(2, 1, &fc, 0x9E3779B97F4A7C15ULL);
  run(2, 2, &fc, 0x2545F4914F6CDD1DULL);
  fd_expect(&fc, "lazy_branch", 300);
  /* No example reaches the block: it does not run (the scalar loop's
   * state is compared too, in run). */
  double x[5] = {-1.0, 0.5, 1.9, -2.5, 2.0}, r[5], d[5] = {0};
  reset_all();
  lazy_branch_batched(5, x, r);
  assert_false(steps_ready);
  assert_true(steps[3] == 0.0);
  lazy_branch_grad(5, x, r, NULL, d);
  assert_false(steps_ready);
  run(2, 0, &fc, 0x6A09E667F3BCC909ULL);
}

static void t_series(void **state) {
  (void)state;
  fd_count fc = {0, 64};
  run(3, 1, &fc, 0xBB67AE8584CAA73BULL);
  fd_expect(&fc, "lazy_series", 300);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_helper), cmocka_unit_test(t_inline),
      cmocka_unit_test(t_branch), cmocka_unit_test(t_series)};
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_init_once", tests, NULL, NULL);
}
