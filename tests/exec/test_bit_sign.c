/* musl's fabs and copysign as written, on the bits of a union
 * (src/math/fabs.c: `u.i &= -1ULL/2`; copysign.c: `ux.i &= -1ULL/2; ux.i
 * |= uy.i & 1ULL<<63`; the float forms with 0x7fffffff and 0x80000000),
 * under batch, diff: the float rebuilt from the bits is fabs(x) or
 * copysign(x, y) (transforms/simplify/ForwardVars.cpp), with their
 * derivatives, following the sign bit. Before, each was an error under
 * diff (a float made from the bits of a value that carries a derivative).
 * NAME_batched and NAME_grad's values against the scalar function bit for
 * bit (NaN payloads, ±0, ±inf, subnormals, random bits); the gradients
 * exactly: d fabs(x)/dx = -1 where x's sign bit is set (-0 too), else 1;
 * d copysign(x, y)/dx = 1 where the result has x's sign bit, else -1,
 * d/dy = 0; an odd function written as musl's asinh writes it (the sign
 * bit kept, the value computed from |x|, `s ? -y : y`) has derivative 1 at
 * both zeros; against central differences of the scalar function away from
 * 0. A mask that is not the sign's is still an error (diagnostic
 * diff-bits-sign-mask). */
#include "exec_util.h"

#include "../common/test_filter.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

__attribute__((batch, diff)) double mfabs(double x) {
  union {
    double f;
    uint64_t i;
  } u = {x};
  u.i &= -1ULL / 2;
  return u.f;
}

__attribute__((batch, diff)) float mfabsf(float x) {
  union {
    float f;
    uint32_t i;
  } u = {x};
  u.i &= 0x7fffffff;
  return u.f;
}

__attribute__((batch, diff)) double mcopysign(double x, double y) {
  union {
    double f;
    uint64_t i;
  } ux = {x}, uy = {y};
  ux.i &= -1ULL / 2;
  ux.i |= uy.i & 1ULL << 63;
  return ux.f;
}

__attribute__((batch, diff)) float mcopysignf(float x, float y) {
  union {
    float f;
    uint32_t i;
  } ux = {x}, uy = {y};
  ux.i &= 0x7fffffff;
  ux.i |= uy.i & 0x80000000;
  return ux.f;
}

/* In an expression: fabs of a product, copysign with the operands of the
 * or the other way round. */
__attribute__((batch, diff)) double mixed(double x, double y) {
  union {
    double f;
    uint64_t i;
  } a = {x * y}, b = {y}, c = {x};
  a.i &= 0x7fffffffffffffffULL;
  c.i = (b.i & 0x8000000000000000ULL) | (c.i & 0x7fffffffffffffffULL);
  return a.f * x + c.f * c.f * y;
}

/* musl's asinh's shape: y from |x| (the sign bit cleared), the sign put
 * back by a test of the bit. */
__attribute__((batch, diff)) double odd(double x) {
  union {
    double f;
    uint64_t i;
  } u = {x};
  unsigned s = u.i >> 63;
  u.i &= -1ULL / 2;
  double y = u.f;
  y = y + y * y * y;
  return s ? -y : y;
}

static const size_t ns[] = {0, 1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 1000};
#define NNS (sizeof ns / sizeof ns[0])

static double gen(rng_t *r) {
  static const uint64_t special[] = {
      0x0000000000000000ULL, 0x8000000000000000ULL, 0x7ff0000000000000ULL,
      0xfff0000000000000ULL, 0x7ff8000000000001ULL, 0xfff4000000000abcULL,
      0x0000000000000001ULL, 0x800fffffffffffffULL, 0x3ff0000000000000ULL,
      0xbff0000000000000ULL};
  uint64_t k = rng_u64(r) % 4, u;
  if (k == 0)
    u = special[rng_u64(r) % (sizeof special / sizeof special[0])];
  else if (k == 1)
    u = rng_u64(r);
  else
    return 10.0 * (rng_unit(r) * 2 - 1);
  double d;
  memcpy(&d, &u, sizeof d);
  return d;
}

static int same64(double a, double b) { return memcmp(&a, &b, 8) == 0; }
static int same32(float a, float b) { return memcmp(&a, &b, 4) == 0; }

static double rich(double (*f)(double, double), double x, double y, int wrt,
                   int *ok) {
  double d[3];
  for (int s = 0; s < 3; s++) {
    double h = 1e-4 / (1 << s);
    d[s] = wrt ? (f(x, y + h) - f(x, y - h)) / (2 * h)
               : (f(x + h, y) - f(x - h, y)) / (2 * h);
  }
  double r1 = (4 * d[1] - d[0]) / 3, r2 = (4 * d[2] - d[1]) / 3;
  *ok = isfinite(r2) && fabs(r1 - r2) <= 1e-8 * (1 + fabs(r2));
  return r2;
}
static double mixed2(double x, double y) { return mixed(x, y); }

static void test_fabs(void **state) {
  (void)state;
  rng_t r = {name_seed("mfabs")};
  for (size_t i = 0; i < NNS; i++) {
    size_t n = ns[i];
    double *x = gp_alloc((n + 1) * 8), *ret = gp_alloc((n + 1) * 8);
    double *ret2 = gp_alloc((n + 1) * 8), *dx = gp_alloc((n + 1) * 8);
    float *xf = gp_alloc((n + 1) * 4), *retf = gp_alloc((n + 1) * 4);
    float *ret2f = gp_alloc((n + 1) * 4), *dxf = gp_alloc((n + 1) * 4);
    for (size_t b = 0; b < n; b++) {
      x[b] = gen(&r);
      xf[b] = (float)gen(&r);
      dx[b] = 0.5;
      dxf[b] = 0.5f;
    }
    mfabs_batched(n, x, ret);
    mfabs_grad(n, x, ret2, NULL, dx);
    mfabsf_batched(n, xf, retf);
    mfabsf_grad(n, xf, ret2f, NULL, dxf);
    for (size_t b = 0; b < n; b++) {
      double w = mfabs(x[b]);
      float wf = mfabsf(xf[b]);
      if (!same64(ret[b], w) || !same64(ret2[b], w))
        fail_msg("mfabs(%a) n=%zu: %a %a, scalar %a", x[b], n, ret[b], ret2[b],
                 w);
      if (!same32(retf[b], wf) || !same32(ret2f[b], wf))
        fail_msg("mfabsf(%a) n=%zu: %a %a, scalar %a", xf[b], n, retf[b],
                 ret2f[b], wf);
      double g = 0.5 + (signbit(x[b]) ? -1.0 : 1.0);
      float gf = 0.5f + (signbit(xf[b]) ? -1.0f : 1.0f);
      if (dx[b] != g || dxf[b] != gf)
        fail_msg("mfabs' n=%zu: at %a %.17g (want %.17g), at %a %.9g (want "
                 "%.9g)",
                 n, x[b], dx[b], g, xf[b], dxf[b], gf);
    }
    gp_reset();
  }
}

static void test_copysign(void **state) {
  (void)state;
  rng_t r = {name_seed("mcopysign")};
  for (size_t i = 0; i < NNS; i++) {
    size_t n = ns[i];
    double *x = gp_alloc((n + 1) * 8), *y = gp_alloc((n + 1) * 8);
    double *ret = gp_alloc((n + 1) * 8), *ret2 = gp_alloc((n + 1) * 8);
    double *dx = gp_alloc((n + 1) * 8), *dy = gp_alloc((n + 1) * 8);
    float *xf = gp_alloc((n + 1) * 4), *yf = gp_alloc((n + 1) * 4);
    float *retf = gp_alloc((n + 1) * 4), *ret2f = gp_alloc((n + 1) * 4);
    float *dxf = gp_alloc((n + 1) * 4), *dyf = gp_alloc((n + 1) * 4);
    for (size_t b = 0; b < n; b++) {
      x[b] = gen(&r);
      y[b] = gen(&r);
      xf[b] = (float)gen(&r);
      yf[b] = (float)gen(&r);
      dx[b] = dy[b] = 0.0;
      dxf[b] = dyf[b] = 0.0f;
    }
    mcopysign_batched(n, x, y, ret);
    mcopysign_grad(n, x, y, ret2, NULL, dx, dy);
    mcopysignf_batched(n, xf, yf, retf);
    mcopysignf_grad(n, xf, yf, ret2f, NULL, dxf, dyf);
    for (size_t b = 0; b < n; b++) {
      double w = mcopysign(x[b], y[b]);
      float wf = mcopysignf(xf[b], yf[b]);
      if (!same64(ret[b], w) || !same64(ret2[b], w))
        fail_msg("mcopysign(%a, %a) n=%zu: %a %a, scalar %a", x[b], y[b], n,
                 ret[b], ret2[b], w);
      if (!same32(retf[b], wf) || !same32(ret2f[b], wf))
        fail_msg("mcopysignf(%a, %a) n=%zu: %a %a, scalar %a", xf[b], yf[b], n,
                 retf[b], ret2f[b], wf);
      double g = signbit(w) == signbit(x[b]) ? 1.0 : -1.0;
      float gf = signbit(wf) == signbit(xf[b]) ? 1.0f : -1.0f;
      if (dx[b] != g || dy[b] != 0.0 || dxf[b] != gf || dyf[b] != 0.0f)
        fail_msg("mcopysign' n=%zu at (%a, %a): %g %g (want %g 0); float "
                 "(%a, %a): %g %g (want %g 0)",
                 n, x[b], y[b], dx[b], dy[b], g, xf[b], yf[b], dxf[b], dyf[b],
                 gf);
    }
    gp_reset();
  }
}

static void test_mixed(void **state) {
  (void)state;
  rng_t r = {name_seed("mixed")};
  long checked = 0;
  for (size_t i = 0; i < NNS; i++) {
    size_t n = ns[i];
    double *x = gp_alloc((n + 1) * 8), *y = gp_alloc((n + 1) * 8);
    double *ret = gp_alloc((n + 1) * 8), *ret2 = gp_alloc((n + 1) * 8);
    double *dx = gp_alloc((n + 1) * 8), *dy = gp_alloc((n + 1) * 8);
    for (size_t b = 0; b < n; b++) {
      x[b] = 4.0 * (rng_unit(&r) * 2 - 1);
      y[b] = 4.0 * (rng_unit(&r) * 2 - 1);
      if (b % 11 == 3)
        x[b] = gen(&r);
      dx[b] = dy[b] = 0.0;
    }
    mixed_batched(n, x, y, ret);
    mixed_grad(n, x, y, ret2, NULL, dx, dy);
    for (size_t b = 0; b < n; b++) {
      double w = mixed(x[b], y[b]);
      /* (NaN results may differ in sign from the scalar function's: the
       * compiler may add the two NaN terms in either order) */
      if (!(same64(ret[b], w) || (isnan(ret[b]) && isnan(w))) ||
          !(same64(ret2[b], w) || (isnan(ret2[b]) && isnan(w))))
        fail_msg("mixed(%a, %a) n=%zu: %a %a, scalar %a", x[b], y[b], n, ret[b],
                 ret2[b], w);
      if (!isfinite(x[b]) || fabs(x[b]) < 0.01 || fabs(y[b]) < 0.01 ||
          fabs(x[b]) > 1e3)
        continue;
      for (int wrt = 0; wrt < 2; wrt++) {
        int ok;
        double fd = rich(mixed2, x[b], y[b], wrt, &ok), g = wrt ? dy[b] : dx[b];
        if (!ok)
          continue;
        checked++;
        if (!(fabs(g - fd) <= 1e-6 * (1 + fabs(fd))))
          fail_msg("mixed n=%zu at (%a, %a): d/d%s %.17g, differences %.17g", n,
                   x[b], y[b], wrt ? "y" : "x", g, fd);
      }
    }
    gp_reset();
  }
  if (checked < 500)
    fail_msg("mixed: %ld gradients checked", checked);
}

static void test_odd(void **state) {
  (void)state;
  rng_t r = {name_seed("odd")};
  for (size_t i = 0; i < NNS; i++) {
    size_t n = ns[i];
    double *x = gp_alloc((n + 1) * 8), *ret = gp_alloc((n + 1) * 8);
    double *dx = gp_alloc((n + 1) * 8);
    for (size_t b = 0; b < n; b++) {
      x[b] = b % 3 == 0 ? (b % 2 ? -0.0 : 0.0) : 3.0 * (rng_unit(&r) * 2 - 1);
      dx[b] = 0.0;
    }
    odd_grad(n, x, ret, NULL, dx);
    for (size_t b = 0; b < n; b++) {
      double w = odd(x[b]), g = 1.0 + 3.0 * x[b] * x[b];
      if (!same64(ret[b], w))
        fail_msg("odd(%a) n=%zu: %a, scalar %a", x[b], n, ret[b], w);
      if (!(fabs(dx[b] - g) <= 1e-15 * g))
        fail_msg("odd'(%a) n=%zu: %.17g, want %.17g", x[b], n, dx[b], g);
    }
    gp_reset();
  }
}

int main(int argc, char **argv) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_fabs),
      cmocka_unit_test(test_copysign),
      cmocka_unit_test(test_mixed),
      cmocka_unit_test(test_odd),
  };
  bd_test_filter(argc, argv);
  return cmocka_run_group_tests_name("exec_bit_sign", tests, NULL, NULL);
}
