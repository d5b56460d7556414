/* Division by a complex value under -fcx-limited-range (also
   -fcx-fortran-rules, -ffast-math): clang computes it without libgcc's
   __divdc3, which is what the batched code computes. */
// FLAGS: -fcx-limited-range
#include <complex.h>
__attribute__((batch, diff)) double f(double x, double y) {
  double complex z = x + y * I;
  z = z / x;
  z = (1.0 + z) / z;
  // CHECK: complex-divide.c:[[@LINE-1]]:17: error: division by a complex value under -fcx-limited-range, -fcx-fortran-rules or -ffast-math is not supported in a batch/diff function; compile without them (clang then divides in libgcc's __divdc3, which the batched code computes), or divide by a real number
  return cabs(z);
}
