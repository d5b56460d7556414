/* Models of bench_arrays (docs/performance.md, "Per-example arrays"):
 * least squares over 8 points per example, the points as records (AoS,
 * `const struct pt pts[8]`) and as two arrays (`const double xs[8]`,
 * `const double ys[8]`; per-example arrays of a static extent, stride 8 in
 * the batched ABI), a 3x3 quadratic form and a float 4-vector dot product
 * (arrays back to back), plus their scalar loops in the same file (one call
 * per example). */
#include <batchdiff.h>

#include <stddef.h>

#ifndef AR_SFX
#define AR_SFX
#define AR_LOOPS 1
#endif
#define AR_CAT2(a, b) a##b
#define AR_CAT(a, b) AR_CAT2(a, b)
#define AR(name) AR_CAT(name, AR_SFX)

struct ar_pt {
  double x, y;
};

BATCHDIFF double AR(ar_fit)(const struct ar_pt pts[8], double a, double b) {
  double s = 0;
  for (int i = 0; i < 8; i++) {
    double r = pts[i].y - (a * pts[i].x + b);
    s += r * r;
  }
  return s / 8;
}

BATCHDIFF double AR(ar_fit2)(const double xs[8], const double ys[8], double a,
                             double b) {
  double s = 0;
  for (int i = 0; i < 8; i++) {
    double r = ys[i] - (a * xs[i] + b);
    s += r * r;
  }
  return s / 8;
}

BATCHDIFF float AR(ar_fit2f)(const float xs[8], const float ys[8], float a,
                             float b) {
  float s = 0;
  for (int i = 0; i < 8; i++) {
    float r = ys[i] - (a * xs[i] + b);
    s += r * r;
  }
  return s / 8;
}

/* Small arrays back to back (stride = extent, as arrays of vec3/mat3
 * records lie): a 3x3 quadratic form and a float 4-vector dot product. */
BATCHDIFF double AR(ar_quad3)(const double A[3][3], const double x[3]) {
  double y[3] = {0, 0, 0};
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++)
      y[i] += A[i][j] * x[j];
  return x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
}

BATCHDIFF float AR(ar_dot4f)(const float u[4], const float v[4]) {
  return u[0] * v[0] + u[1] * v[1] + u[2] * v[2] + u[3] * v[3];
}

#ifdef AR_LOOPS
/* The scalar loops call the scalar function once per example, not inlined:
 * inlined, clang -O3 vectorizes the loop over the examples with 16 gathers
 * per 8 examples, 5-8x slower than these calls on Zen 4. */
#define AR_NOINL __attribute__((noinline))
static AR_NOINL double fit_1(const struct ar_pt *p, double a, double b) {
  return ar_fit(p, a, b);
}
static AR_NOINL double fit2_1(const double *xs, const double *ys, double a,
                              double b) {
  return ar_fit2(xs, ys, a, b);
}
static AR_NOINL float fit2f_1(const float *xs, const float *ys, float a,
                              float b) {
  return ar_fit2f(xs, ys, a, b);
}
static AR_NOINL double quad3_1(const double *A, const double *x) {
  return ar_quad3((const double(*)[3])A, x);
}
static AR_NOINL float dot4f_1(const float *u, const float *v) {
  return ar_dot4f(u, v);
}
void ar_quad3_loop(size_t n, const double *A, const double *x, double *ret) {
  for (size_t e = 0; e < n; e++)
    ret[e] = quad3_1(A + 9 * e, x + 3 * e);
}
void ar_dot4f_loop(size_t n, const float *u, const float *v, float *ret) {
  for (size_t e = 0; e < n; e++)
    ret[e] = dot4f_1(u + 4 * e, v + 4 * e);
}
void ar_fit_loop(size_t n, const struct ar_pt *p, const double *a,
                 const double *b, double *ret) {
  for (size_t e = 0; e < n; e++)
    ret[e] = fit_1(p + 8 * e, a[e], b[e]);
}
void ar_fit2_loop(size_t n, const double *xs, const double *ys, const double *a,
                  const double *b, double *ret) {
  for (size_t e = 0; e < n; e++)
    ret[e] = fit2_1(xs + 8 * e, ys + 8 * e, a[e], b[e]);
}
void ar_fit2f_loop(size_t n, const float *xs, const float *ys, const float *a,
                   const float *b, float *ret) {
  for (size_t e = 0; e < n; e++)
    ret[e] = fit2f_1(xs + 8 * e, ys + 8 * e, a[e], b[e]);
}
#endif
