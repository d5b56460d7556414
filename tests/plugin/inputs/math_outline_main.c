/* options.test.sh: NAME (inline math) and NAME_o (math=outline) give the
 * same bits, values and gradients, on ordinary and special inputs; a NaN
 * matches any NaN (docs/abi.md: NaN sign and payload are unspecified, and
 * they do differ here, the operands of x + x for a NaN lane being ordered
 * differently once the body is inlined). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#define DECL(S)                                                                \
  void md##S##_batched(size_t, const double *, const double *, double,         \
                       const int *, double *);                                 \
  void md##S##_grad(size_t, const double *, const double *, double,            \
                    const int *, double *, const double *, double *, double *, \
                    double *);                                                 \
  void mf##S##_batched(size_t, const float *, const float *, float *);         \
  void mf##S##_grad(size_t, const float *, const float *, float *,             \
                    const float *, float *, float *);
DECL()
DECL(_o)

enum { N = 37 };

#define SAME(T)                                                                \
  static int same_##T(const T *a, const T *b, size_t n, const char *what) {    \
    for (size_t i = 0; i < n; i++)                                             \
      if (memcmp(&a[i], &b[i], sizeof a[i]) &&                                 \
          !(isnan(a[i]) && isnan(b[i]))) {                                     \
        printf("%s differs at %zu: %a, %a\n", what, i, (double)a[i],           \
               (double)b[i]);                                                  \
        return 0;                                                              \
      }                                                                        \
    return 1;                                                                  \
  }
SAME(double)
SAME(float)

int main(void) {
  static const double sp[] = {0.0,  -0.0,     1e-310,    -3.5, 710.0, -800.0,
                              30.0, INFINITY, -INFINITY, NAN,  1e300, 0.75};
  double x[N], y[N];
  float xf[N], yf[N];
  int k[N];
  unsigned s = 12345;
  for (int i = 0; i < N; i++) {
    s = s * 1103515245u + 12345u;
    x[i] = i < 12 ? sp[i] : (double)(s >> 8) / (1u << 24) * 6.0 - 3.0;
    s = s * 1103515245u + 12345u;
    y[i] = i >= 25 ? sp[i - 25] : (double)(s >> 8) / (1u << 24) * 4.0 - 2.0;
    xf[i] = (float)x[i];
    yf[i] = (float)y[i];
    k[i] = i % 5;
  }
  int ok = 1;
  for (int g = 0; g < 2; g++) {
    double r[2][N], dx[2][N], dy[2][N], dw[2] = {0, 0};
    float rf[2][N], dxf[2][N], dyf[2][N];
    memset(dx, 0, sizeof dx);
    memset(dy, 0, sizeof dy);
    memset(dxf, 0, sizeof dxf);
    memset(dyf, 0, sizeof dyf);
    if (g == 0) {
      md_batched(N, x, y, 0.7, k, r[0]);
      md_o_batched(N, x, y, 0.7, k, r[1]);
      mf_batched(N, xf, yf, rf[0]);
      mf_o_batched(N, xf, yf, rf[1]);
    } else {
      md_grad(N, x, y, 0.7, k, r[0], NULL, dx[0], dy[0], &dw[0]);
      md_o_grad(N, x, y, 0.7, k, r[1], NULL, dx[1], dy[1], &dw[1]);
      mf_grad(N, xf, yf, rf[0], NULL, dxf[0], dyf[0]);
      mf_o_grad(N, xf, yf, rf[1], NULL, dxf[1], dyf[1]);
    }
    ok &= same_double(r[0], r[1], N, "md value");
    ok &= same_float(rf[0], rf[1], N, "mf value");
    ok &= same_double(dx[0], dx[1], N, "md d_x");
    ok &= same_double(dy[0], dy[1], N, "md d_y");
    ok &= same_double(&dw[0], &dw[1], 1, "md d_w");
    ok &= same_float(dxf[0], dxf[1], N, "mf d_x");
    ok &= same_float(dyf[0], dyf[1], N, "mf d_y");
  }
  return ok ? 0 : 1;
}
