/* Division by a complex value (clang calls __divdc3); division of a
   complex value by a real one is supported. */
#include <complex.h>
__attribute__((batch, diff)) double f(double x, double y) {
  double complex z = x + y * I;
  z = z / x;
  z = (1.0 + z) / z;
  // CHECK: complex-divide.c:[[@LINE-1]]:17: error: division by a complex value is not supported in a batch/diff function; divide by a real number, or multiply by conj(w) and divide by creal(w) * creal(w) + cimag(w) * cimag(w) (clang divides by a complex value in __divdc3, which has no batched version yet)
  return cabs(z);
}
