/* double complex and float complex locals (docs/subset.md, "Complex
 * numbers"): NAME_batched against the scalar function compiled by clang,
 * bit for bit (any NaN for a NaN), over random and special inputs: the
 * complex product's recovery of infinities where both of its parts are NaN
 * (libgcc's __muldc3 / __mulsc3, which the scalar code calls), the
 * quotient (__divdc3 / __divsc3: scaling, subnormal ratios, recovery), real
 * operands, conversions, compound assignments, comparisons, `?:`, branches
 * and loops on the parts, helpers taking and returning complex values,
 * `++`/`--`; cabs and carg within the runtime's hypot and
 * atan2 bounds; NAME_grad against central differences and closed forms. */
#include <complex.h>

#include "exec_util.h"

#ifndef CMPLX /* (glibc defines them for GCC >= 4.7 only) */
#define CMPLX(x, y) __builtin_complex((double)(x), (double)(y))
#define CMPLXF(x, y) __builtin_complex((float)(x), (float)(y))
#endif

/* Special values, often: products of infinities, zeros and NaNs. */
static double gen_cx(rng_t *r) {
  static const double sp[] = {INFINITY, -INFINITY, NAN, -NAN, 0.0,   -0.0,
                              1e300,    -1e300,    1.0, -2.0, 1e-320};
  if (rng_below(r, 3) == 0)
    return sp[rng_below(r, sizeof sp / sizeof sp[0])];
  return gen_d(r);
}
static float gen_cxf(rng_t *r) {
  static const float sp[] = {INFINITY, -INFINITY, NAN,  -NAN,  0.0f,  -0.0f,
                             1e38f,    -1e38f,    1.0f, -2.0f, 1e-44f};
  if (rng_below(r, 3) == 0)
    return sp[rng_below(r, sizeof sp / sizeof sp[0])];
  return gen_f(r);
}

/* Any scale: every exponent, subnormals too (__divdc3's scaling). */
static double gen_scale(rng_t *r) {
  if (rng_below(r, 4) == 0)
    return gen_cx(r);
  double v = ldexp(rng_range(r, 1, 2), (int)rng_below(r, 2098) - 1074);
  return rng_below(r, 2) ? -v : v;
}

/* The full product, its parts set exactly (`a + b * I` would add b * 0.0
 * to the real part). */
BATCHDIFF double c_mul_re(double a, double b, double c, double d) {
  double complex z, w;
  __real__ z = a;
  __imag__ z = b;
  __real__ w = c;
  __imag__ w = d;
  return creal(z * w);
}
BATCHDIFF double c_mul_im(double a, double b, double c, double d) {
  double complex z = CMPLX(a, b), w = CMPLX(c, d);
  z *= w;
  return cimag(z);
}
BATCHDIFF float f_mul_re(float a, float b, float c, float d) {
  float complex z = CMPLXF(a, b), w = CMPLXF(c, d);
  return crealf(z * w);
}
BATCHDIFF float f_mul_im(float a, float b, float c, float d) {
  float complex z = CMPLXF(a, b), w = CMPLXF(c, d);
  return cimagf(w * z);
}

/* Division by a complex value: libgcc's __divdc3 (Smith's method with
 * scaling: huge, tiny and subnormal parts) and __divsc3 (in double), with
 * the recovery of infinities and zeros. */
BATCHDIFF double c_div_re(double a, double b, double c, double d) {
  double complex z = CMPLX(a, b), w = CMPLX(c, d);
  return creal(z / w);
}
BATCHDIFF double c_div_im(double a, double b, double c, double d) {
  double complex z = CMPLX(a, b), w = CMPLX(c, d);
  z /= w;
  return cimag(z);
}
BATCHDIFF double c_rdiv(double a, double c, double d) {
  double complex w = CMPLX(c, d);
  double complex q = a / w;
  return creal(q) - 3 * cimag(q);
}
BATCHDIFF float f_div_re(float a, float b, float c, float d) {
  float complex z = CMPLXF(a, b), w = CMPLXF(c, d);
  return crealf(z / w);
}
BATCHDIFF float f_div_im(float a, float b, float c, float d) {
  float complex z = CMPLXF(a, b), w = CMPLXF(c, d);
  return cimagf(z / w);
}

/* Real operands (no imaginary part: `x - z` is (x - re, -im)), I,
 * conversions, compound assignments, unary operators, comparisons, ?:. */
BATCHDIFF double c_mix(double a, double b, double c, double d) {
  double complex z = a + b * I;
  double complex w = c - d * _Complex_I;
  float complex f = (float)a + I * (float)d;
  double complex u = c * z - w / a + f;
  u += z * w;
  u -= c;
  u *= d;
  u /= b;
  u = -u + conj(w) - ~z;
  double complex v = u == w ? z : (u != 1.0 ? w * u : z + 2);
  if (v)
    v = v * (double complex)f;
  double r = creal(v) - 0.5 * cimag(v) + __real__ u;
  __imag__ v = r;
  return !u + (z == 3.0) + (v != u) + cimag(v) * 0.25 + (double)v;
}
BATCHDIFF float f_mix(float a, float b, float c, float d) {
  float complex z = a + b * I, w = CMPLXF(c, d);
  float complex u = z * w - a / (c + 0.5f) * w;
  u = u * 3 + ~w;
  if (crealf(u) > cimagf(u))
    u *= I;
  else
    u -= w * u;
  return crealf(u) + 2 * cimagf(u) + (u == z);
}

/* A data-dependent loop and branches on the parts; contraction of
 * `re * re + im * im` as clang contracts it. */
BATCHDIFF double c_iter(double cr, double ci, double s) {
  double complex c = cr + ci * I, z = 0;
  int k = 0;
  while (k < 40 && creal(z) * creal(z) + cimag(z) * cimag(z) <= 4.0) {
    z = z * z + c * s;
    if (cimag(z) < 0)
      z = conj(z) * 0.5 + c;
    k++;
  }
  return k + creal(z) * 1e-3 + cimag(z);
}

/* cabs is hypot(re, im) and carg atan2(im, re) (glibc): the runtime's
 * hypot and atan2, within their bounds. */
BATCHDIFF double c_abs(double a, double b, double c, double d) {
  double complex z = CMPLX(a, b), w = CMPLX(c, d);
  return cabs(z * w + 1);
}
BATCHDIFF double c_arg(double a, double b, double c, double d) {
  double complex z = CMPLX(a, b), w = CMPLX(c, d);
  return carg(z - w);
}
BATCHDIFF float f_abs(float a, float b) {
  float complex z = CMPLXF(a, b);
  return cabsf(z * z);
}
BATCHDIFF float f_arg(float a, float b) {
  float complex z = CMPLXF(a, b);
  return cargf(z * I);
}

/* Helpers taking and returning complex values, inlined: parameters and
 * return values are pairs of parts (a real argument or return value gets
 * the imaginary part 0), early returns, float and double mixed, helpers
 * calling helpers; `++`/`--` add +-1 to the real part. */
static double complex cmulx(double complex a, double b) { return a * b; }
static double complex csq_or_conj(double complex z) {
  if (creal(z) > 0)
    return z * z;
  return conj(z) + 1;
}
static float complex fhalf(float complex z) { return z / 2; }
static double complex from_re(double x) { return x; }
static double parts(double complex z) { return creal(z) - 2 * cimag(z); }
static double complex rot(double complex z, double complex w) {
  return cmulx(z * w, 0.5) - from_re(cimag(w));
}
BATCHDIFF double c_helpers(double a, double b, double c, double d) {
  double complex z = CMPLX(a, b), w = CMPLX(c, d);
  double complex u = rot(csq_or_conj(z), w) + cmulx(w, a);
  u += cmulx(z, 0.5) * w;
  return parts(u) + parts(csq_or_conj(w - z));
}
BATCHDIFF float f_helpers(float a, float b, float c) {
  float complex z = CMPLXF(a, b);
  z = fhalf(z * c) - fhalf(z);
  double complex u = fhalf(z) * (double complex)z;
  return crealf(fhalf(z)) + (float)parts(z) + (float)parts(fhalf(u));
}
BATCHDIFF double c_incdec(double a, double b) {
  double complex z = CMPLX(a, b), w;
  z++;
  w = ++z;
  double complex v = z--;
  --v;
  double complex t = w++ * 2;
  t--;
  return creal(z) + cimag(z) * 3 + creal(v) * 5 - cimag(v) + creal(w) * 7 +
         cimag(w) - creal(t) * 3 + cimag(t);
}

/* cexp, clog, csqrt as glibc computes them: the same formula, with the
 * runtime's exp, sin, cos, log, log1p, hypot, atan2 (a few ULP); special
 * values (zero, infinite, NaN parts, overflow and scaling) exactly. */
#define CX_PARTS(name, T, fn, re, im)                                          \
  BATCHDIFF T name##_re(T x, T y) {                                            \
    T complex z = __builtin_complex(x, y);                                     \
    return re(fn(z));                                                          \
  }                                                                            \
  BATCHDIFF T name##_im(T x, T y) {                                            \
    T complex z = __builtin_complex(x, y);                                     \
    return im(fn(z));                                                          \
  }
CX_PARTS(c_exp, double, cexp, creal, cimag)
CX_PARTS(c_log, double, clog, creal, cimag)
CX_PARTS(c_sqrt, double, csqrt, creal, cimag)
CX_PARTS(f_exp, float, cexpf, crealf, cimagf)
CX_PARTS(f_log, float, clogf, crealf, cimagf)
CX_PARTS(f_sqrt, float, csqrtf, crealf, cimagf)

/* As users write them: a first-order low-pass filter's response with a
 * delay, in a helper; a Gaussian beam's phase; a root of a quadratic. */
static double complex lowpass(double w, double tau, double delay) {
  return cexp(-I * w * delay) / (1.0 + I * w * tau);
}
BATCHDIFF double c_transfer(double w, double tau, double delay, double g) {
  double complex h = g * lowpass(w, tau, delay);
  return 20 * log10(cabs(h)) + carg(h) + creal(clog(h + 2.0));
}
BATCHDIFF double c_roots(double b, double c, double k, double t) {
  double complex d = csqrt(b * b - 4 * c + k * I);
  double complex r = (-b + d) / 2, s = (-b - d) / 2;
  return creal(r * cexp(I * t)) + cimag(s) - creal(clog(r - s));
}

/* Special values often: zeros, infinities, NaNs, huge and tiny values,
 * cexp's overflow range, the unit circle (clog's log1p cases). */
static double gen_cm(rng_t *r) {
  static const double sp[] = {710,  1000, -750, 1420, 2200, 0.5,    0.75,
                              -0.6, 1.0,  -1.0, 1.5,  2.0,  DBL_MAX};
  switch (rng_below(r, 6)) {
  case 0:
    return gen_cx(r);
  case 1:
    return sp[rng_below(r, sizeof sp / sizeof sp[0])];
  case 2:
    return gen_scale(r);
  case 3:
    return rng_range(r, -1.2, 1.2);
  default:
    return gen_d(r);
  }
}
static float gen_cmf(rng_t *r) {
  static const float sp[] = {89,    100,  -104,  177,  200,  0.5f,   0.75f,
                             -0.6f, 1.0f, -1.0f, 1.5f, 2.0f, FLT_MAX};
  switch (rng_below(r, 6)) {
  case 0:
    return gen_cxf(r);
  case 1:
    return sp[rng_below(r, sizeof sp / sizeof sp[0])];
  case 2:
    return (float)ldexp(rng_range(r, 1, 2), (int)rng_below(r, 277) - 149);
  case 3:
    return (float)rng_range(r, -1.2, 1.2);
  default:
    return gen_f(r);
  }
}
/* Within ulp_bound where both are finite and not zero; else the same bits
 * (any NaN). */
#define CMP_CX(got, want, ...)                                                 \
  (isfinite(want) && (want) != 0 && isfinite(got) && (got) != 0                \
       ? ULP_DIST(got, want) <= ulp_bound                                      \
       : CMP_BITS(got, want))

BITS4(c_mul_re, double, double, gen_cx, double, gen_cx, double, gen_cx, double,
      gen_cx)
BITS4(c_mul_im, double, double, gen_cx, double, gen_cx, double, gen_cx, double,
      gen_cx)
BITS4(f_mul_re, float, float, gen_cxf, float, gen_cxf, float, gen_cxf, float,
      gen_cxf)
BITS4(f_mul_im, float, float, gen_cxf, float, gen_cxf, float, gen_cxf, float,
      gen_cxf)
BITS4(c_div_re, double, double, gen_scale, double, gen_scale, double, gen_scale,
      double, gen_scale)
BITS4(c_div_im, double, double, gen_scale, double, gen_scale, double, gen_scale,
      double, gen_scale)
BITS3(c_rdiv, double, double, gen_scale, double, gen_scale, double, gen_scale)
BITS4(f_div_re, float, float, gen_cxf, float, gen_cxf, float, gen_cxf, float,
      gen_cxf)
BITS4(f_div_im, float, float, gen_cxf, float, gen_cxf, float, gen_cxf, float,
      gen_cxf)
BITS4(c_mix, double, double, gen_d, double, gen_cx, double, gen_d, double,
      gen_cx)
BITS4(f_mix, float, float, gen_f, float, gen_cxf, float, gen_f, float, gen_cxf)
BITS4(c_helpers, double, double, gen_cx, double, gen_cx, double, gen_cx, double,
      gen_cx)
BITS3(f_helpers, float, float, gen_cxf, float, gen_cxf, float, gen_cxf)
BITS2(c_incdec, double, double, gen_cx, double, gen_cx)
#define CX_DIFF(name, T, gen, bound)                                           \
  DIFF2(name##_re, T, CMP_CX, bound, V, T, gen, V, T, gen)                     \
  DIFF2(name##_im, T, CMP_CX, bound, V, T, gen, V, T, gen)
/* (Bounds measured over 200000 examples each: 3, 4 and 2 ULP in double,
 * 3, 1 and 0 in float.) */
CX_DIFF(c_exp, double, gen_cm, 4)
CX_DIFF(c_log, double, gen_cm, 5)
CX_DIFF(c_sqrt, double, gen_cm, 3)
CX_DIFF(f_exp, float, gen_cmf, 4)
CX_DIFF(f_log, float, gen_cmf, 2)
CX_DIFF(f_sqrt, float, gen_cmf, 1)
BITS3(c_iter, double, double, gen_d_mod, double, gen_d_mod, double, gen_d)
DIFF4(c_abs, double, CMP_ULP, 1, V, double, gen_d, V, double, gen_d, V, double,
      gen_d, V, double, gen_d)
DIFF4(c_arg, double, CMP_ULP, 1, V, double, gen_d, V, double, gen_d, V, double,
      gen_d, V, double, gen_d)
DIFF2(f_abs, float, CMP_ULP, 1, V, float, gen_f, V, float, gen_f)
DIFF2(f_arg, float, CMP_ULP, 1, V, float, gen_f, V, float, gen_f)

/* ---- gradients ---------------------------------------------------------- */

/* The shape of the example (cexp written out). */
BATCHDIFF double c_mag(double re, double im, double w) {
  double complex z = re + im * I;
  double complex e = (cos(w) + sin(w) * I) * z;
  z = z * z + e / (1.0 + z);
  if (cimag(z) > creal(e))
    z -= conj(e) * I;
  return cabs(z) + creal(conj(e)) * cimag(z) + carg(e);
}
/* Closed forms: (re + i im)^3 = re^3 - 3 re im^2 + i (3 re^2 im - im^3). */
BATCHDIFF double c_cube(double re, double im) {
  double complex z = CMPLX(re, im);
  double complex c = z * z * z;
  return creal(c) + 2 * cimag(c);
}
BATCHDIFF float f_cube(float re, float im) {
  float complex z = CMPLXF(re, im);
  z = z * z * z;
  return crealf(z) + 2 * cimagf(z);
}

static void t_grad_mag(void **state) {
  (void)state;
  rng_t rng = {name_seed("c_mag")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *re = gp_alloc(n * 8), *im = gp_alloc(n * 8), *w = gp_alloc(n * 8);
    double *r = gp_alloc(n * 8), *r2 = gp_alloc(n * 8);
    double *dre = gp_alloc(n * 8), *dim = gp_alloc(n * 8),
           *dw = gp_alloc(n * 8);
    for (size_t e = 0; e < n; e++) {
      re[e] = rng_range(&rng, -2, 2);
      im[e] = rng_range(&rng, -2, 2);
      w[e] = rng_range(&rng, -3, 3);
    }
    gp_seal(re), gp_seal(im), gp_seal(w);
    memset(dre, 0, n * 8), memset(dim, 0, n * 8), memset(dw, 0, n * 8);
    c_mag_batched(n, re, im, w, r);
    c_mag_grad(n, re, im, w, r2, NULL, dre, dim, dw);
    for (size_t e = 0; e < n; e++) {
      double s = c_mag(re[e], im[e], w[e]), h = 1e-6;
      same_result("c_mag", e, r[e], s, 1e-15);
      same_result("c_mag grad ret", e, r2[e], r[e], 0);
      double fre =
          (c_mag(re[e] + h, im[e], w[e]) - c_mag(re[e] - h, im[e], w[e])) /
          (2 * h);
      double fim =
          (c_mag(re[e], im[e] + h, w[e]) - c_mag(re[e], im[e] - h, w[e])) /
          (2 * h);
      double fw =
          (c_mag(re[e], im[e], w[e] + h) - c_mag(re[e], im[e], w[e] - h)) /
          (2 * h);
      /* (a branch's kink: both sides' differences disagree) */
      double fw2 = (c_mag(re[e], im[e], w[e] + h / 4) -
                    c_mag(re[e], im[e], w[e] - h / 4)) /
                   (h / 2);
      if (!close_to(fw, fw2, 1e-4))
        continue;
      same_result("c_mag d/dre", e, dre[e], fre, 1e-5);
      same_result("c_mag d/dim", e, dim[e], fim, 1e-5);
      same_result("c_mag d/dw", e, dw[e], fw, 1e-5);
    }
    gp_reset();
  }
}

/* NAME_grad of a function of 2 or 4 doubles against central differences
 * on [lo, hi]^k, where two step sizes agree (not across a branch's kink),
 * to a relative tolerance tol. */
typedef double (*fn4_t)(double, double, double, double);
typedef void (*grad4_t)(size_t, const double *, const double *, const double *,
                        const double *, double *, const double *, double *,
                        double *, double *, double *);
typedef double (*fn2_t)(double, double);
typedef void (*grad2_t)(size_t, const double *, const double *, double *,
                        const double *, double *, double *);
static double fd_args(int k, fn4_t f4, fn2_t f2, const double *x, double h) {
  double p[4], m[4];
  memcpy(p, x, sizeof p), memcpy(m, x, sizeof m);
  p[k] += h, m[k] -= h;
  return f4 ? (f4(p[0], p[1], p[2], p[3]) - f4(m[0], m[1], m[2], m[3])) /
                  (2 * h)
            : (f2(p[0], p[1]) - f2(m[0], m[1])) / (2 * h);
}
static void check_grad(const char *name, int k, fn4_t f4, grad4_t g4, fn2_t f2,
                       grad2_t g2, double lo, double hi, double tol) {
  rng_t rng = {name_seed(name)};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *x[4], *d[4];
    for (int j = 0; j < 4; j++) {
      x[j] = gp_alloc(n * 8), d[j] = gp_alloc(n * 8);
      for (size_t e = 0; e < n; e++)
        x[j][e] = rng_range(&rng, lo, hi);
      memset(d[j], 0, n * 8);
    }
    double *ret = gp_alloc(n * 8);
    if (k == 4)
      g4(n, x[0], x[1], x[2], x[3], ret, NULL, d[0], d[1], d[2], d[3]);
    else
      g2(n, x[0], x[1], ret, NULL, d[0], d[1]);
    for (size_t e = 0; e < n; e++) {
      double a[4] = {x[0][e], x[1][e], x[2][e], x[3][e]};
      double want = f4 ? f4(a[0], a[1], a[2], a[3]) : f2(a[0], a[1]);
      same_result(name, e, ret[e], want, 1e-12);
      for (int j = 0; j < k; j++) {
        double h = 1e-6 * (1 + fabs(a[j]));
        double fd = fd_args(j, f4, f2, a, h),
               fd2 = fd_args(j, f4, f2, a, h / 4);
        if (!close_to(fd, fd2, 1e-4))
          continue; /* a kink */
        char what[64];
        snprintf(what, sizeof what, "%s d/darg%d", name, j);
        same_result(what, e, d[j][e], fd, tol);
      }
    }
    gp_reset();
  }
}
#define GRAD4(fn, lo, hi, tol)                                                 \
  static void t_grad_##fn(void **state) {                                      \
    (void)state;                                                               \
    check_grad(#fn, 4, fn, fn##_grad, NULL, NULL, lo, hi, tol);                \
  }
#define GRAD2(fn, lo, hi, tol)                                                 \
  static void t_grad_##fn(void **state) {                                      \
    (void)state;                                                               \
    check_grad(#fn, 2, NULL, NULL, fn, fn##_grad, lo, hi, tol);                \
  }
GRAD4(c_helpers, -2, 2, 1e-5)
GRAD2(c_exp_re, -3, 3, 1e-6)
GRAD2(c_exp_im, -3, 3, 1e-6)
GRAD2(c_log_re, -3, 3, 1e-6)
GRAD2(c_log_im, -3, 3, 1e-6)
GRAD2(c_sqrt_re, -3, 3, 1e-6)
GRAD2(c_sqrt_im, -3, 3, 1e-6)
GRAD4(c_transfer, 0.1, 3, 1e-5)
GRAD4(c_roots, -3, 3, 1e-5)
GRAD2(c_incdec, -3, 3, 1e-6)

static void t_grad_cube(void **state) {
  (void)state;
  rng_t rng = {name_seed("c_cube")};
  for (size_t ni = 0; ni < N_TEST_NS; ni++) {
    size_t n = test_ns[ni];
    double *re = gp_alloc(n * 8), *im = gp_alloc(n * 8);
    double *dre = gp_alloc(n * 8), *dim = gp_alloc(n * 8);
    float *fre = gp_alloc(n * 4), *fim = gp_alloc(n * 4);
    float *fdre = gp_alloc(n * 4), *fdim = gp_alloc(n * 4);
    for (size_t e = 0; e < n; e++) {
      re[e] = rng_range(&rng, -3, 3);
      im[e] = rng_range(&rng, -3, 3);
      fre[e] = (float)re[e], fim[e] = (float)im[e];
    }
    memset(dre, 0, n * 8), memset(dim, 0, n * 8);
    memset(fdre, 0, n * 4), memset(fdim, 0, n * 4);
    c_cube_grad(n, re, im, NULL, NULL, dre, dim);
    f_cube_grad(n, fre, fim, NULL, NULL, fdre, fdim);
    for (size_t e = 0; e < n; e++) {
      double x = re[e], y = im[e];
      /* d/dx (x^3 - 3xy^2 + 2(3x^2y - y^3)), d/dy likewise */
      double gx = 3 * x * x - 3 * y * y + 12 * x * y;
      double gy = -6 * x * y + 6 * x * x - 6 * y * y;
      same_result("c_cube d/dre", e, dre[e], gx, 1e-12);
      same_result("c_cube d/dim", e, dim[e], gy, 1e-12);
      x = fre[e], y = fim[e];
      gx = 3 * x * x - 3 * y * y + 12 * x * y;
      gy = -6 * x * y + 6 * x * x - 6 * y * y;
      same_result("f_cube d/dre", e, fdre[e], gx, 1e-5);
      same_result("f_cube d/dim", e, fdim[e], gy, 1e-5);
    }
    gp_reset();
  }
}

int main(void) {
  const struct CMUnitTest tests[] = {
      T_(c_div_re),
      T_(c_div_im),
      T_(c_rdiv),
      T_(f_div_re),
      T_(f_div_im),
      T_(c_mul_re),
      T_(c_mul_im),
      T_(f_mul_re),
      T_(f_mul_im),
      T_(c_mix),
      T_(f_mix),
      T_(c_iter),
      T_(c_exp_re),
      T_(c_exp_im),
      T_(c_log_re),
      T_(c_log_im),
      T_(c_sqrt_re),
      T_(c_sqrt_im),
      T_(f_exp_re),
      T_(f_exp_im),
      T_(f_log_re),
      T_(f_log_im),
      T_(f_sqrt_re),
      T_(f_sqrt_im),
      T_(c_helpers),
      T_(f_helpers),
      T_(c_incdec),
      T_(c_abs),
      T_(c_arg),
      T_(f_abs),
      T_(f_arg),
      cmocka_unit_test(t_grad_mag),
      cmocka_unit_test(t_grad_cube),
      cmocka_unit_test(t_grad_c_helpers),
      cmocka_unit_test(t_grad_c_incdec),
      cmocka_unit_test(t_grad_c_exp_re),
      cmocka_unit_test(t_grad_c_exp_im),
      cmocka_unit_test(t_grad_c_log_re),
      cmocka_unit_test(t_grad_c_log_im),
      cmocka_unit_test(t_grad_c_sqrt_re),
      cmocka_unit_test(t_grad_c_sqrt_im),
      cmocka_unit_test(t_grad_c_transfer),
      cmocka_unit_test(t_grad_c_roots),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
