/* Bit casts: memcpy between scalars (or arrays) of two 4- or 8-byte types,
 * C's idiom for reading a float's bits (double <-> uint64_t / int64_t,
 * float <-> uint32_t / int32_t). Batched bit for bit against the scalar
 * functions (varying and uniform operands: the vector and the scalar
 * emission), and gradients where the bits stay out of the derivative's way:
 * a scale 2^k built from bits, a sign read from bits, bits of a BD_NODIFF
 * value. (A float rebuilt from a differentiated value's bits is an error:
 * tests/diagnostics/cases/diff-bitcast.c.) */
#include "exec_util.h"
#include "../common/test_filter.h"

#include <string.h>

/* x 2^k, the scale built from its exponent bits: d/dx = 2^k. */
BATCHDIFF double bc_scale(double x, int k) {
  int kk = k < -1000 ? -1000 : k > 1000 ? 1000 : k;
  uint64_t u = (uint64_t)(kk + 1023) << 52;
  double s;
  memcpy(&s, &u, sizeof s);
  return x * s;
}
/* Quake's reciprocal square root: float bits and back (batch only). */
BD_BATCH float bc_rsqrt(float x) {
  float h = 0.5f * x, y = x;
  int32_t i;
  memcpy(&i, &y, sizeof i);
  i = 0x5f3759df - (i >> 1);
  memcpy(&y, &i, sizeof y);
  return y * (1.5f - h * y * y);
}
/* A sign from the bits: the derivative flows around it. */
BATCHDIFF double bc_sign(double x) {
  uint64_t u;
  memcpy(&u, &x, 8);
  return (u >> 63) ? -x * x : x * x;
}
/* The raw bits out, and back in with one more ULP (any bits). */
BD_BATCH uint64_t bc_bits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u ^ (u >> 7);
}
BD_BATCH double bc_next(double x) {
  int64_t u;
  memcpy(&u, &x, sizeof u);
  u ^= 1; /* the last mantissa bit: no overflow */
  memcpy(&x, &u, sizeof x);
  return x;
}
BD_BATCH uint32_t bc_fbits(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return u * 2654435761u;
}
/* Arrays of one element size, elementwise. */
BD_BATCH double bc_arr(double a, double b) {
  double v[3] = {a, b, a * b};
  uint64_t w[3];
  memcpy(w, v, sizeof v);
  w[1] ^= w[0] & 0xffff;
  memcpy(v, w, sizeof w);
  return v[0] + v[1] + v[2];
}
/* A uniform BD_NODIFF constant's bits: scalar code in the kernel; the
 * derivative in x is the rebuilt constant. */
BATCHDIFF double bc_unif(double x, BD_UNIFORM BD_NODIFF double c) {
  uint64_t u;
  memcpy(&u, &c, sizeof u);
  u += 3;
  double c3;
  memcpy(&c3, &u, sizeof c3);
  return x * c3;
}

/* The shift trick: adding and subtracting 1.5 * 2^52 (2^23 in float)
 * rounds to an integer, as rint does, and passes no derivative either
 * (analysis/Activity.cpp, roundsToInteger). exp written so, scaled by
 * ldexp or by 2^k built from the bits of the shifted value as musl does:
 * d/dx = 2^k p'(r). With the addition's derivative, 1, the gradient was 0
 * (r = x - kd ln2 had none) and the bits version was refused. */
static const double SX_P[7] = {1.0,      1.0,       0.5,      1.0 / 6,
                               1.0 / 24, 1.0 / 120, 1.0 / 720};
#define SX_INVLN2 1.4426950408889634
#define SX_LN2 0.6931471805599453
static double sx_poly(double r) {
  double p = SX_P[6];
  for (int i = 5; i >= 0; i--)
    p = p * r + SX_P[i];
  return p;
}
BATCHDIFF double bc_shiftexp(double x) {
  double kd = x * SX_INVLN2 + 0x1.8p52;
  kd -= 0x1.8p52;
  double r = x - kd * SX_LN2;
  return ldexp(sx_poly(r), (int)kd);
}
BATCHDIFF double bc_shiftexp_bits(double x) {
  double kd = x * SX_INVLN2 + 0x1.8p52;
  uint64_t ki, sb;
  memcpy(&ki, &kd, sizeof ki);
  kd -= 0x1.8p52;
  double r = x - kd * SX_LN2, scale;
  sb = (ki + 1023) << 52; /* 2^k: k sits in ki's low bits */
  memcpy(&scale, &sb, sizeof scale);
  return scale * sx_poly(r);
}
BATCHDIFF float bc_shiftexpf(float x) {
  float kf = 0x1.8p23f + x * 1.44269504f;
  kf = kf - 0x1.8p23f;
  float r = x - kf * 0.693147182f;
  return ldexpf(1.0f + r * (1.0f + r * (0.5f + r * (1.0f / 6))), (int)kf);
}
static double gen_sx(rng_t *r) {
  return (double)(rng_below(r, 40001) - 20000) / 1000; /* -20 .. 20 */
}
static float gen_sxf(rng_t *r) { return (float)gen_sx(r) * 0.5f; }

static int gen_k(rng_t *r) { return rng_below(r, 2101) - 1050; }

BITS2(bc_scale, double, double, gen_d, int, gen_k)
BITS1(bc_rsqrt, float, float, gen_f)
BITS1(bc_sign, double, double, gen_d)
BITS1(bc_bits, uint64_t, double, gen_d)
BITS1(bc_next, double, double, gen_d)
BITS1(bc_fbits, uint32_t, float, gen_f)
BITS2(bc_arr, double, double, gen_d, double, gen_d)
DIFF2(bc_unif, double, CMP_BITS, 0, V, double, gen_d, U, double, gen_d)
BITS1(bc_shiftexp, double, double, gen_sx)
BITS1(bc_shiftexp_bits, double, double, gen_sx)
BITS1(bc_shiftexpf, float, float, gen_sxf)

/* The shift trick's gradients: 2^k p'(r), computed as the functions do. */
static void diff_shift_grads(void **state_) {
  (void)state_;
  enum { N = 101 };
  rng_t rng = {name_seed("bitcast_shift")};
  double *x = gp_alloc(N * 8), *dx = gp_alloc(N * 8), *dx2 = gp_alloc(N * 8);
  float *xf = gp_alloc(N * 4), *dxf = gp_alloc(N * 4);
  for (int b = 0; b < N; b++) {
    x[b] = gen_sx(&rng);
    xf[b] = (float)x[b] * 0.5f;
  }
  memset(dx, 0, N * 8);
  memset(dx2, 0, N * 8);
  memset(dxf, 0, N * 4);
  bc_shiftexp_grad(N, x, NULL, NULL, dx);
  bc_shiftexp_bits_grad(N, x, NULL, NULL, dx2);
  bc_shiftexpf_grad(N, xf, NULL, NULL, dxf);
  for (int b = 0; b < N; b++) {
    double kd = (x[b] * SX_INVLN2 + 0x1.8p52) - 0x1.8p52;
    double r = x[b] - kd * SX_LN2, dp = 6 * SX_P[6];
    for (int i = 5; i >= 1; i--)
      dp = dp * r + i * SX_P[i];
    double want = ldexp(dp, (int)kd);
    float kf = (0x1.8p23f + xf[b] * 1.44269504f) - 0x1.8p23f;
    float rf = xf[b] - kf * 0.693147182f;
    double wantf = ldexp(1.0 + rf * (1.0 + 0.5 * rf), (int)kf);
    int ok = fabs(dx[b] - want) <= 1e-13 * want &&
             fabs(dx2[b] - want) <= 1e-13 * want &&
             fabs(dxf[b] - wantf) <= 1e-5 * wantf;
    if (!ok)
      print_error("b=%d x=%g: d_x %g / %g (want %g), float %g (want %g)\n", b,
                  x[b], dx[b], dx2[b], want, dxf[b], wantf);
    assert_true(ok);
  }
}

/* Gradients, exactly: 2^k, +-2x, the rebuilt constant. */
static void diff_grads(void **state_) {
  (void)state_;
  enum { N = 37 };
  rng_t rng = {name_seed("bitcast_grads")};
  double *x = gp_alloc(N * sizeof(double)), *dx = gp_alloc(N * 8);
  int *k = gp_alloc(N * sizeof(int));
  for (int b = 0; b < N; b++) {
    x[b] = (double)(rng_below(&rng, 2001) - 1000) / 64;
    k[b] = rng_below(&rng, 61) - 30;
  }
  memset(dx, 0, N * 8);
  bc_scale_grad(N, x, k, NULL, NULL, dx);
  for (int b = 0; b < N; b++) {
    if (dx[b] != ldexp(1.0, k[b]))
      print_error("bc_scale b=%d: d_x %g, want 2^%d\n", b, dx[b], k[b]);
    assert_true(dx[b] == ldexp(1.0, k[b]));
  }
  memset(dx, 0, N * 8);
  bc_sign_grad(N, x, NULL, NULL, dx);
  for (int b = 0; b < N; b++) {
    double want = signbit(x[b]) ? -2 * x[b] : 2 * x[b];
    if (dx[b] != want)
      print_error("bc_sign b=%d: d_x %g, want %g\n", b, dx[b], want);
    assert_true(dx[b] == want);
  }
  memset(dx, 0, N * 8);
  double c = 0.3, c3 = nextafter(nextafter(nextafter(c, 1), 1), 1);
  bc_unif_grad(N, x, c, NULL, NULL, dx);
  for (int b = 0; b < N; b++)
    assert_true(dx[b] == c3);
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      T_(bc_scale),    T_(bc_rsqrt),    T_(bc_sign),          T_(bc_bits),
      T_(bc_next),     T_(bc_fbits),    T_(bc_arr),           T_(bc_unif),
      T_(grads),       T_(bc_shiftexp), T_(bc_shiftexp_bits), T_(bc_shiftexpf),
      T_(shift_grads),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_bitcast", tests, NULL, NULL);
}
