/* Helpers shared by the dense-record tests (test_struct_dense.c,
 * test_struct_dense8.c): records of random bit patterns in guarded memory
 * and the pick check (each example's result is one member's bits). Include
 * after exec_util.h; CHECK_PICK needs `rng`, `n` and an EXTRA macro (the
 * arguments after w, possibly empty) in scope. */
#ifndef BD_TEST_DENSE_RECORDS_H
#define BD_TEST_DENSE_RECORDS_H

static void gen_bits(rng_t *r, void *p, size_t sz) {
  unsigned char *c = p;
  for (size_t i = 0; i < sz; i += 8) {
    uint64_t u = rng_u64(r);
    memcpy(c + i, &u, sz - i < 8 ? sz - i : 8);
  }
}
#define GEN_BITS(T)                                                            \
  static T gen_##T(rng_t *r) {                                                 \
    T v;                                                                       \
    gen_bits(r, &v, sizeof v);                                                 \
    return v;                                                                  \
  }

#define RECORDS(T, name, n)                                                    \
  T *name = gp_alloc((n) * sizeof(T));                                         \
  for (size_t b_ = 0; b_ < (n); b_++)                                          \
    name[b_] = gen_##T(&rng);                                                  \
  gp_seal(name)

/* One pick function: batched, each example's result is the member's bits
 * (and the scalar function's), alone as in the batch. */
#define CHECK_PICK(fn, T, R, M, member)                                        \
  do {                                                                         \
    RECORDS(T, a_, n);                                                         \
    int *w_ = gp_alloc(n * sizeof(int));                                       \
    for (size_t b = 0; b < n; b++)                                             \
      w_[b] = rng_below(&rng, M);                                              \
    gp_seal(w_);                                                               \
    R *o_ = gp_alloc(n * sizeof(R));                                           \
    fn##_batched(n, a_, w_ EXTRA, o_);                                         \
    for (size_t b = 0; b < n; b++) {                                           \
      const T *r_ = &a_[b];                                                    \
      int w = w_[b];                                                           \
      R want = member, one;                                                    \
      fn##_batched(1, a_ + b, w_ + b EXTRA, &one);                             \
      if (memcmp(&o_[b], &want, sizeof want) != 0 ||                           \
          memcmp(&one, &want, sizeof want) != 0) {                             \
        print_error(#fn " n=%zu b=%zu member %d: bits differ\n", n, b, w);     \
        print_bits("got", &o_[b], sizeof(R));                                  \
        print_bits("want", &want, sizeof(R));                                  \
        fail();                                                                \
      }                                                                        \
    }                                                                          \
  } while (0)

#endif
