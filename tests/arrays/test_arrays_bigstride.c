/* Strides whose lane offsets do not fit in 32 bits: the contract allows any
 * stride. With 8 float lanes (AVX2), lane 7 of a chunk starts 7 * stride
 * elements after lane 0; a stride of 2^28 + 2^26 floats (1.25 GiB) makes
 * that 2.35e9 > INT32_MAX. The buffer is a MAP_NORESERVE mapping of ~11 GB
 * of address space of which only the touched pages are ever backed; the
 * test is skipped when the mapping cannot be made. Separate executable so
 * that a failure here does not hide the other array tests. */
#include "arrays_util.h"
#include "../common/test_filter.h"

BATCHDIFF float bs_dot(const float *x, BD_UNIFORM const float *w, int n) {
  float s = 0.0f;
  for (int i = 0; i < n; i++)
    s += x[i] * w[i];
  return s;
}
BATCHDIFF float bs_s3(const float x[3]) {
  return x[0] + 2.0f * x[1] + 4.0f * x[2];
}

enum { NB = 9 };
static const ptrdiff_t BIG = ((ptrdiff_t)1 << 28) + ((ptrdiff_t)1 << 26);

static float *big_map(size_t *len) {
  *len = (size_t)BIG * NB * sizeof(float);
  float *p = mmap(NULL, *len, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  return p == MAP_FAILED ? NULL : p;
}

static void t_big_primal(void **st) {
  (void)st;
  size_t len;
  float *x = big_map(&len);
  if (!x)
    skip();
  float w[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  int n[NB];
  for (int b = 0; b < NB; b++) {
    n[b] = b % 5;
    for (int i = 0; i < 4; i++)
      x[b * BIG + i] = (float)(b + 1) + 0.125f * (float)i;
  }
  float r[NB];
  bs_dot_batched(NB, x, BIG, w, n, r);
  for (int b = 0; b < NB; b++)
    assert_true(r[b] == bs_dot(x + b * BIG, w, n[b]));
  bs_s3_batched(NB, x, BIG, r);
  for (int b = 0; b < NB; b++)
    assert_true(r[b] == bs_s3(x + b * BIG));
  munmap(x, len);
}

static void t_big_grad(void **st) {
  (void)st;
  size_t len, dlen;
  float *x = big_map(&len), *dx = big_map(&dlen);
  if (!x || !dx)
    skip();
  float w[4] = {1.0f, 2.0f, 3.0f, 4.0f};
  int n[NB];
  for (int b = 0; b < NB; b++) {
    n[b] = 4;
    for (int i = 0; i < 4; i++)
      x[b * BIG + i] = (float)(b + 1);
  }
  bs_dot_grad(NB, x, BIG, w, n, NULL, NULL, dx, BIG, NULL);
  for (int b = 0; b < NB; b++)
    for (int i = 0; i < 4; i++)
      assert_true(dx[b * BIG + i] == w[i]);
  munmap(x, len);
  munmap(dx, dlen);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_big_primal),
      cmocka_unit_test(t_big_grad),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
