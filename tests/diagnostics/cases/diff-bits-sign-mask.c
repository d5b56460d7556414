/* musl's copysign with another mask for the other float's bits (two bits,
   not the sign's): not copysign, so the derivative would be lost in the
   bits. */
#include <stdint.h>
__attribute__((batch, diff)) double f(double x, double y) {
  union { double f; uint64_t i; } ux = {x}, uy = {y};
  ux.i &= -1ULL / 2;
  ux.i |= uy.i & 3ULL << 62;
  return ux.f;
  // CHECK: diff-bits-sign-mask.c:[[@LINE-1]]:10: error: a float made from the bits of a value that carries a derivative (a bit cast back from integers) is not supported in a diff function; its derivative cannot be followed through integer bits: compute it from BD_NODIFF inputs, use the <math.h> function (frexp, ldexp, copysign, fabs, ...), or use 'batch' without 'diff'
}
