/* Output arrays of char, short and _Bool elements (narrow scatters): a value
 * quantised into bytes, a classification mask, 16-bit codes. Written in
 * place one lane at a time, converted as C converts to the element type
 * (modulo for the integer types, 0/1 for _Bool), in every layout (strided,
 * BD_PACKED, BD_POINTERS), also read back, compound-assigned and written
 * through a pointer walk (quant).
 *   - NAME_batched and NAME_grad write the arrays bit for bit as the scalar
 *     function does, every byte of the buffers compared (the padding of
 *     strided examples and the bytes between packed ones must stay as they
 *     were: a masked lane that writes outside its example shows), each
 *     buffer ending at a guard page (pointers: each example's array too);
 *   - the return value bit for bit, and its gradient against the analytic
 *     one (the narrow outputs are integers: no derivative). */
#include "exec_util.h"

#include <stdint.h>

#include "../common/test_filter.h"

/* Quantise a ramp into x[0 .. len-1]: clamped to [-300, 300] so every type
 * sees out-of-range values; then each element gets its bit 1 added (a
 * narrow read, a compound assignment of a narrow element); the return
 * value reads them all back. */
#define WBODY(T)                                                               \
  double s = a * b;                                                            \
  for (int i = 0; i < len; i++) {                                              \
    double v = floor((a * i + b) * 64.0);                                      \
    int k = v < -300.0 ? -300 : v > 300.0 ? 300 : (int)v;                      \
    x[i] = (T)k;                                                               \
  }                                                                            \
  for (int i = 0; i < len; i++)                                                \
    x[i] += (T)((x[i] >> 1) & 1);                                              \
  for (int i = 0; i < len; i++)                                                \
    s += a * (int)x[i];                                                        \
  return s;

/* The same C in the three layouts; a [64] strided twin is the reference. */
// clang-format off
#define FNS(T, N)                                                              \
  BATCHDIFF double N##_s(T x[64], int len, double a, double b) { WBODY(T) }    \
  BATCHDIFF double N##_o(BD_PACKED T *x, int len, double a, double b) {        \
    WBODY(T)                                                                   \
  }                                                                            \
  BATCHDIFF double N##_p(BD_POINTERS T *x, int len, double a, double b) {      \
    WBODY(T)                                                                   \
  }

FNS(unsigned char, u8)
FNS(signed char, i8)
FNS(char, c8)
FNS(short, i16)
FNS(unsigned short, u16)
FNS(_Bool, b1)
// clang-format on

/* Fixed-size outputs of three types next to a double output: bytes of a
 * quantised value, 16-bit codes and a classification mask. */
BATCHDIFF double quant(double x, double scale, unsigned char px[16], short q[4],
                       _Bool mask[4], double y[2]) {
  double s = 0.0;
  unsigned char *o = px;
  for (int i = 0; i < 16; i++) {
    double v = fmin(fmax(x * scale * 16.0 + i * 7.0, 0.0), 255.0);
    *o++ = (unsigned char)(int)v;
    s += px[i] * 1e-3;
  }
  for (int i = 0; i < 4; i++) {
    q[i] = (short)(int)(x * 1000.0 * (i + 1));
    mask[i] = x > i * 0.5 - 1.0;
  }
  mask[3] = !mask[3];
  q[1] += 7;
  y[0] = x * scale;
  y[1] = mask[0] ? scale : -scale;
  return s + x * scale;
}

/* One element type in the three layouts. E: the C type, N: the prefix. */
#define RAGGED(T, N)                                                           \
  static void t_##N(void **state) {                                            \
    (void)state;                                                               \
    rng_t rng = {name_seed(#N)};                                               \
    enum { STRIDE = 67 }; /* 3 elements of padding after each example */       \
    for (size_t ni = 0; ni < N_TEST_NS; ni++) {                                \
      size_t n = test_ns[ni];                                                  \
      int *len = gp_alloc(n * sizeof(int));                                    \
      size_t *off = gp_alloc(n * sizeof(size_t));                              \
      T **ptr = gp_alloc(n * sizeof(T *));                                     \
      double *a = gp_alloc(n * 8), *b = gp_alloc(n * 8);                       \
      double *rs = gp_alloc(n * 8), *ro = gp_alloc(n * 8);                     \
      double *rp = gp_alloc(n * 8), *da = gp_alloc(n * 8);                     \
      double *db = gp_alloc(n * 8);                                            \
      size_t total = 0;                                                        \
      for (size_t e = 0; e < n; e++) {                                         \
        len[e] = rng_below(&rng, 65);                                          \
        off[e] = total;                                                        \
        total += (size_t)len[e] + rng_below(&rng, 3); /* gaps too */           \
        a[e] = rng_range(&rng, -2.0, 2.0);                                     \
        b[e] = rng_range(&rng, -4.0, 4.0);                                     \
        da[e] = db[e] = 0.0;                                                   \
      }                                                                        \
      /* Filled with a pattern (padding and gaps must keep it). */             \
      size_t sb = n * STRIDE * sizeof(T), pb = total * sizeof(T);              \
      T *xs = gp_alloc(sb), *xo = gp_alloc(pb), *xg = gp_alloc(pb);            \
      T *want_s = malloc(sb + 1), *want_o = malloc(pb + 1);                    \
      for (size_t k = 0; k < n * STRIDE; k++)                                  \
        xs[k] = want_s[k] = (T)(k % 3 == 1 ? 0 : 0x5a + (int)k);               \
      for (size_t k = 0; k < total; k++)                                       \
        xo[k] = xg[k] = want_o[k] = (T)(k % 3 == 2 ? 0 : 0xa5 + (int)k);       \
      /* Pointers: each example's own block before a guard page (the first     \
       * 256), then into a copy of the packed buffer. */                       \
      T *xq = gp_alloc(pb ? pb : 1);                                           \
      memcpy(xq, xo, pb);                                                      \
      T *own[256];                                                             \
      for (size_t e = 0; e < n; e++) {                                         \
        if (e < 256) {                                                         \
          own[e] = gp_alloc((size_t)len[e] * sizeof(T));                       \
          ptr[e] = own[e];                                                     \
        } else {                                                               \
          ptr[e] = xq + off[e];                                                \
        }                                                                      \
      }                                                                        \
      gp_seal(len), gp_seal(off), gp_seal(a), gp_seal(b), gp_seal(ptr);        \
      N##_s_batched(n, xs, STRIDE, len, a, b, rs);                             \
      N##_o_batched(n, xo, off, len, a, b, ro);                                \
      N##_p_batched(n, ptr, len, a, b, rp);                                    \
      N##_o_grad(n, xg, off, len, a, b, NULL, NULL, da, db);                   \
      for (size_t e = 0; e < n; e++) {                                         \
        double w1 = N##_s(want_s + e * STRIDE, len[e], a[e], b[e]);            \
        double w2 = N##_s(want_o + off[e], len[e], a[e], b[e]);                \
        double ga = b[e], gb = a[e];                                           \
        for (int i = 0; i < len[e]; i++)                                       \
          ga += (int)want_o[off[e] + i];                                       \
        int bad = !same_bits_or_nan(&rs[e], &w1, 8, 1) ||                      \
                  !same_bits_or_nan(&ro[e], &w2, 8, 1) ||                      \
                  !same_bits_or_nan(&rp[e], &w2, 8, 1) ||                      \
                  !close_to(da[e], ga, 1e-12) || !close_to(db[e], gb, 1e-12);  \
        bad |=                                                                 \
            memcmp(ptr[e], want_o + off[e], (size_t)len[e] * sizeof(T)) != 0;  \
        if (bad) {                                                             \
          print_error(#N " n=%zu e=%zu len=%d: %a %a %a want %a %a; "          \
                         "d %g %g want %g %g\n",                               \
                      n, e, len[e], rs[e], ro[e], rp[e], w1, w2, da[e], db[e], \
                      ga, gb);                                                 \
          fail();                                                              \
        }                                                                      \
      }                                                                        \
      /* Every byte, padding and gaps included. */                             \
      assert_memory_equal(xs, want_s, sb);                                     \
      assert_memory_equal(xo, want_o, pb);                                     \
      assert_memory_equal(xg, want_o, pb);                                     \
      for (size_t e = 256; e < n; e++) /* pointers into xq */                  \
        assert_memory_equal(xq + off[e], want_o + off[e],                      \
                            (size_t)len[e] * sizeof(T));                       \
      free(want_s), free(want_o);                                              \
      gp_reset();                                                              \
    }                                                                          \
  }

RAGGED(unsigned char, u8)
RAGGED(signed char, i8)
RAGGED(char, c8)
RAGGED(short, i16)
RAGGED(unsigned short, u16)
RAGGED(_Bool, b1)

static void t_quant(void **state) {
  (void)state;
  rng_t rng = {name_seed("quant")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *x = gp_alloc(n * 8), *sc = gp_alloc(n * 8);
    unsigned char *px = gp_alloc(n * 16), *px2 = gp_alloc(n * 16);
    short *q = gp_alloc(n * 4 * sizeof(short));
    short *q2 = gp_alloc(n * 4 * sizeof(short));
    _Bool *m = gp_alloc(n * 4), *m2 = gp_alloc(n * 4);
    double *y = gp_alloc(n * 16), *y2 = gp_alloc(n * 16);
    double *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *dx = gp_alloc(n * 8), *dsc = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      x[e] = rng_range(&rng, -2.0, 2.0);
      sc[e] = rng_range(&rng, -3.0, 3.0);
      dx[e] = dsc[e] = 0.0;
    }
    gp_seal(x), gp_seal(sc);
    quant_batched(n, x, sc, px, 16, q, 4, m, 4, y, 2, r);
    /* y's cotangent 0: the gradient of the return value alone. */
    memset(y2, 0, n * 16);
    double *dy = gp_alloc(n * 16);
    memset(dy, 0, n * 16);
    quant_grad(n, x, sc, px2, 16, q2, 4, m2, 4, y2, 2, r2, NULL, dx, dsc, dy,
               2);
    for (size_t e = 0; e < n; e++) {
      unsigned char P[16];
      short Q[4];
      _Bool M[4];
      double Y[2];
      double want = quant(x[e], sc[e], P, Q, M, Y);
      int bad = !same_bits_or_nan(&r[e], &want, 8, 1) ||
                !same_bits_or_nan(&r2[e], &want, 8, 1) ||
                memcmp(px + e * 16, P, 16) || memcmp(px2 + e * 16, P, 16) ||
                memcmp(q + e * 4, Q, sizeof Q) ||
                memcmp(q2 + e * 4, Q, sizeof Q) || memcmp(m + e * 4, M, 4) ||
                memcmp(m2 + e * 4, M, 4) || memcmp(y + e * 2, Y, 16) ||
                memcmp(y2 + e * 2, Y, 16) || !close_to(dx[e], sc[e], 1e-12) ||
                !close_to(dsc[e], x[e], 1e-12);
      if (bad) {
        print_error("quant n=%zu e=%zu: %a want %a; d %g %g\n", n, e, r[e],
                    want, dx[e], dsc[e]);
        fail();
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_u8),    cmocka_unit_test(t_i8),
      cmocka_unit_test(t_c8),    cmocka_unit_test(t_i16),
      cmocka_unit_test(t_u16),   cmocka_unit_test(t_b1),
      cmocka_unit_test(t_quant),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
