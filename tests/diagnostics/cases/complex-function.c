/* A <complex.h> function other than creal, cimag, conj, cabs and carg
   (and their float forms), or a helper returning a complex value or taking
   one. */
#include <complex.h>
static double complex twice(double x) { return 2 * x + I; }
static double re(double complex z) { return creal(z); }
__attribute__((batch, diff)) double f(double x) {
  double complex z = x + I;
  double complex e = cexp(z);
  // CHECK: complex-function.c:[[@LINE-1]]:22: error: the complex function 'cexp' is not supported in a batch/diff function; it has no batched version yet: compute it from the parts with real math (cexp(z) is exp(re) * (cos(im) + sin(im) * I)); use double complex or float complex locals and +, -, *, /, ==, !=, creal, cimag, conj, cabs, carg
  double s = cimag(csqrt(z));
  // CHECK: complex-function.c:[[@LINE-1]]:20: error: the complex function 'csqrt' is not supported in a batch/diff function; it has no batched version yet: compute it from the parts with real math; use double complex or float complex locals and +, -, *, /, ==, !=, creal, cimag, conj, cabs, carg
  double t = creal(twice(x));
  // CHECK: complex-function.c:[[@LINE-1]]:20: error: a helper returning a complex value is not supported in a batch/diff function; return its real and imaginary parts through two calls or compute it in the caller (complex locals work)
  double u = re(z);
  // CHECK: complex-function.c:[[@LINE-10]]:33: error: helper parameter 'z' is not supported in a batch/diff function; pass its real and imaginary parts as two doubles (or floats) and make a complex local of them in the helper ('double complex z = re + im * I;')
  return u + creal(e) + s + t;
}
