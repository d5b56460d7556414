/* fabs through fdlibm's words in a diff function: the derivative would be
 * lost in the bits (in a batch function it works). */
#include <stdint.h>
typedef union { double value; struct { uint32_t lsw, msw; } parts; } shape;
__attribute__((batch, diff)) double absw(double x) {
  shape s;
  s.value = x;
  s.parts.msw &= 0x7fffffffu;
  return s.value * x;
  // CHECK: diff-union.c:[[@LINE-1]]:10: error: a float made from the bits of a value that carries a derivative (a bit cast back from integers) is not supported in a diff function; its derivative cannot be followed through integer bits: compute it from BD_NODIFF inputs, use the <math.h> function (frexp, ldexp, copysign, fabs, ...), or use 'batch' without 'diff'
}
