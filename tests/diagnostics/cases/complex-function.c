/* A <complex.h> function other than creal, cimag, conj, cabs, carg, cexp,
   clog and csqrt (and their float forms). Helpers taking and returning
   complex values are inlined. */
#include <complex.h>
static double complex twice(double complex z) { return 2 * z + I; }
__attribute__((batch, diff)) double f(double x) {
  double complex z = x + I;
  double complex e = csin(twice(csqrt(z)));
  // CHECK: complex-function.c:[[@LINE-1]]:22: error: the complex function 'csin' is not supported in a batch/diff function; it has no batched version yet: compute it from the parts with real math; use double complex or float complex locals and +, -, *, /, ==, !=, creal, cimag, conj, cabs, carg, cexp, clog, csqrt
  double s = cimagf(ctanhf(z));
  // CHECK: complex-function.c:[[@LINE-1]]:21: error: the complex function 'ctanhf' is not supported in a batch/diff function; it has no batched version yet: compute it from the parts with real math; use double complex or float complex locals and +, -, *, /, ==, !=, creal, cimag, conj, cabs, carg, cexp, clog, csqrt
  return creal(e) + s;
}
