/* Clearing low bits of the mantissa (a truncation): the derivative would be
   lost in the bits. (The sign bit alone cleared is fabs, and or'ed in from
   another float copysign: those work, tests/exec/test_bit_sign.c.) */
#include <stdint.h>
#include <string.h>
__attribute__((batch, diff)) double absbits(double x) {
  uint64_t u;
  memcpy(&u, &x, sizeof u);
  u &= 0xffffffffffff0000ull;
  double y;
  memcpy(&y, &u, sizeof y);
  // CHECK: diff-bitcast.c:[[@LINE-1]]:3: error: a float made from the bits of a value that carries a derivative (a bit cast back from integers) is not supported in a diff function; its derivative cannot be followed through integer bits: compute it from BD_NODIFF inputs, use the <math.h> function (frexp, ldexp, copysign, fabs, ...), or use 'batch' without 'diff'
  return y * x;
}
