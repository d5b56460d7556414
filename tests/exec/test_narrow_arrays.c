/* Array parameters of char, short and _Bool elements (8-bit pixels, class
 * labels, quantised weights, masks): read in place, widened to int as C
 * promotes them, at constant, per-example and uniform indices, through
 * helpers and pointer walks, in all three layouts (strided, BD_PACKED,
 * BD_POINTERS) and BD_UNIFORM.
 *   - NAME_batched bit for bit the scalar function for every n of
 *     test_ns, each example's data right before a guard page where the
 *     layout allows it (strided arrays: the batch's last example);
 *   - NAME_grad with respect to the floating parameters against central
 *     differences (the narrow inputs are integers: no derivative). */
#include "exec_util.h"

#include <stdint.h>

#include "../common/test_filter.h"

enum { PX = 16, LB = 4 };

static double luma(const uint8_t *p, int n) {
  double s = 0.0;
  while (n-- > 0)
    s += *p++ * (1.0 / 255.0);
  return s;
}

/* Strided narrow arrays, a helper walk, a per-example index, a uniform
 * table of uint16_t and a mask of _Bool. */
BATCHDIFF BD_JVP BD_HVP double score(const uint8_t px[PX],
                                     const signed char lab[LB],
                                     const short q[LB], const _Bool on[LB],
                                     const char c[2],
                                     BD_UNIFORM const uint16_t w[4], double g) {
  double s = g * luma(px, PX);
  for (int i = 0; i < LB; i++)
    if (on[i])
      s += g * px[i * 4 + (lab[i] & 3)] * q[i] / 32768.0 +
           w[(px[i] + c[0]) & 3] * 1e-3;
  return s * g + c[1] + (lab[0] < 0 ? -1.0 : 1.0);
}

/* Ragged bytes: packed (offsets) and pointers, a loop to a per-example
 * length, and the strided twin as the reference. */
#define RBODY                                                                  \
  double h = 0.0;                                                              \
  for (int i = 0; i < len; i++)                                                \
    h = h * a + (x[i] - 128) * (1.0 / 128.0);                                  \
  return h;
BATCHDIFF BD_JVP BD_HVP double r_o(BD_PACKED const unsigned char *x, int len,
                                   double a){RBODY} BATCHDIFF
    double r_p(BD_POINTERS const unsigned char *x, int len,
               double a){RBODY} BATCHDIFF
    double r_s(const unsigned char x[64], int len, double a) {
  RBODY
}

static double score_at(const uint8_t *px, const signed char *lab,
                       const short *q, const _Bool *on, const char *c,
                       const uint16_t *w, double g) {
  return score(px, lab, q, on, c, w, g);
}

static void t_score(void **state) {
  (void)state;
  rng_t rng = {name_seed("narrow arrays")};
  uint16_t w[4] = {1, 200, 65535, 7};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    uint8_t *px = gp_alloc(n * PX);
    signed char *lab = gp_alloc(n * LB);
    short *q = gp_alloc((n * LB) * sizeof(short));
    _Bool *on = gp_alloc(n * LB);
    char *c = gp_alloc(n * 2);
    double *g = gp_alloc(n * 8), *got = gp_alloc(n * 8);
    double *dg = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      for (int k = 0; k < PX; k++)
        px[e * PX + k] = (uint8_t)rng_below(&rng, 256);
      for (int k = 0; k < LB; k++) {
        lab[e * LB + k] = (signed char)(rng_below(&rng, 256) - 128);
        q[e * LB + k] = (short)(rng_below(&rng, 65536) - 32768);
        on[e * LB + k] = rng_below(&rng, 3) != 0;
      }
      c[e * 2] = (char)(rng_below(&rng, 256) - 128);
      c[e * 2 + 1] = (char)(rng_below(&rng, 128));
      g[e] = rng_range(&rng, -2.0, 2.0);
      dg[e] = 0.0;
    }
    gp_seal(px), gp_seal(lab), gp_seal(q), gp_seal(on), gp_seal(c), gp_seal(g);
    score_batched(n, px, PX, lab, LB, q, LB, on, LB, c, 2, w, g, got);
    score_grad(n, px, PX, lab, LB, q, LB, on, LB, c, 2, w, g, NULL, NULL, dg);
    for (size_t e = 0; e < n; e++) {
      const uint8_t *P = px + e * PX;
      const signed char *L = lab + e * LB;
      const short *Q = q + e * LB;
      const _Bool *O = on + e * LB;
      const char *C = c + e * 2;
      double want = score_at(P, L, Q, O, C, w, g[e]), h = 1e-6;
      double fd = (score_at(P, L, Q, O, C, w, g[e] + h) -
                   score_at(P, L, Q, O, C, w, g[e] - h)) /
                  (2 * h);
      if (!same_bits_or_nan(&got[e], &want, sizeof want, 1) ||
          !close_to(dg[e], fd, 1e-6)) {
        print_error("n=%zu e=%zu: %a want %a, d %g fd %g\n", n, e, got[e], want,
                    dg[e], fd);
        fail();
      }
    }
    gp_reset();
  }
}

static void t_ragged(void **state) {
  (void)state;
  rng_t rng = {name_seed("narrow ragged")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    int *len = gp_alloc(n * sizeof(int));
    size_t *off = gp_alloc(n * sizeof(size_t));
    unsigned char *strided = gp_alloc(n * 64);
    const unsigned char **ptr = gp_alloc(n * sizeof(void *));
    double *a = gp_alloc(n * 8), *o = gp_alloc(n * 8);
    double *p = gp_alloc(n * 8), *s = gp_alloc(n * 8);
    double *da = gp_alloc(n * 8);
    size_t total = 0;
    for (size_t e = 0; e < n; e++) {
      len[e] = rng_below(&rng, 65);
      off[e] = total;
      total += (size_t)len[e];
      a[e] = rng_range(&rng, -1.0, 1.0);
      da[e] = 0.0;
    }
    /* Packed back to back; the last byte of the batch before a guard. */
    unsigned char *packed = gp_alloc(total);
    for (size_t e = 0; e < n; e++)
      for (int i = 0; i < len[e]; i++)
        packed[off[e] + i] = strided[e * 64 + i] =
            (unsigned char)rng_below(&rng, 256);
    for (size_t e = 0; e < n; e++) {
      /* One allocation per example, its last byte before a guard page, for
       * the first 256 (gp_alloc holds 4096 blocks); then into `packed`. */
      if (e >= 256) {
        ptr[e] = packed + off[e];
        continue;
      }
      unsigned char *own = gp_alloc((size_t)len[e]);
      memcpy(own, packed + off[e], (size_t)len[e]);
      gp_seal(own);
      ptr[e] = own;
    }
    gp_seal(packed), gp_seal(len), gp_seal(a);
    r_o_batched(n, packed, off, len, a, o);
    r_p_batched(n, ptr, len, a, p);
    r_s_batched(n, strided, 64, len, a, s);
    r_o_grad(n, packed, off, len, a, NULL, NULL, da);
    for (size_t e = 0; e < n; e++) {
      double want = r_s(strided + e * 64, len[e], a[e]), h = 1e-6;
      double fd = (r_s(strided + e * 64, len[e], a[e] + h) -
                   r_s(strided + e * 64, len[e], a[e] - h)) /
                  (2 * h);
      if (!same_bits_or_nan(&o[e], &want, sizeof want, 1) ||
          !same_bits_or_nan(&p[e], &want, sizeof want, 1) ||
          !same_bits_or_nan(&s[e], &want, sizeof want, 1) ||
          !close_to(da[e], fd, 1e-6)) {
        print_error("n=%zu e=%zu len=%d: %a %a %a want %a, d %g fd %g\n", n, e,
                    len[e], o[e], p[e], s[e], want, da[e], fd);
        fail();
      }
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(t_score),
      cmocka_unit_test(t_ragged),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests(tests, NULL, NULL);
}
