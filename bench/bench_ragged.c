/* Ragged batches without padding (issue 11): a tanh RNN with uniform
 * weights over sequences of long-tailed lengths 1..256, in three layouts
 * (padded/strided, BD_PACKED offsets, BD_POINTERS), against the scalar
 * function looped over the padded batch (it runs each example's own
 * length; padding costs memory, not time). Prints ns per element (an
 * element: one step of one sequence), the ratio to the scalar loop, and
 * the bytes each layout needs; each batched layout with its chunks sorted
 * by length (the default) and in the caller's order (sort-by-length=0).
 * `bench_ragged mem packed|pointers|strided` builds only that layout, runs
 * NAME_batched and NAME_grad over it and prints the peak RSS against the
 * layout's bytes. Single-threaded (bd_set_num_threads(1)).
 * Usage: bench_ragged [examples] [reps]   (default 100000 15) */
#include "bench_util.h"

#include <batchdiff/batchdiff_rt.h>

#include <string.h>
#include <sys/resource.h>

#define MAXLEN 256
float rg_strided(const float *x, int n, float w, float u);
void rg_strided_batched(size_t n_, const float *x, ptrdiff_t x_stride,
                        const int *n, float w, float u, float *ret);
void rg_strided_grad(size_t n_, const float *x, ptrdiff_t x_stride,
                     const int *n, float w, float u, float *ret,
                     const float *d_ret, float *d_x, ptrdiff_t d_x_stride,
                     float *d_w, float *d_u);
void rg_packed_batched(size_t n_, const float *x, const size_t *x_off,
                       const int *n, float w, float u, float *ret);
void rg_packed_inorder_batched(size_t n_, const float *x, const size_t *x_off,
                               const int *n, float w, float u, float *ret);
void rg_packed_grad(size_t n_, const float *x, const size_t *x_off,
                    const int *n, float w, float u, float *ret,
                    const float *d_ret, float *d_x, float *d_w, float *d_u);
void rg_packed_inorder_grad(size_t n_, const float *x, const size_t *x_off,
                            const int *n, float w, float u, float *ret,
                            const float *d_ret, float *d_x, float *d_w,
                            float *d_u);
void rg_pointers_batched(size_t n_, const float *const *x, const int *n,
                         float w, float u, float *ret);
void rg_pointers_inorder_batched(size_t n_, const float *const *x, const int *n,
                                 float w, float u, float *ret);
void rg_pointers_grad(size_t n_, const float *const *x, const int *n, float w,
                      float u, float *ret, const float *d_ret,
                      float *const *d_x, float *d_w, float *d_u);
void rg_strided_inorder_batched(size_t n_, const float *x, ptrdiff_t x_stride,
                                const int *n, float w, float u, float *ret);

static const float W = 0.9f, U = 0.7f;

typedef struct {
  size_t nb, tot;
  int *len;
  float *pad;    /* nb * MAXLEN */
  float *packed; /* tot */
  size_t *off;   /* nb + 1 */
  const float **ptr;
  float *ret;
} rg_data;

static int rg_len(bd_bench_rng *g) {
  /* long-tailed on 1..256: P(len > L) ~ (L / 256)^(1/4); mean ~52 */
  double u = bd_bench_uniform(g, 0.0, 1.0);
  return 1 + (int)(255.0 * u * u * u * u);
}

static void rg_scalar(void *v) {
  rg_data *d = v;
  for (size_t b = 0; b < d->nb; b++)
    d->ret[b] = rg_strided(d->pad + b * MAXLEN, d->len[b], W, U);
}
static void rg_strided_b(void *v) {
  rg_data *d = v;
  rg_strided_batched(d->nb, d->pad, MAXLEN, d->len, W, U, d->ret);
}
static void rg_packed_b(void *v) {
  rg_data *d = v;
  rg_packed_batched(d->nb, d->packed, d->off, d->len, W, U, d->ret);
}
static void rg_packed_io(void *v) {
  rg_data *d = v;
  rg_packed_inorder_batched(d->nb, d->packed, d->off, d->len, W, U, d->ret);
}
static void rg_pointers_b(void *v) {
  rg_data *d = v;
  rg_pointers_batched(d->nb, d->ptr, d->len, W, U, d->ret);
}
static void rg_pointers_io(void *v) {
  rg_data *d = v;
  rg_pointers_inorder_batched(d->nb, d->ptr, d->len, W, U, d->ret);
}

static long rg_maxrss_kib(void) {
  struct rusage r;
  getrusage(RUSAGE_SELF, &r);
  return r.ru_maxrss;
}

static void rg_fill(rg_data *d, size_t nb, int want_pad, int want_packed) {
  bd_bench_rng g = {42};
  d->nb = nb;
  d->len = bd_bench_alloc(nb, sizeof(int));
  d->tot = 0;
  for (size_t b = 0; b < nb; b++)
    d->tot += (size_t)(d->len[b] = rg_len(&g));
  d->ret = bd_bench_alloc(nb, sizeof(float));
  d->pad = want_pad ? bd_bench_alloc(nb * MAXLEN, sizeof(float)) : NULL;
  d->packed = want_packed ? bd_bench_alloc(d->tot, sizeof(float)) : NULL;
  d->off = want_packed ? bd_bench_alloc(nb + 1, sizeof(size_t)) : NULL;
  d->ptr = want_packed ? bd_bench_alloc(nb, sizeof(float *)) : NULL;
  size_t o = 0;
  for (size_t b = 0; b < nb; b++) {
    if (want_packed) {
      d->off[b] = o;
      d->ptr[b] = d->packed + o;
    }
    for (int i = 0; i < d->len[b]; i++) {
      float v = (float)bd_bench_uniform(&g, -1.0, 1.0);
      if (want_pad)
        d->pad[b * MAXLEN + (size_t)i] = v;
      if (want_packed)
        d->packed[o + (size_t)i] = v;
    }
    o += (size_t)d->len[b];
  }
  if (want_packed)
    d->off[nb] = o;
}

/* Peak RSS of one layout alone (a fresh process per layout). */
static int rg_mem(const char *which, size_t nb) {
  long before = rg_maxrss_kib();
  rg_data d;
  int packed = strcmp(which, "strided") != 0;
  rg_fill(&d, nb, !packed, packed);
  float dw = 0, du = 0;
  float *dx = bd_bench_alloc(packed ? d.tot : nb * MAXLEN, sizeof(float));
  size_t bytes = 0, gbytes = 0;
  if (!strcmp(which, "packed")) {
    rg_packed_batched(nb, d.packed, d.off, d.len, W, U, d.ret);
    rg_packed_grad(nb, d.packed, d.off, d.len, W, U, d.ret, NULL, dx, &dw, &du);
    bytes = d.tot * sizeof(float) + (nb + 1) * sizeof(size_t);
  } else if (!strcmp(which, "pointers")) {
    float **dp = bd_bench_alloc(nb, sizeof(float *));
    size_t o = 0;
    for (size_t b = 0; b < nb; b++, o += (size_t)d.len[b - 1])
      dp[b] = dx + o;
    rg_pointers_batched(nb, d.ptr, d.len, W, U, d.ret);
    rg_pointers_grad(nb, d.ptr, d.len, W, U, d.ret, NULL, dp, &dw, &du);
    bytes = d.tot * sizeof(float) + nb * sizeof(float *);
    gbytes = nb * sizeof(float *);
  } else {
    rg_strided_batched(nb, d.pad, MAXLEN, d.len, W, U, d.ret);
    rg_strided_grad(nb, d.pad, MAXLEN, d.len, W, U, d.ret, NULL, dx, MAXLEN,
                    &dw, &du);
    bytes = nb * MAXLEN * sizeof(float);
  }
  /* What the caller holds: x and d_x in the layout, len, ret. */
  size_t held = 2 * bytes + gbytes + nb * (sizeof(int) + sizeof(float));
  long peak = rg_maxrss_kib() - before;
  printf("MEM|%s|layout %zu bytes|caller holds %zu bytes (x, d_x, len, "
         "ret)|peak RSS growth %ld KiB|ratio %.3f\n",
         which, bytes, held, peak, (double)peak * 1024.0 / (double)held);
  return 0;
}

int main(int argc, char **argv) {
  size_t nb = 100000;
  int reps = 15;
  if (argc >= 3 && !strcmp(argv[1], "mem")) {
    bd_set_num_threads(1);
    return rg_mem(argv[2], argc >= 4 ? (size_t)atol(argv[3]) : nb);
  }
  if (argc >= 2)
    nb = (size_t)atol(argv[1]);
  if (argc >= 3)
    reps = atoi(argv[2]);
  bd_set_num_threads(1);
  rg_data d;
  rg_fill(&d, nb, 1, 1);
  printf("bench_ragged: %zu sequences, %zu elements (mean length %.1f), "
         "1 thread\n",
         nb, d.tot, (double)d.tot / (double)nb);
  printf("bytes: padded %zu, packed %zu (+ %zu offsets), pointers %zu\n",
         nb * MAXLEN * sizeof(float), d.tot * sizeof(float),
         (nb + 1) * sizeof(size_t), nb * sizeof(float *));
  /* Correctness: every layout against the scalar function. */
  float *ref = bd_bench_alloc(nb, sizeof(float));
  rg_scalar(&d);
  memcpy(ref, d.ret, nb * sizeof(float));
  void (*fns[])(void *) = {rg_strided_b, rg_packed_b, rg_packed_io,
                           rg_pointers_b, rg_pointers_io};
  const char *names[] = {"strided (padded)", "packed sorted", "packed in order",
                         "pointers sorted", "pointers in order"};
  for (int k = 0; k < 5; k++) {
    fns[k](&d);
    if (bd_bench_check(names[k], bd_bench_maxrel_f(d.ret, ref, nb, 1e-3), 1e-4))
      return 1;
  }
  /* ROW|group|layout|scalar ns/elem|batched ns/elem|speedup|target */
  for (int k = 0; k < 5; k++) {
    double ts, tb;
    bd_bench_pair(rg_scalar, &d, fns[k], &d, reps, NULL, NULL, &ts, &tb);
    bd_bench_row("ragged rnn", names[k], ts, tb, d.tot, k == 1 ? ">= 8x" : "");
  }
  return 0;
}
