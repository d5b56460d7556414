/* Complex locals other than double complex and float complex scalars:
   arrays of them, pointers to them, integer complex types. */
#include <complex.h>
__attribute__((batch, diff)) double f(double x) {
  double complex t[2] = {x, x * I};
  // CHECK: complex-locals.c:[[@LINE-1]]:18: error: local array 't' of type '_Complex double[2]' is not supported in a batch/diff function; use two arrays of doubles (or floats) for the real and imaginary parts (complex scalar locals are supported)
  double complex z = x + I;
  double complex *q = &z;
  // CHECK: complex-locals.c:[[@LINE-1]]:23: error: a pointer to '_Complex double' is not supported in a batch/diff function; keep complex values in double complex or float complex locals (pointers to them are not supported)
  _Complex int k = 2;
  // CHECK: complex-locals.c:[[@LINE-1]]:16: error: local variable 'k' of type '_Complex int' is not supported in a batch/diff function; use double complex or float complex locals
  return creal(z) + creal(t[0]) + creal(*q) + __real__ k;
}
