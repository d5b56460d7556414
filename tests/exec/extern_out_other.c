/* Functions another translation unit defines (extern_out.h), with
 * out-pointers and tables: each records its call, its arguments, what its
 * pointees held and the table's elements it reads (xo_record). */
#include "extern_out.h"

#include <math.h>
#include <string.h>

static uint64_t b64(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}
static uint64_t b32(float x) {
  uint32_t u;
  memcpy(&u, &x, sizeof u);
  return u;
}

void xo_ebd0(double x, double M, double *yh, double *yl) {
  xo_record(1, b64(x) ^ (b64(M) << 1));
  double r = x / M;
  double h = x * (r - 1.0) / (r + 1.0);
  *yh = h;
  *yl = M - x + 0x1p-30 * h;
}

int xo_accum(double *acc, double v, int *count) {
  xo_record(2, b64(*acc) ^ (b64(v) << 3) ^ (uint64_t)(uint32_t)*count);
  *acc = 0.5 * *acc + v;
  *count += 1;
  return *acc > 10.0;
}

void xo_bratio(double a, double b, double x, double y, double *w, double *wc,
               int *ierr, int log_p) {
  xo_record(3, b64(a) ^ (b64(b) << 5) ^ (b64(x) << 7) ^ (b64(y) << 11) ^
                   (uint64_t)log_p);
  if (a <= 0.0 || b <= 0.0 || x < 0.0 || x > 1.0) {
    *w = *wc = -1.0;
    *ierr = a <= 0.0 ? 2 : 1;
    return;
  }
  *w = x * x * a / (a + b) + y * 0.125;
  *wc = 1.0 - *w;
  if (log_p)
    *wc = -*wc;
  *ierr = 0;
}

double xo_cheb(double x, const double *a, int n) {
  uint64_t h = b64(x);
  for (int i = 0; i < n; i++)
    h = h * 31 ^ b64(a[i]);
  xo_record(4, h ^ (uint64_t)n);
  double b0 = 0.0, b1 = 0.0, b2 = 0.0, twox = x * 2;
  for (int i = 1; i <= n; i++) {
    b2 = b1;
    b1 = b0;
    b0 = twox * b1 - b2 + a[n - i];
  }
  return (b0 - b2) * 0.5;
}

float xo_chebf(float x, const float *a, int n) {
  uint64_t h = b32(x);
  for (int i = 0; i < n; i++)
    h = h * 31 ^ b32(a[i]);
  xo_record(5, h ^ (uint64_t)n);
  float s = 0.0f;
  for (int i = n - 1; i >= 0; i--)
    s = s * x + a[i];
  return s;
}

double xo_polevl(double x, const double coef[], int N) {
  uint64_t h = b64(x) ^ (uint64_t)(coef == xo_P) << 63;
  for (int i = 0; i <= N; i++)
    h = h * 31 ^ b64(coef[i]);
  xo_record(6, h);
  double s = coef[0];
  for (int i = 1; i <= N; i++)
    s = s * x + coef[i];
  return s;
}

void xo_splitf(float x, float *hi, short *e, unsigned *u) {
  xo_record(7, b32(x) ^ (b32(*hi) << 1) ^ ((uint64_t)(uint16_t)*e << 33) ^
                   ((uint64_t)*u << 40));
  int ex;
  float m = frexpf(x, &ex);
  *hi = m + *hi;
  *e = (short)(*e * 3 + ex);
  *u = *u * 2654435761u + (unsigned)ex;
}

void xo_wide(double x, long *k, unsigned long *m, float *f) {
  xo_record(8, b64(x) ^ ((uint64_t)*k << 2) ^ (*m << 9) ^ b32(*f));
  *k = *k * 1000003L - (long)(x * 16.0);
  *m = *m * 0x9e3779b97f4a7c15UL + 1;
  *f = *f * 0.5f + (float)x;
}
