/* test_user_macros.c's annotated function, in a file whose macros are
 * defined before anything of batchdiff's is included (the runtime headers
 * are first read with the generated code, after the macros). */
#include <complex.h> /* I, complex: the C library's, kept as they are */
#include <math.h>

#define A 2.0
#define B 3.0
#define N 4
#define n 5
#define o 0.25
#define p 0.5
#define v 1.5
#define i 7
#define SQR(a) ((a) * (a))
#define MAX(a, b) ((a) > (b) ? (a) : (b))
#define min(a, b) ((a) < (b) ? (a) : (b))
#define max(a, b) ((a) > (b) ? (a) : (b))
#define real double

__attribute__((batch, diff)) real um_f(real y) {
  real s = 0.0;
  for (int k = 0; k < N; k++)
    s += SQR(y) * A + B * p + v + i * o;
  return MAX(s, n) + min(y, 0.0) + max(y, -1.0);
}

/* Still defined after the function, with their values. */
int um_after(int k) {
  static const int after[N] = {n, i, N, 1};
  return after[k];
}
double um_g(double z) {
  double complex c = z + 2.0 * I;
  return SQR(z) + A + B + o + cimag(c);
}

/* d um_f / dy, written out. */
double um_df(double y) {
  double s = N * (SQR(y) * A + B * p + v + i * o);
  double d = s > n ? N * 2.0 * y * A : 0.0;
  d += y < 0.0 ? 1.0 : 0.0;
  d += y > -1.0 ? 1.0 : 0.0;
  return d;
}
