/* A complex parameter, return value or pointer parameter of an annotated
   function (complex locals are supported: pass the parts). */
#include <complex.h>
__attribute__((batch, diff)) double p(double complex z) { return creal(z); }
// CHECK: complex-params.c:[[@LINE-1]]:54: error: parameter 'z' of type '_Complex double' is not supported in a batch/diff function; pass its real and imaginary parts as two double (or float) parameters and make a complex local of them ('double complex z = re + im * I;')
__attribute__((batch, diff)) double complex r(double x) { return x * I; }
// CHECK: complex-params.c:[[@LINE-1]]:30: error: returning type '_Complex double' is not supported in a batch/diff function; return a scalar, or write the real and imaginary parts through out-parameters 'double *re, double *im' (complex locals are supported)
__attribute__((batch, diff)) double a(double x, const double complex *zs) {
  // CHECK: complex-params.c:[[@LINE-1]]:71: error: pointer parameter 'zs' to 'const _Complex double' is not supported in a batch/diff function; pass the real and imaginary parts as two arrays of doubles (or floats), or one array of re, im pairs, and make double complex locals of them
  return creal(zs[0]) * x;
}
